"""Forward migration of legacy documents that carry ``sections: [ids]``.

Older documents kept the root order twice: a ``sections`` list and an
``order`` key on every root. The old section reorder permuted the list and left
the keys alone, so wherever the two disagree the list is the truth. Dropping it
without re-keying would silently revert every page whose sections were ever
dragged. ``migrate_doc`` therefore re-mints the root keys in ``sections`` order
before it drops the list, and returns any other document untouched (the same
object), so it is safe to call on every load.

>>> doc = {"seq": 0, "sections": ["b", "a"], "nodes": {
...     "a": {"id": "a", "parent": None, "order": "a0"},
...     "b": {"id": "b", "parent": None, "order": "a1"}}}
>>> new = migrate_doc(doc)
>>> "sections" in new, new["nodes"]["b"]["order"], new["nodes"]["a"]["order"]
(False, 'V', 'VV')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from charlotte.page.model import Doc
from charlotte.page.ordering import key_between


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What ``migrate_doc_verbose`` found in a document."""

    #: True when the document carried a ``sections`` list and was rewritten.
    migrated: bool = False
    #: ``sections`` entries naming no node (or not a string): skipped.
    dangling_ids: tuple[object, ...] = ()
    #: ``sections`` entries naming a node that is not a root: skipped, the node
    #: and its sibling order stay untouched.
    non_root_ids: tuple[str, ...] = ()
    #: Roots ``sections`` never listed: appended after the listed ones, in
    #: their old key order (making a node visible is recoverable, losing it is not).
    unlisted_root_ids: tuple[str, ...] = ()


def needs_migration(doc: object) -> bool:
    """True when ``doc`` still carries a legacy ``sections`` list it can be migrated by."""
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("sections"), list)
        and isinstance(doc.get("nodes"), dict)
    )


def _root_ids(nodes: dict[str, Any]) -> list[str]:
    # Same roots and order as tree.root_ids: parent None, by order key then id.
    roots = [
        (node["order"] if isinstance(node.get("order"), str) else "", key)
        for key, node in nodes.items()
        if isinstance(node, dict) and node.get("id") == key and node.get("parent") is None
    ]
    return [key for _, key in sorted(roots)]


def migrate_doc_verbose(doc: Doc) -> tuple[Doc, MigrationReport]:
    """Migrate a possibly legacy document and report what was found.

    Anything ``needs_migration`` rejects comes back as the same object.
    """
    if not needs_migration(doc):
        return doc, MigrationReport()
    nodes: dict[str, Any] = doc["nodes"]
    roots = _root_ids(nodes)
    root_set = set(roots)
    listed: list[str] = []
    seen: set[str] = set()
    dangling: list[object] = []
    non_root: list[str] = []
    for id in doc["sections"]:
        if not isinstance(id, str) or id not in nodes:
            dangling.append(id)
        elif id not in root_set:
            non_root.append(id)
        elif id not in seen:  # a duplicate keeps its first position
            seen.add(id)
            listed.append(id)
    unlisted = [id for id in roots if id not in seen]

    new_nodes = dict(nodes)
    key: str | None = None
    for id in [*listed, *unlisted]:
        key = key_between(key, None)
        new_nodes[id] = {**nodes[id], "order": key}
    new_doc = {k: v for k, v in doc.items() if k != "sections"}
    new_doc["nodes"] = new_nodes
    report = MigrationReport(True, tuple(dangling), tuple(non_root), tuple(unlisted))
    return new_doc, report


def migrate_doc(doc: Doc) -> Doc:
    """Migrate a possibly legacy document; an already migrated one is returned as is."""
    return migrate_doc_verbose(doc)[0]
