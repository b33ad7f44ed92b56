"""What an open change set would change: its working copy compared with the current draft.

The comparison is by node id. A node only in the working copy is *added*, one
only in the draft is *removed*, one in both whose stored value differs is
*changed*, with the prop names, the style keys (``"<breakpoint>.<key>"``) and
the other node fields (``parent``, ``order``, ``layout``, ``constraints``, …)
that differ. ``meta`` and ``theme`` say whether the page's own settings differ.

It compares documents, not ops: a human edit to the draft since the set opened
shows up as a difference too (the draft has it, the working copy does not),
which is exactly what approving would have to replay over.

>>> draft = {"nodes": {"a": {"id": "a", "props": {"content": "Hi"}}}}
>>> working = {"nodes": {"a": {"id": "a", "props": {"content": "Hello"}}, "b": {"id": "b"}}}
>>> found = diff_docs(draft, working)
>>> found.added, found.removed, found.changed[0].props
(('b',), (), ('content',))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from charlotte.page.model import node_map

__all__ = ["ChangeSetDiff", "NodeChange", "diff_docs"]


@dataclass(frozen=True, slots=True)
class NodeChange:
    """One node present on both sides whose stored value differs."""

    id: str
    props: tuple[str, ...]
    #: ``"<breakpoint>.<key>"`` for every style value that differs.
    style: tuple[str, ...]
    #: Other node fields that differ (``parent``, ``order``, ``type``, ``layout``, …).
    fields: tuple[str, ...]
    #: ``(prop, before, after)`` for each differing prop that is text on both sides
    #: (each cut to ``MAX_TEXT`` characters), for a text diff.
    text: tuple[tuple[str, str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{id, props, style, fields, text}`` as JSON-shaped data (``text``: prop → before, after)."""
        return {
            "id": self.id,
            "props": list(self.props),
            "style": list(self.style),
            "fields": list(self.fields),
            "text": {prop: {"before": old, "after": new} for prop, old, new in self.text},
        }


@dataclass(frozen=True, slots=True)
class ChangeSetDiff:
    """Nodes a change set adds, removes and changes compared with the draft (ids sorted)."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[NodeChange, ...]
    meta: bool
    theme: bool

    @property
    def empty(self) -> bool:
        """True when the working copy and the draft hold the same page."""
        return not (self.added or self.removed or self.changed or self.meta or self.theme)

    def to_json(self) -> dict[str, Any]:
        """``{added, removed, changed, meta, theme}`` as JSON-shaped data."""
        return {
            "added": list(self.added),
            "removed": list(self.removed),
            "changed": [change.to_json() for change in self.changed],
            "meta": self.meta,
            "theme": self.theme,
        }


def diff_docs(draft: object, working: object) -> ChangeSetDiff:
    """How ``working`` differs from ``draft``, node by node (see module docstring)."""
    before = node_map(draft)
    after = node_map(working)
    added = tuple(sorted(key for key in after if key not in before))
    removed = tuple(sorted(key for key in before if key not in after))
    changed: list[NodeChange] = []
    for key in sorted(key for key in after if key in before):
        old, new = before[key], after[key]
        if old == new:
            continue
        if not isinstance(old, dict) or not isinstance(new, dict):
            changed.append(NodeChange(key, (), (), ("node",)))
            continue
        props = _keys_differing(old.get("props"), new.get("props"))
        changed.append(
            NodeChange(
                key,
                props,
                _style_keys_differing(old.get("style"), new.get("style")),
                tuple(
                    name
                    for name in sorted(set(old) | set(new))
                    if name not in ("props", "style") and old.get(name) != new.get(name)
                ),
                _texts(old.get("props"), new.get("props"), props),
            )
        )
    return ChangeSetDiff(
        added,
        removed,
        tuple(changed),
        meta=_field(draft, "meta") != _field(working, "meta"),
        theme=_field(draft, "theme") != _field(working, "theme"),
    )


_MISSING = object()

#: The most characters of one prop's text a diff gives on each side.
MAX_TEXT = 2_000


def _texts(old: object, new: object, names: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    a = old if isinstance(old, dict) else {}
    b = new if isinstance(new, dict) else {}
    return tuple(
        (name, a[name][:MAX_TEXT], b[name][:MAX_TEXT])
        for name in names
        if isinstance(a.get(name), str) and isinstance(b.get(name), str)
    )


def _field(doc: object, name: str) -> object:
    return doc.get(name) if isinstance(doc, dict) else None


def _keys_differing(old: object, new: object) -> tuple[str, ...]:
    a = old if isinstance(old, dict) else {}
    b = new if isinstance(new, dict) else {}
    return tuple(
        str(key)
        for key in sorted(set(a) | set(b), key=str)
        if a.get(key, _MISSING) != b.get(key, _MISSING)
    )


def _style_keys_differing(old: object, new: object) -> tuple[str, ...]:
    a = old if isinstance(old, dict) else {}
    b = new if isinstance(new, dict) else {}
    out: list[str] = []
    for breakpoint in sorted(set(a) | set(b), key=str):
        out += [
            f"{breakpoint}.{key}" for key in _keys_differing(a.get(breakpoint), b.get(breakpoint))
        ]
    return tuple(out)
