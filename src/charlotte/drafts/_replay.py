"""Replaying a change set's ops on a page: ``replay`` (an approval, a partial rejection).

``ChangeSets.replay`` binds the rules (the tenant's links and assets of
today) and the chunk size; this module is the loop, kept small so that a
long set costs what its ops cost and no more:

- the ops come from an iterable and are taken a slice at a time
  (``MAX_OPS_PER_APPLY``): an approval hands ``ChangeSet.each_op``, which
  decodes the stored text as the replay takes it;
- each slice is checked for links, applied, and handed to ``store`` (an
  approval writes its op history there) before the next is decoded, so
  10,000 ops are never all alive at once. Measured: a 10,000-op approval
  used to promote about 31,000 objects into the collector's oldest
  generation (enough to trigger a full collection of a server process's
  150,000 objects, 75-100 ms, inside the approval), now about 18,000;
- AssetPolicy checks the nodes a chunk touched once the chunk is applied.

The conflict is the first op that fails a link or its apply (an op before
a refused link that fails to apply comes first), and for AssetPolicy the
last op of the chunk that wrote the refused node.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from charlotte.errors import PageSessionError, Refused, ReplayConflict
from charlotte.events import AGENT_ACTOR
from charlotte.page.node_types import MAX_OPS_PER_APPLY
from charlotte.page.ops import written_node_id
from charlotte.page.session import Applied, PageSession

__all__ = ["Replayed", "replay"]


@dataclass(frozen=True, slots=True)
class Replayed:
    """What a replay did: how many ops it applied and the nodes they touched (the revision: the page's).

    ``ops`` are the applied ops themselves only for a replay that kept them
    (no ``store``); one that stored each slice as it went leaves it empty.
    """

    count: int
    node_ids: tuple[str, ...]
    ops: list[dict[str, Any]]


def replay(
    page: PageSession,
    ops: Iterable[dict[str, Any]],
    *,
    chunk: int,
    links: Callable[[list[dict[str, Any]]], None],
    assets: Callable[[dict[str, Any], tuple[str, ...]], None],
    store: Callable[[Applied], None] | None = None,
) -> Replayed:
    """Apply ``ops`` to ``page``; raise ``ReplayConflict`` at the first that fails (module docstring).

    ``links`` refuses a slice's ops (``Refused`` with the op's index),
    ``assets`` a chunk's touched nodes on the page. ``ops`` are handed over
    and applied as they are, not copied. ``store`` takes each slice once it
    applied (its ops and undo, at its revision), and the slice is then not
    kept; a conflict in a later chunk is the caller's to roll back.
    """
    source = iter(ops)
    replayed: list[dict[str, Any]] = []
    touched: dict[str, None] = {}
    start = 0
    while True:
        # Within a chunk: node id -> the index of the last op that wrote it (str -> int,
        # which the collector does not track), for the index of an AssetPolicy conflict.
        last: dict[str, int] = {}
        at = start
        while at < start + chunk:
            piece = list(itertools.islice(source, min(MAX_OPS_PER_APPLY, start + chunk - at)))
            if not piece:
                break
            applied = _apply_piece(page, piece, links, at)
            for i, op in enumerate(applied.ops, at):
                nid = written_node_id(op)
                if nid is not None:
                    last[nid] = i
            if store is not None:
                store(Applied(page.revision, applied.ops, [], applied.undo))
            else:
                replayed += applied.ops
            at += len(piece)
        if at == start:
            break
        try:
            assets(page.doc, tuple(last))
        except Refused as e:
            node = e.detail.get("node") if e.detail else None
            raise ReplayConflict(e.code, last.get(node, start) if isinstance(node, str) else start) from None
        touched.update(dict.fromkeys(last))
        start = at
    # The inverse of a whole replay is never used: undoing an approval is a new edit;
    # each op's own inverse goes into the op history (restoring past an approval).
    return Replayed(start, tuple(touched), replayed)


def _apply_piece(
    page: PageSession, piece: list[dict[str, Any]], links: Callable[[list[dict[str, Any]]], None], first: int
) -> Applied:
    """One ``page.apply`` of a replay, links checked first; the first op that fails is the conflict."""
    try:
        links(piece)
    except Refused as e:
        # An op before the refused link may fail to apply: that one comes first.
        _apply_piece(page, piece[: e.at or 0], links, first)
        raise ReplayConflict(e.code, first + (e.at or 0)) from None
    try:
        return page.apply(piece, based_on=page.revision, actor=AGENT_ACTOR, owned=True)
    except PageSessionError as e:
        raise ReplayConflict(e.code, first + (e.at or 0)) from None
