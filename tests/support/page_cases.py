"""Page documents and op sequences the client's modules are compared on (``tests/unit/web/test_*_js.py``).

- ``generated(n)``: ``n`` hypothesis-drawn ``(document, ops)`` pairs from
  ``tests.unit.page.strategies`` (orphans and extras included), each op drawn
  against the document as the ops before it left it, often followed by its
  exact inverse (the ``restore_*`` ops).
- ``hostile_docs()``/``hostile_ops()``: text that has to be escaped, cleaned,
  kept or sorted exactly (``<script>``, quotes, ampersands, lone surrogates,
  emoji, right-to-left text, noncharacters, ids such as ``__proto__``, order
  keys that sort differently by code point and by UTF-16 unit).
- ``MALFORMED_DOCS``: documents the modules must survive.
"""

from __future__ import annotations

import json
from typing import Any, Final

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.unit.page.strategies import MALFORMED_OPS, ops_for, pages

from charlotte.page.model import Doc, empty_doc
from charlotte.page.ops import invert, reduce

#: Text a page may be handed by a model or a person, hostile to a renderer or a sort.
HOSTILE_TEXTS: Final = [
    "<script>alert(1)</script>",
    "\"'><img src=x onerror=alert(1)>&",
    "&amp; &#60; &lt;b&gt; &#x26;",
    "lone \ud800 high",
    "lone \udfff low",
    "\udc00\ud800 reversed pair",
    "emoji \U0001f600\U0001f389 and \u2764\ufe0f",
    "\u202eRTL override\u202c and \u200f",
    "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd",
    "\u0645\u0631\u062d\u0628\u0627",
    "controls \x00\x07\x0b\x1f\x7f\x85\x9f and \t\n\r\x0c",
    "nonchars \ufdd0\ufffe\uffff\U0001fffe\U0010ffff",
    "private \ue000 and \U000f0000",
    "",
    "   ",
]
#: Ids and keys that are JavaScript property names, or that an object reorders.
TRICKY_IDS: Final = ["__proto__", "constructor", "toString", "hasOwnProperty", "0", "10", "\U0001f600", "\ue000", "a b"]
#: Order keys whose code-point order differs from their UTF-16 order.
TRICKY_ORDERS: Final = ["\ue000", "\U0001f600", "\uffff", "\ud800", "V", "V\U00010000", "V\ufb01", ""]

MALFORMED_DOCS: Final[list[object]] = [
    None,
    [],
    "page",
    3,
    {},
    {"nodes": None, "seq": 0},
    {"nodes": [], "seq": 0},
    {"nodes": {}, "seq": True},
    {"nodes": {}, "seq": "1"},
    {"nodes": {"a": None, "b": "x", "c": [1]}, "seq": 0, "meta": {}, "theme": {}},
    {"nodes": {"a": {"type": "text"}}, "seq": 0, "meta": [], "theme": None},
    {"nodes": {"a": {"id": 5, "parent": None}}, "seq": 0},
    {"nodes": {"k": {"id": "a", "parent": None, "type": "section"}}, "seq": 0},
    {
        "seq": 2,
        "breakpoints": ["md", "md", 7, "xl", "lg", "base"],
        "nodes": {
            "k1": {"id": "r", "type": "section", "parent": None, "order": "a"},
            "k2": {"id": "c", "type": "section", "parent": "r", "order": "a"},
            "k3": {"id": "r", "type": "section", "parent": "c", "order": "a"},
            "a": {"id": "a", "parent": "b", "type": "frame", "layout": None, "style": "x"},
            "b": {"id": "b", "parent": "a", "type": "stack", "layout": 7, "style": {"base": []}},
            "p": {"id": "p", "parent": 5, "type": "text", "props": "oops", "order": 3},
            "q": {"id": "q", "type": 7, "props": {}, "island": {}, "className": ["x"]},
            "s": {"id": "s", "parent": None, "type": "text", "island": [0], "constraints": {"base": []}},
        },
    },
]


def _node(id: str, parent: str | None, order: str, type: str = "text", **extra: Any) -> dict[str, Any]:
    return {"id": id, "type": type, "parent": parent, "order": order, "props": {}, "style": {"base": {}}, **extra}


def hostile_docs() -> list[Doc]:
    """Valid-shaped documents whose every string is hostile text, a tricky id or a tricky order key."""
    docs: list[Doc] = []
    for i, text in enumerate(HOSTILE_TEXTS):
        doc = empty_doc("p")
        doc["meta"]["title"] = text
        nodes: dict[str, Any] = {
            "root": _node("root", None, "V", "section", layout="free", className=text),
            f"t{i}": _node(f"t{i}", "root", "a", props={"content": text}),
            "h": _node("h", "root", "b", "heading", props={"content": text, "level": 3}),
            "l": _node("l", "root", "c", "link", props={"content": text, "href": "/a?q=" + text}),
            "b": _node("b", "root", "d", "button", props={"label": text, "href": text, "variant": text}),
            "c": _node("c", "root", "e", "callout", props={"content": text, "variant": "warning"}),
            "img": _node("img", "root", "f", "image", props={"asset": "img-1", "alt": text}),
            "code": _node("code", "root", "g", "code", props={"content": text}),
            "isl": _node("isl", None, "W", text, island=True),
            text or "empty": _node(text or "empty", "root", "h", "frame", style={"base": {"color": text}}),
        }
        doc["nodes"] = nodes
        docs.append(doc)
    tricky = empty_doc("p")
    for i, id in enumerate(TRICKY_IDS):
        tricky["nodes"][id] = _node(id, None, TRICKY_ORDERS[i % len(TRICKY_ORDERS)], props={"content": id})
    for i, order in enumerate(TRICKY_ORDERS):
        tricky["nodes"][f"o{i}"] = _node(f"o{i}", "__proto__", order, style={"base": {"opacity": i / 3}})
    docs.append(tricky)
    return docs


def hostile_ops(doc: Doc) -> list[object]:
    """Ops of every type carrying tricky ids, keys and text, aimed at ``doc``."""
    ops: list[object] = list(MALFORMED_OPS)
    for id in TRICKY_IDS:
        ops += [
            {"t": "insert_node", "node": _node(id, None, "Z", props={"content": "<b>&</b>"})},
            {"t": "set_node_props", "id": id, "patch": {"__proto__": {"x": 1}, "content": "\ud800"}},
            {"t": "set_style", "id": id, "breakpoint": "__proto__", "patch": {"color": "red"}},
            {"t": "set_constraints", "id": id, "breakpoint": "md", "patch": {"width": "fill"}},
            {"t": "set_animation", "id": id, "anim": {"id": None}},
            {"t": "set_animation", "id": id, "anim": {"driver": "enter"}},
            {"t": "remove_animation", "id": id, "animId": "a1"},
            {"t": "set_action", "id": id, "index": 0, "action": {"on": "click"}},
            {"t": "set_layout", "id": id, "layout": "free"},
            {"t": "move_node", "id": id, "parent": "toString", "order": "\U0001f600"},
        ]
    ops += [
        {"t": "set_meta", "patch": {"__proto__": "x", "title": HOSTILE_TEXTS[0]}},
        {"t": "set_theme", "patch": {"constructor": 1}},
        {"t": "reorder_roots", "order": sorted(k for k, v in doc["nodes"].items() if v.get("parent") is None)},
        {"t": "restore_node", "node": {"id": "constructor", "parent": 3}},
        {"t": "restore_meta", "meta": {"title": "\u202e"}},
        {"t": "restore_theme", "theme": {}},
        {"t": "set_action", "id": "toString", "index": -1, "action": None},
        {"t": "set_action", "id": "toString", "index": 2**40, "action": None},
        {"t": "move_node", "id": "__proto__", "parent": "o1", "order": "V"},
        {"t": "move_node", "id": "__proto__", "parent": "__proto__", "order": "V"},
        {"t": "move_node", "id": "o1", "parent": "ghost", "order": "V"},
        {"t": "reorder_roots", "order": ["__proto__"]},
        {"t": "remove_node", "id": "__proto__"},
    ]
    return ops


def generated(n: int) -> list[tuple[Doc, list[object]]]:
    """``n`` drawn documents, each with a sequence of ops drawn against it (see the module doc)."""
    found: list[tuple[Doc, list[object]]] = []

    @settings(
        max_examples=n,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        doc = data.draw(pages(orphans=True, extras=True))
        start, ops = doc, []
        for _ in range(data.draw(st.integers(0, 6))):
            op = data.draw(ops_for(doc))
            ops.append(op)
            back = invert(doc, op)
            doc, _reason = reduce(doc, op)
            if back and data.draw(st.booleans()):
                ops.extend(back)
                for inverse in back:
                    doc, _reason = reduce(doc, inverse)
        # The pair crosses to Node as JSON: keep exactly what JSON keeps.
        found.append(json.loads(json.dumps((start, ops))))

    draw()
    return found
