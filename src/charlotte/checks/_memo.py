"""``Memo``: a small bounded memo of what the checks read, by the exact text read.

A page is checked again and again during a turn while its brief, its facts and
most of its texts stay the same, so what reading them found is kept here
instead of being read again. An entry is found only under an equal key (the
exact text), so a changed text is always read afresh. Both the number of
entries and their total size are bounded: a page of 2,000 hostile texts may
not keep gigabytes of claims alive.

A memo given ``pack`` and ``unpack`` keeps each value packed, as plain tuples
of strings, numbers and None: CPython's cyclic garbage collector stops tracking
such a tuple at the first collection that finds every item in it untracked (a
tuple of tuples a collection later, so each claim is packed as one flat tuple),
while it tracks dataclass instances and frozensets for good. Kept as objects,
the tens of thousands of claims of a full memo would be walked by every full
collection of the host's process, slowing all of its work, not the checks
alone. A hit rebuilds the value (``unpack``): an equal value, not the same
object.

Private to ``checks/``: the readers (``claims``, ``copytext``, ``facts``)
keep their memos as module or instance fields and reach them only through
``get_or_make``. The plain path is no memo (``make`` every time), and
``tests/unit/checks/test_memo.py`` compares the checks' findings with and
without. The figures: ``docs/checks.md`` and ``docs/performance.md``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
P = TypeVar("P")


class Memo(Generic[K, V]):
    """Least recently used entries, at most ``entries`` of them weighing ``budget`` in all.

    >>> memo: Memo[str, int] = Memo(entries=2, budget=100)
    >>> memo.get_or_make("abc", len, lambda text, _n: len(text))
    3
    >>> len(memo)
    1

    ``pack`` and ``unpack`` (both or neither) turn a value into the form kept
    and back; ``unpack(pack(value)) == value`` must hold for every value.
    """

    __slots__ = ("_budget", "_entries", "_limit", "_lock", "_pack", "_unpack", "_weight")

    def __init__(
        self,
        *,
        entries: int,
        budget: int,
        pack: Callable[[V], P] | None = None,
        unpack: Callable[[P], V] | None = None,
    ) -> None:
        if (pack is None) != (unpack is None):
            raise TypeError("a memo takes both pack and unpack, or neither")
        self._limit = entries
        self._budget = budget
        self._weight = 0
        self._lock = threading.Lock()  # the tools are shared by every worker thread
        # The kept form's type is the caller's (checked where pack and unpack meet).
        self._pack: Callable[[V], Any] | None = pack
        self._unpack: Callable[[Any], V] | None = unpack
        self._entries: OrderedDict[K, tuple[Any, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get_or_make(self, key: K, make: Callable[[K], V], weigh: Callable[[K, V], int]) -> V:
        """The value kept under ``key``, else ``make(key)``, kept when its weight fits the budget.

        ``make`` runs outside the lock: two threads may both make a missing
        value (the same one); neither waits for the other. So does ``unpack``.
        """
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is not None:
            kept = entry[0]
            return kept if self._unpack is None else self._unpack(kept)
        value = make(key)
        size = weigh(key, value)
        if size > self._budget:
            return value
        kept = value if self._pack is None else self._pack(value)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._weight -= old[1]
            self._entries[key] = (kept, size)
            self._weight += size
            while len(self._entries) > self._limit or self._weight > self._budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._weight -= dropped
        return value
