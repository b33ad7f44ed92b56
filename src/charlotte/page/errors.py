"""Errors of the page core, and the root of charlotte's exception tree.

``CharlotteError`` is defined here because ``page/`` is the bottom layer and
imports nothing else of charlotte; ``charlotte.errors`` re-exports it and draws
the whole tree.
"""

from __future__ import annotations

from collections.abc import Mapping

#: What ``PageSessionError.detail`` may hold: a short fixed text (usually the
#: offending field, e.g. ``"style.base.padding"``), a small map of revisions
#: (``stale_revision``, ``history_truncated``), or nothing.
Detail = str | Mapping[str, int] | None


class CharlotteError(Exception):
    """Root of every exception charlotte raises on purpose."""

    code: str = "charlotte_error"


class PageSessionError(CharlotteError):
    """A coded page-document error raised by ``PageSession``.

    ``code`` is one of ``CODES``. ``at`` is the index of the offending op in the
    batch (``None`` when the error is not about one op). ``detail`` is our own
    short text or data, never an exception's message, so callers may show it.
    ``invalid_state`` means the stored document itself is corrupt (callers
    rethrow it); every other code is the caller's mistake.

    >>> PageSessionError("invalid_props", at=2, detail="props.level")
    PageSessionError('invalid_props', at=2, detail='props.level')
    """

    CODES = frozenset(
        {
            "stale_revision",
            "history_truncated",
            "node_not_found",
            "duplicate_id",
            "parent_not_found",
            "cycle",
            "invalid_reorder",
            "unknown_op",
            "type_not_allowed",
            "invalid_props",
            "invalid_style",
            "invalid_id",
            "limit_exceeded",
            "invalid_state",
        }
    )

    code: str
    at: int | None
    detail: Detail

    def __init__(self, code: str, at: int | None = None, detail: Detail = None) -> None:
        if code not in self.CODES:
            raise ValueError(f"unknown PageSessionError code {code!r}")
        # Positional args let the exception pickle and copy like a builtin one.
        super().__init__(code, at, detail)
        self.code = code
        self.at = at
        self.detail = detail

    def __str__(self) -> str:
        parts = [self.code]
        if self.at is not None:
            parts.append(f"at op {self.at}")
        if self.detail is not None:
            parts.append(f"({self.detail!r})" if not isinstance(self.detail, str) else f"({self.detail})")
        return " ".join(parts)

    def __repr__(self) -> str:
        detail = dict(self.detail) if isinstance(self.detail, Mapping) else self.detail
        return f"{type(self).__name__}({self.code!r}, at={self.at!r}, detail={detail!r})"
