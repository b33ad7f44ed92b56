"""The one exception tree of charlotte.

::

    CharlotteError                 root of everything charlotte raises on purpose
    ├── PageSessionError           charlotte.page.errors: a coded page-document
    │                              error (.code, .at, .detail)
    ├── Refused                    charlotte.policy: "not allowed", a stable
    │                              .reason with a fixed sentence in Refused.MESSAGES
    └── StorageError               charlotte.storage: a database problem, translated
                                   at the adapter boundary (driver errors never leak)

Every error that reaches a host carries a stable *code*; messages shown to a
person come from fixed tables, never from an exception's text.
"""

from __future__ import annotations

from charlotte.page.errors import CharlotteError, PageSessionError
from charlotte.policy.refused import Refused
from charlotte.storage.errors import StorageError

__all__ = ["CharlotteError", "PageSessionError", "Refused", "StorageError"]
