"""Replaying a change set's ops on a page: ``replay`` (an approval, a partial rejection).

``ChangeSets.replay`` binds the rules (the tenant's links and assets of
today) and the slice size; this module is the loop, kept small so that a
long set costs what its ops cost and no more:

- the ops come from an iterable of (op, stored text) pairs and are taken a
  slice of ``chunk`` at a time (at most ``MAX_OPS_PER_APPLY``): an approval hands
  ``ChangeSet.each_op``, which decodes the stored text as the replay takes
  it, and its texts go to the op history as they are (not encoded again);
- each slice is checked for links, applied, and handed to ``store`` (an
  approval writes its op history there) before the next is decoded, so
  10,000 ops are never all alive at once, and an approval promotes far
  fewer objects into the collector's oldest generation, where they would
  trigger a full collection of the server's process inside the approval
  (the figures: ``docs/performance.md``, "Figures by part", ``drafts/_replay.py``);
- AssetPolicy checks the nodes the replay touched once, on the page it made
  (a node removed by a later op is not on it, and is not checked), and the
  meta's social image when an op wrote the meta.

The conflict is the first op that fails a link or its apply (an op before
a refused link that fails to apply comes first); one that AssetPolicy
refuses comes after every op applied, and names the last op that wrote the
refused node (``#meta``: the last op that wrote the meta).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from charlotte.errors import PageSessionError, Refused, ReplayConflict
from charlotte.events import AGENT_ACTOR
from charlotte.page.node_types import MAX_OPS_PER_APPLY
from charlotte.page.op_table import META_OP_TYPES
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
    ops: Iterable[tuple[dict[str, Any], str | None]],
    *,
    chunk: int,
    links: Callable[[list[dict[str, Any]]], None],
    assets: Callable[[dict[str, Any], tuple[str, ...], bool], None],
    store: Callable[[Applied, list[str | None]], None] | None = None,
) -> Replayed:
    """Apply ``ops`` to ``page``; raise ``ReplayConflict`` at the first that fails (module docstring).

    ``ops`` are (op, its stored text or None) pairs, taken ``chunk`` at a
    time (at most ``MAX_OPS_PER_APPLY``) and applied as they are, not
    copied. ``links`` refuses a slice's ops (``Refused`` with the op's index),
    ``assets`` the touched nodes on the page the whole replay made (and its
    meta, when an op wrote it).
    ``store`` takes each slice once it applied (its ops and undo, at its
    revision, and the ops' texts), and the slice is then not kept; a later
    conflict is the caller's to roll back.
    """
    source = iter(ops)
    size = min(chunk, MAX_OPS_PER_APPLY)
    replayed: list[dict[str, Any]] = []
    # Node id -> the index of the last op that wrote it (str -> int, which the
    # collector does not track): the touched nodes, and an AssetPolicy conflict's op.
    last: dict[str, int] = {}
    meta_at: int | None = None  # the last op that wrote the meta
    at = 0
    while piece := list(itertools.islice(source, size)):
        applied = _apply_piece(page, [op for op, _text in piece], links, at)
        for i, op in enumerate(applied.ops, at):
            nid = written_node_id(op)
            if nid is not None:
                last[nid] = i
            elif op["t"] in META_OP_TYPES:
                meta_at = i
        if store is not None:
            store(Applied(page.revision, applied.ops, [], applied.undo), [text for _op, text in piece])
        else:
            replayed += applied.ops
        at += len(piece)
    try:
        assets(page.doc, tuple(last), meta_at is not None)
    except Refused as e:
        node = e.detail.get("node") if e.detail else None
        at_op = last.get(node, meta_at or 0) if isinstance(node, str) else 0
        raise ReplayConflict(e.code, at_op) from None
    # The inverse of a whole replay is never used: undoing an approval is a new edit;
    # each op's own inverse goes into the op history (restoring past an approval).
    return Replayed(at, tuple(last), replayed)


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
