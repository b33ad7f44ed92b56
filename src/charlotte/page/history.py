"""The bounded op history behind ``PageSession.changes_since``.

An entry ``{"revision", "actor", "op"}`` records one applied op; ``revision`` is
the document's revision right after it. The window keeps the last ``limit``
entries and always ends at the document's current revision, so a caller that
read revision ``r`` can catch up while ``r`` is at most ``limit`` ops behind.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from typing import Any

from charlotte.errors import PageSessionError

Change = dict[str, Any]


class OpHistory:
    """The last ``limit`` applied ops, contiguous, ending at ``revision``."""

    __slots__ = ("_entries", "_revision")

    def __init__(self, entries: Iterable[Mapping[str, Any]], *, limit: int, revision: int) -> None:
        if type(limit) is not int or limit < 1:
            raise ValueError("history limit must be a positive integer")
        self._entries: deque[tuple[int, str, dict[str, Any]]] = deque(maxlen=limit)
        self._revision = revision
        previous: int | None = None
        for entry in entries:
            rev, actor, op = _unpack(entry)
            if previous is not None and rev != previous + 1:
                raise PageSessionError("invalid_state", detail="history: revisions are not contiguous")
            previous = rev
            self._entries.append((rev, actor, op))
        if previous is not None and previous != revision:
            raise PageSessionError("invalid_state", detail="history: does not end at the document's revision")

    @property
    def revision(self) -> int:
        """The revision the window ends at."""
        return self._revision

    @property
    def earliest(self) -> int:
        """The oldest revision ``since`` can answer from."""
        return self._entries[0][0] - 1 if self._entries else self._revision

    def record(self, actor: str, ops: Sequence[dict[str, Any]]) -> None:
        """Append ops applied in order after the current revision."""
        for op in ops:
            self._revision += 1
            self._entries.append((self._revision, actor, op))

    def since(self, revision: object) -> list[Change]:
        """Changes after ``revision``, oldest first.

        A revision above the current one raises ``stale_revision`` (the caller
        holds a revision this document never had); one older than the window
        (or negative) raises ``history_truncated``. Both details carry the
        current revision; ``history_truncated`` also the earliest answerable one.
        """
        if type(revision) is not int or revision > self._revision:
            raise PageSessionError("stale_revision", detail={"revision": self._revision})
        earliest = self.earliest
        if revision < earliest:
            raise PageSessionError(
                "history_truncated", detail={"revision": self._revision, "earliest": earliest}
            )
        skip = revision - earliest
        return [
            {"revision": rev, "actor": actor, "op": op}
            for rev, actor, op in islice(self._entries, skip, None)
        ]


def _unpack(entry: object) -> tuple[int, str, dict[str, Any]]:
    if isinstance(entry, Mapping):
        rev, actor, op = entry.get("revision"), entry.get("actor"), entry.get("op")
        if type(rev) is int and rev >= 1 and type(actor) is str and type(op) is dict:
            return rev, actor, op
    raise PageSessionError("invalid_state", detail="history: entry must be {revision, actor, op}")
