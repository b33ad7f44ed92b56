"""The one exception tree of charlotte.

::

    CharlotteError                 root of everything charlotte raises on purpose
    ├── PageSessionError           page/errors.py: a coded page-document error
    │                              (.code, .at, .detail)
    ├── Refused                    policy/: "not allowed", a stable .reason with a
    │                              fixed human sentence in Refused.MESSAGES
    └── StorageError               storage/: a database problem, translated at the
                                   adapter boundary (driver errors never leak)

Every error that reaches a host carries a stable *code*; messages shown to a
person come from fixed tables, never from an exception's text.
"""

from __future__ import annotations


class CharlotteError(Exception):
    """Root of every exception charlotte raises on purpose."""

    code: str = "charlotte_error"
