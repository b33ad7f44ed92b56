"""``Memo``: a small bounded memo of what the checks read, by the exact text read.

A page is checked again and again during a turn while its brief, its facts and
most of its texts stay the same, so what reading them found is kept here
instead of being read again. An entry is found only under an equal key (the
exact text), so a changed text is always read afresh. Both the number of
entries and their total size are bounded: a page of 2,000 hostile texts may
not keep gigabytes of claims alive.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """Least recently used entries, at most ``entries`` of them weighing ``budget`` in all.

    >>> memo: Memo[str, int] = Memo(entries=2, budget=100)
    >>> memo.get_or_make("abc", len, lambda text, _n: len(text))
    3
    >>> len(memo)
    1
    """

    __slots__ = ("_budget", "_entries", "_limit", "_lock", "_weight")

    def __init__(self, *, entries: int, budget: int) -> None:
        self._limit = entries
        self._budget = budget
        self._weight = 0
        self._lock = threading.Lock()  # the tools are shared by every worker thread
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get_or_make(self, key: K, make: Callable[[K], V], weigh: Callable[[K, V], int]) -> V:
        """The value kept under ``key``, else ``make(key)``, kept when its weight fits the budget.

        ``make`` runs outside the lock: two threads may both make a missing
        value (the same one); neither waits for the other.
        """
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                return entry[0]
        value = make(key)
        size = weigh(key, value)
        if size > self._budget:
            return value
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._weight -= old[1]
            self._entries[key] = (value, size)
            self._weight += size
            while len(self._entries) > self._limit or self._weight > self._budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._weight -= dropped
        return value
