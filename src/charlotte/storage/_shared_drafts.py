"""``SharedDrafts``: the drafts a process stored or read, held by their exact text.

Decoding or encoding a large draft costs about as much as the SQL of the
write that changes it (the figures: ``docs/performance.md``, "Figures by part",
``storage/_shared_drafts.py``); ``DatabasePageRepository`` holds the last
draft of each page here so that the next write of that page does neither
again (see the class). Only shared loads and saves use it: callers that
never mutate what they load (the workspace's writes, copy-on-write).

Private to ``storage/``: the one seam is ``DatabasePageRepository(shared=)``
with its ``shared=True`` loads and saves. The plain path is a repository
without it (every draft decoded and encoded afresh);
``tests/support/database_pages.py`` compares the two on SQLite and
PostgreSQL (stored text, loaded drafts, refusals).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from charlotte.storage.types import Members, dumps_reusing

__all__ = ["SharedDrafts"]


class SharedDrafts:
    """The last draft text this process stored or read per page, with its decoded document.

    A load that reads back *exactly* the text held here (a
    string comparison) returns the held document instead of decoding it
    again. The text is the key, so a draft changed by anyone else, or a save
    rolled back, is simply not equal and is decoded as usual. The documents
    are shared between loads: only a caller that never mutates a loaded
    draft (the workspace's writes, which are copy-on-write) may ask for them.

    Encoding one costs as much again: a shared save (``encode``) keeps each
    node's text with the node object it was made from, and the next shared
    save of the page reuses the text of every node that is still that very
    object (a write copies only the nodes it changes), so it encodes only
    what the write changed. The text is the same ``dumps`` would write.
    """

    __slots__ = ("_entries", "_limit", "_lock")

    def __init__(self, limit: int = 16) -> None:
        self._limit = limit
        self._lock = threading.Lock()  # workers share one repository across threads
        self._entries: OrderedDict[tuple[str, str], tuple[str, dict[str, Any], Members | None]] = (
            OrderedDict()
        )

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: tuple[str, str], text: str) -> dict[str, Any] | None:
        """The document held for ``key`` when its text equals ``text``."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is None or entry[0] != text:
            return None
        return entry[1]

    def put(self, key: tuple[str, str], text: str, doc: dict[str, Any]) -> None:
        """Hold ``doc`` as the decoding of ``text`` for ``key`` (the oldest page goes past the limit)."""
        self._hold(key, (text, doc, None))

    def encode(self, key: tuple[str, str], doc: dict[str, Any]) -> str:
        """``doc``'s stored text (``dumps``), reusing the node texts of ``key``'s last ``encode``; held.

        ``doc`` is held as the decoding of its text, like ``put``; neither it
        nor any node it holds may be mutated afterwards. Raises what ``dumps`` raises.
        """
        with self._lock:
            entry = self._entries.get(key)
        text, nodes = dumps_reusing(doc, "nodes", entry[2] if entry is not None else None)
        self._hold(key, (text, doc, nodes))
        return text

    def _hold(self, key: tuple[str, str], entry: tuple[str, dict[str, Any], Members | None]) -> None:
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self._limit:
                self._entries.popitem(last=False)
