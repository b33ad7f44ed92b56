"""Where a node may go: the checks ``PageSession`` runs when an op puts a node somewhere.

- ``check_restore`` (before a ``restore_node`` applies): the restore rule of
  ``page.inverse``; an existing node is replaced only in place, an absent one
  is put back only at the root or under a parent that exists.
- ``check_placement`` (after a node got a parent): no cycle, depth within bounds.
- ``check_container`` (after a node got a parent): only a container type
  (``NodeType.container``: section, frame, stack, grid, card) holds nodes,
  whoever writes; a stored page that already breaks it still loads.

Each raises ``PageSessionError`` with its code and a detail naming the field.
"""

from __future__ import annotations

from typing import Any, NoReturn

from charlotte.errors import PageSessionError
from charlotte.page.node_types import MAX_DEPTH, MAX_NODES, NodeTypes
from charlotte.page.validate import key_name
from charlotte.page.working_copy import WorkingCopy

__all__ = ["check_container", "check_placement", "check_restore"]


def _fail(code: str, detail: str) -> NoReturn:
    raise PageSessionError(code, detail=detail)


def check_restore(wc: WorkingCopy, node: dict[str, Any]) -> bool:
    """The restore rule for a well-formed ``node``; True when it puts back an absent node.

    An existing node is replaced only in place (same parent): a node under
    another parent is another node that took a freed id, and replacing it
    would lose it (``duplicate_id``). An absent node is put back only at the
    root or under a parent that exists (``parent_not_found``): anywhere else
    it would be an orphan nobody sees.
    """
    current = wc.node(node["id"])
    if current is not None:
        if current.get("parent") != node["parent"]:
            _fail("duplicate_id", "node.id: another node has that id now")
        return False
    if node["parent"] is not None and wc.node(node["parent"]) is None:
        _fail("parent_not_found", "node.parent: not found")
    return True


def check_container(wc: WorkingCopy, types: NodeTypes, id: str, *, children: bool) -> None:
    """``id`` is under a container type (or a root); with ``children``, a node that is none holds none.

    (An inserted node adopts the orphans that named it as their parent.)
    """
    node = wc.node(id)
    assert node is not None
    parent = wc.node(node["parent"]) if node["parent"] is not None else None
    if parent is not None and not _holds_nodes(types, parent):
        _fail("not_a_container", f"parent: a {key_name(parent['type'])} holds no other nodes")
    if children and not _holds_nodes(types, node) and wc.children(id):
        _fail("not_a_container", f"node.type: a {key_name(node['type'])} holds no other nodes")


def _holds_nodes(types: NodeTypes, node: dict[str, Any]) -> bool:
    node_type = types.get(node["type"])
    return node_type is not None and node_type.container


def check_placement(wc: WorkingCopy, id: str) -> None:
    """After ``id`` got a (new) parent: no cycle through it, depth within bounds.

    The document was acyclic before the op, so a new cycle must pass
    through ``id``: walking up from it either ends or comes back to it.
    (``insert_node``/``restore_node`` can adopt orphans that named ``id``
    as their parent, which is how such a cycle or extra depth appears.)
    """
    node = wc.node(id)
    assert node is not None
    depth = 1
    parent = node["parent"]
    while parent is not None and depth <= MAX_NODES:
        if parent == id:
            _fail("cycle", "parent: the node would be its own ancestor")
        above = wc.node(parent)
        if above is None:
            break
        depth += 1
        parent = above["parent"]
    level = [id]
    while level:
        if depth > MAX_DEPTH:
            _fail("limit_exceeded", f"depth: more than {MAX_DEPTH}")
        level = [kid for n in level for kid in wc.children(n)]
        depth += 1 if level else 0
