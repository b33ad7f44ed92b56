"""``PageSession``: the stateful, validating wrapper around one page document.

The reducer (``page.ops``) stays as permissive as upstream so that documents
written elsewhere load; ``PageSession`` adds charlotte's rules on top (see
``page.validate`` and ``page.integrity`` for each bound) and applies batches
atomically:

>>> from charlotte.page.model import empty_doc
>>> session = PageSession(empty_doc("home"))
>>> applied = session.apply(
...     [{"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}}],
...     based_on=0, actor="agent", fill_defaults=True)
>>> applied.revision, applied.ops[0]["node"]["order"], applied.inverse
(1, 'V', [{'t': 'remove_node', 'id': 'hero'}])

Every op of a batch is checked, reduced on a ``WorkingCopy`` and checked again
(the touched node, meta or theme; node count; where a node goes: depth,
cycles, containers and the restore rule, ``page.placement``), so a document a
session holds is always one that loading would accept. The first failing op
raises ``PageSessionError(code, at=index, detail)`` and nothing changes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn

from charlotte.errors import PageSessionError
from charlotte.page import op_table
from charlotte.page.integrity import check_doc, check_meta, check_theme
from charlotte.page.migrate import migrate_doc
from charlotte.page.model import Op, has_node_map
from charlotte.page.node_types import MAX_NODES, MAX_OPS_PER_APPLY, NodeTypes
from charlotte.page.ordering import key_between
from charlotte.page.placement import check_container, check_placement, check_restore
from charlotte.page.seo import check_meta_patch
from charlotte.page.validate import (
    check_action,
    check_animation,
    check_id,
    check_layout,
    check_node,
    check_order,
    check_parent,
    check_props,
    check_style,
    is_id,
    key_name,
)
from charlotte.page.working_copy import WorkingCopy

#: t → (required fields, optional fields, code for a missing or unknown field).
_FIELDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "insert_node": (("node",), (), "invalid_props"),
    "restore_node": (("node",), (), "invalid_props"),
    "remove_node": (("id",), (), "invalid_props"),
    "move_node": (("id", "parent", "order"), (), "invalid_props"),
    "set_node_props": (("id", "patch"), (), "invalid_props"),
    "set_layout": (("id",), ("layout",), "invalid_style"),
    "set_style": (("id", "breakpoint", "patch"), (), "invalid_style"),
    "set_constraints": (("id", "breakpoint", "patch"), (), "invalid_style"),
    "set_animation": (("id", "anim"), (), "invalid_style"),
    "remove_animation": (("id", "animId"), (), "invalid_style"),
    "set_action": (("id", "index", "action"), (), "invalid_props"),
    "set_meta": (("patch",), (), "invalid_props"),
    "restore_meta": (("meta",), (), "invalid_props"),
    "set_theme": (("patch",), (), "invalid_style"),
    "restore_theme": (("theme",), (), "invalid_style"),
    "reorder_roots": (("order",), (), "invalid_reorder"),
}
#: Ops after which the touched node is re-checked as a whole.
_NODE_MERGES = frozenset({"set_node_props", "set_style", "set_constraints", "set_animation", "set_action"})
#: Reducer reason → (code, detail).
_REASONS: Mapping[str, tuple[str, str]] = {
    op_table.NODE_EXISTS: ("duplicate_id", "node.id: already exists"),
    op_table.PARENT_NOT_FOUND: ("parent_not_found", "node.parent: not found"),
    op_table.NODE_NOT_FOUND: ("node_not_found", "id: not found"),
    op_table.SELF_PARENT: ("cycle", "parent: the node itself"),
    op_table.NEW_PARENT_NOT_FOUND: ("parent_not_found", "parent: not found"),
    op_table.CYCLE: ("cycle", "parent: a descendant of the node"),
    op_table.BAD_REORDER: ("invalid_reorder", "order: not a permutation of the current roots"),
    op_table.MALFORMED_DOC: ("invalid_state", "doc: malformed"),
}
_MAX_NESTING = 32
_MAX_ACTION_INDEX = 1_000


def _fail(code: str, detail: str) -> NoReturn:
    raise PageSessionError(code, detail=detail)


@dataclass(frozen=True, slots=True)
class Applied:
    """A batch that applied: the new revision, the ops as applied, and their undo.

    ``ops`` are complete (defaults filled). Applying ``inverse`` in order, based
    on ``revision``, gives back the document as it was before the batch.
    ``undo`` holds each op's own inverse, in op order (empty when not kept).
    """

    revision: int
    ops: list[Op]
    inverse: list[Op]
    undo: list[tuple[Op, ...]] = field(default_factory=list, compare=False)


class ValidatedDocs:
    """A small bounded memo of documents this process already validated, by caller's key.

    Validating a 1,000-node document costs milliseconds; comparing it to a copy
    known to be valid costs a tenth of that. An entry only vouches for a
    document *equal* to the one it holds, so a stored draft changed behind
    charlotte's back (same key, other content) is validated again. Keys are
    the caller's (the workspace uses tenant and page); one memo
    belongs to one node-type catalogue. Hand it only freshly decoded
    documents: an object someone else may still mutate could drift from what
    was checked.
    """

    __slots__ = ("_entries", "_limit", "_lock", "_types")

    def __init__(self, node_types: NodeTypes, limit: int = 32) -> None:
        self._types = node_types
        self._limit = limit
        self._lock = threading.Lock()  # workers share one workspace across threads
        self._entries: OrderedDict[Hashable, tuple[dict[str, Any], frozenset[str]]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def breakpoints(self, key: Hashable, doc: dict[str, Any]) -> frozenset[str] | None:
        """The breakpoints of ``doc`` when an equal document was validated under ``key``."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is None or entry[0] != doc:
            return None
        return entry[1]

    def remember(self, key: Hashable, session: PageSession) -> None:
        """Record ``session``'s current document (valid by construction) under ``key``."""
        if session.node_types is not self._types:
            return
        with self._lock:
            self._entries[key] = (session.doc, session._breakpoints)
            self._entries.move_to_end(key)
            while len(self._entries) > self._limit:
                self._entries.popitem(last=False)


class PageSession:
    """A validated page document and its revision.

    Loading migrates a legacy document and validates it fully; anything corrupt
    raises ``PageSessionError("invalid_state")``. With ``validated`` and
    ``key``, a document equal to one that memo holds under ``key`` is not
    validated again (see ``ValidatedDocs``). The session takes the document
    as it is (no copy): neither the session nor the reducer mutates it, and
    nobody else may either.
    """

    __slots__ = ("_batch", "_breakpoints", "_doc", "_types")

    def __init__(
        self,
        doc: object,
        *,
        node_types: NodeTypes = NodeTypes.allowed(),  # noqa: B008 - one cached, immutable catalogue
        validated: ValidatedDocs | None = None,
        key: Hashable = None,
    ) -> None:
        if not has_node_map(doc):
            _fail("invalid_state", "doc: not a page document")
        assert isinstance(doc, dict)
        doc = migrate_doc(doc)
        self._types = node_types
        known = None
        if validated is not None and key is not None and validated._types is node_types:
            known = validated.breakpoints(key, doc)
        self._breakpoints = known if known is not None else frozenset(check_doc(doc, node_types))
        self._doc: dict[str, Any] = doc
        # The last batch that applied, its working copy at ``_doc``: the next
        # batch goes on from it (its children index included) instead of
        # indexing the whole document again.
        self._batch: _Batch | None = None
        if validated is not None and key is not None and known is None:
            validated.remember(key, self)

    @property
    def revision(self) -> int:
        """The document's op counter, ``doc["seq"]``."""
        revision: int = self._doc["seq"]
        return revision

    @property
    def doc(self) -> dict[str, Any]:
        """The current document. Read it, serialise it, never mutate it."""
        return self._doc

    @property
    def node_types(self) -> NodeTypes:
        """The catalogue this session validates against."""
        return self._types

    def apply(
        self,
        ops: Sequence[object],
        *,
        based_on: int,
        actor: str,
        fill_defaults: bool = False,
        owned: bool = False,
    ) -> Applied:
        """Validate and apply a batch atomically; raise ``PageSessionError`` on the first bad op.

        With ``fill_defaults``, an ``insert_node`` may omit ``order`` (appended
        after the last sibling in the batch's working state), ``props`` (``{}``)
        and ``style`` (``{"base": {}}``). The ops are copied (the document and
        ``Applied`` never alias the caller's data), unless ``owned``: the
        caller hands them over (freshly decoded, say, and never touched again),
        so they are applied and kept as they are. Either way an op nested more
        than 32 levels deep is refused.
        """
        if not isinstance(actor, str) or not actor:
            raise ValueError("actor must be a non-empty string")
        if type(based_on) is not int or based_on != self.revision:
            raise PageSessionError("stale_revision", detail={"revision": self.revision})
        if not isinstance(ops, list | tuple):
            _fail("unknown_op", "ops: must be a list")
        if len(ops) > MAX_OPS_PER_APPLY:
            _fail("limit_exceeded", f"ops: more than {MAX_OPS_PER_APPLY}")
        batch = self._batch or _Batch(self._doc, self._types, self._breakpoints)
        self._batch = None  # a batch that fails leaves its working copy half changed
        applied: list[Op] = []
        undo: list[tuple[Op, ...]] = []
        for at, raw in enumerate(ops):
            try:
                op = _json_copy(raw, 0) if not owned else _nested_within(raw, 0)
                if fill_defaults:
                    batch.fill_defaults(op)
                undo.append(batch.apply(op))
            except PageSessionError as e:
                raise PageSessionError(e.code, at=at, detail=e.detail) from None
            applied.append(op)
        if applied:
            self._doc = batch.wc.doc
        self._batch = batch
        inverse = [back for part in reversed(undo) for back in part]
        return Applied(self.revision, applied, inverse, undo)


class _Batch:
    """One apply in progress: a working copy plus what the checks need to know."""

    __slots__ = ("breakpoints", "count", "types", "wc")

    def __init__(self, doc: dict[str, Any], types: NodeTypes, breakpoints: frozenset[str]) -> None:
        self.wc = WorkingCopy(doc)
        self.types = types
        self.breakpoints = breakpoints
        self.count = len(doc["nodes"])

    def fill_defaults(self, op: object) -> None:
        if not isinstance(op, dict) or op.get("t") != "insert_node":
            return
        node = op.get("node")
        if not isinstance(node, dict):
            return
        node.setdefault("props", {})
        node.setdefault("style", {"base": {}})
        parent = node.get("parent", 0)
        if "order" not in node and (parent is None or is_id(parent)):
            kids = self.wc.children(parent)
            last = self.wc.node(kids[-1]) if kids else None
            node["order"] = key_between(last["order"] if last else None, None)

    def apply(self, op: Op) -> tuple[Op, ...]:
        t = self.check(op)
        counted = self.count_change(op, t)
        attaches = t != "restore_node" or check_restore(self.wc, op["node"])
        reason, inverse = self.wc.apply_with_inverse(op)
        if reason is not None:
            code, detail = _REASONS.get(reason, ("unknown_op", "op: malformed"))
            _fail(code, detail)
        self.count += counted
        if self.count > MAX_NODES:
            _fail("limit_exceeded", f"nodes: more than {MAX_NODES}")
        if t in ("insert_node", "restore_node"):
            check_placement(self.wc, op["node"]["id"])
            if attaches:
                check_container(self.wc, self.types, op["node"]["id"], children=True)
        elif t == "move_node":
            check_placement(self.wc, op["id"])
            check_container(self.wc, self.types, op["id"], children=False)
        elif t == "set_node_props":
            # The op changed the props alone, of a node that was valid (every node of
            # a session's document is): what check_node would refuse first is in them.
            node = self.wc.node(op["id"])
            assert node is not None
            check_props(node["type"], node["props"], self.types)
        elif t == "set_style":
            node = self.wc.node(op["id"])  # the style alone changed: as for the props
            assert node is not None
            check_style(node["style"], self.breakpoints)
        elif t in _NODE_MERGES:
            check_node(self.wc.node(op["id"]), self.types, self.breakpoints)
        elif t == "set_meta":
            check_meta(self.wc.meta)
            check_meta_patch(op["patch"])  # a new write keeps the stricter bounds (``page.seo``)
        elif t == "set_theme":
            check_theme(self.wc.theme)
        # A tuple: once its ops are no longer tracked the collector stops tracking
        # it too, where a list stays tracked (and walked by every full collection).
        return tuple(inverse)

    def check(self, op: Op) -> str:
        """The op's fields, before the reducer sees them; returns its type."""
        if type(op) is not dict:
            _fail("unknown_op", "op: must be an object")
        t = op.get("t")
        spec = _FIELDS.get(t) if type(t) is str else None
        if spec is None:
            _fail("unknown_op", "t: unknown op type")
        assert isinstance(t, str)
        required, optional, code = spec
        for key in op:
            if key != "t" and key not in required and key not in optional:
                _fail(code, f"{key_name(key)}: unknown field")
        for key in required:
            if key not in op:
                _fail("invalid_id" if key in ("id", "parent") else code, f"{key}: required")
        if "id" in op:
            check_id(op["id"])
        if t in ("insert_node", "restore_node"):
            check_node(op["node"], self.types, self.breakpoints)
        elif t == "move_node":
            check_parent(op["parent"])
            check_order(op["order"])
        elif t in ("set_node_props", "set_meta", "set_style", "set_constraints", "set_theme"):
            if type(op["patch"]) is not dict:
                _fail(code, "patch: must be an object")
            if "breakpoint" in op and (
                type(op["breakpoint"]) is not str or op["breakpoint"] not in self.breakpoints
            ):
                _fail("invalid_style", "breakpoint: not one of the page's breakpoints")
        elif t == "set_layout" and op.get("layout") is not None:
            check_layout(op["layout"])
        elif t == "set_animation":
            check_animation(op["anim"])
        elif t == "remove_animation":
            check_id(op["animId"], "animId")
        elif t == "set_action":
            index = op["index"]
            if type(index) is not int or not 0 <= index <= _MAX_ACTION_INDEX:
                _fail("invalid_props", f"index: must be an integer 0..{_MAX_ACTION_INDEX}")
            if op["action"] is not None:
                check_action(op["action"])
        elif t == "restore_meta":
            check_meta(op["meta"])
        elif t == "restore_theme":
            check_theme(op["theme"])
        elif t == "reorder_roots" and (
            type(op["order"]) is not list or not all(type(id) is str for id in op["order"])
        ):
            _fail("invalid_reorder", "order: must be a list of node ids")
        return t

    def count_change(self, op: Op, t: str) -> int:
        """How the node count changes if ``op`` applies (computed before it does)."""
        if t == "insert_node":
            return 1
        if t == "restore_node":
            return 0 if self.wc.node(op["node"]["id"]) is not None else 1
        if t == "remove_node" and self.wc.node(op["id"]) is not None:
            return -1 - len(self.wc.descendants(op["id"]))
        return 0


def _json_copy(value: object, depth: int) -> Any:
    """A deep copy of the JSON containers in ``value`` (ops must not alias caller data).

    A value deeper than ``_MAX_NESTING`` levels is refused: the members of a
    non-empty container at that depth would be. Members that are no container
    are taken as they are, without a call each (most of an op is strings).
    """
    if type(value) is dict:
        if depth >= _MAX_NESTING and value:
            _fail("invalid_props", "op: nested too deeply")
        return {
            k: _json_copy(v, depth + 1) if type(v) in _CONTAINERS else v for k, v in value.items()
        }
    if type(value) is list:
        if depth >= _MAX_NESTING and value:
            _fail("invalid_props", "op: nested too deeply")
        return [_json_copy(v, depth + 1) if type(v) in _CONTAINERS else v for v in value]
    if depth > _MAX_NESTING:
        _fail("invalid_props", "op: nested too deeply")
    return value


def _nested_within(value: object, depth: int) -> Any:
    """``value`` itself once it keeps ``_json_copy``'s nesting bound (nothing copied)."""
    if type(value) is dict:
        members: Iterable[object] = value.values()
    elif type(value) is list:
        members = value
    else:
        if depth > _MAX_NESTING:
            _fail("invalid_props", "op: nested too deeply")
        return value
    if depth >= _MAX_NESTING and value:
        _fail("invalid_props", "op: nested too deeply")
    for member in members:
        if type(member) in _CONTAINERS:
            _nested_within(member, depth + 1)
    return value


_CONTAINERS: Final = frozenset({dict, list})
