"""Hypothesis strategies for page documents and ops, shared by the page tests.

Import them as ``from tests.unit.page.strategies import pages, ops_for`` (pytest's
importlib mode resolves ``tests.…`` from the rootdir; no ``sys.path`` changes).

- ``pages()`` draws valid documents: catalogue node types with typed props,
  valid style and constraint values, ids matching PageSession's pattern, depth
  well under 12, children only under container types. ``orphans=True`` adds
  nodes whose parent is missing; ``extras=True`` adds animations, actions,
  ``className`` and ``island``.
- ``ops_for(doc)`` draws one op of any type against ``doc``: mostly well aimed
  (existing ids, permutations of the roots), often invalid (missing ids, cycles,
  bad permutations), sometimes malformed or unknown. Draw op sequences inside a
  test with ``st.data()``, threading the document.

Ids come from a small pool (``POOL``) so inserts collide, orphans get adopted
and moves hit cycles often.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from charlotte.page.model import Doc, Op
from charlotte.page.ordering import ALPHABET
from charlotte.page.tree import descendants_of, root_ids

POOL = [f"n{i}" for i in range(12)]
BREAKPOINTS = ["base", "md", "lg"]
CONTAINERS = ["section", "frame", "stack", "grid", "card"]
LEAVES = ["text", "heading", "link", "button", "image", "divider", "callout", "code"]
ANIM_IDS = ["a1", "a2", "a3"]

numbers = st.integers(-4000, 4000).map(lambda i: i / 4)
lengths = st.fixed_dictionaries(
    {"value": numbers, "unit": st.sampled_from(["px", "%", "vw", "vh", "rem", "fr"])}
)
size_modes = lengths | st.sampled_from(["fill", "hug"])
order_keys = st.text(alphabet=ALPHABET, min_size=1, max_size=3).filter(lambda k: k[-1] != "0")
short_text = st.text(alphabet="abc XYZ-", max_size=8)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | short_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(short_text, inner, max_size=3),
    max_leaves=5,
)

STYLE: dict[str, st.SearchStrategy[Any]] = {
    **{k: lengths for k in ["padding", "margin", "radius", "fontSize", "letterSpacing", "gap"]},
    **{
        k: st.sampled_from(["#fff", "red", "1px solid #000", "none"])
        for k in ["background", "color", "border", "boxShadow", "transform", "filter"]
    },
    "fontFamily": st.sampled_from(["serif", "Inter, sans-serif"]),
    "opacity": st.sampled_from([0, 0.5, 1]),
    "fontWeight": st.sampled_from([400, 700]),
    "lineHeight": st.sampled_from([1, 1.5]),
    "columns": st.integers(1, 4),
    "textAlign": st.sampled_from(["left", "center", "right", "justify"]),
    "direction": st.sampled_from(["row", "column"]),
    "align": st.sampled_from(["start", "center", "end", "stretch"]),
    "justify": st.sampled_from(["start", "center", "end", "between", "around"]),
}
CONSTRAINTS: dict[str, st.SearchStrategy[Any]] = {
    **{k: st.none() | lengths for k in ["left", "right", "top", "bottom"]},
    "centerX": st.booleans(),
    "centerY": st.booleans(),
    "width": size_modes,
    "height": size_modes,
}
PROPS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "text": {"content": short_text},
    "heading": {"content": short_text, "level": st.integers(1, 6)},
    "link": {"content": short_text, "href": st.sampled_from(["/", "/about", "https://example.com"])},
    "button": {
        "label": short_text,
        "href": st.sampled_from(["/", "/contact"]),
        "variant": st.sampled_from(["primary", "secondary", "ghost"]),
    },
    "image": {"asset": st.sampled_from(["img-1", "img-2"]), "alt": short_text},
    "callout": {
        "content": short_text,
        "variant": st.sampled_from(["info", "success", "warning", "danger"]),
    },
    "code": {"content": short_text, "lang": st.sampled_from(["py", "ts"])},
}


def patches(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """A dict of some of ``fields`` (possibly none), each with a value of its strategy."""
    return st.lists(st.sampled_from(sorted(fields)), unique=True, max_size=3).flatmap(
        lambda keys: st.fixed_dictionaries({k: fields[k] for k in keys})
    )


# Strategies are built once: building them per draw dominates a test's run time.
style_patches = patches(STYLE)
constraint_patches = patches(CONSTRAINTS)
props_patches = patches({**PROPS["button"], "level": json_values})
_PROPS_OF = {t: st.fixed_dictionaries(PROPS.get(t, {})) for t in CONTAINERS + LEAVES}


def props_for(type: str) -> st.SearchStrategy[dict[str, Any]]:
    """Catalogue-valid props for a node type (every declared prop present)."""
    found = _PROPS_OF.get(type)
    return found if found is not None else st.fixed_dictionaries(PROPS.get(type, {}))


anims = st.fixed_dictionaries(
    {
        "id": st.sampled_from(ANIM_IDS),
        "driver": st.sampled_from(["enter", "hover"]),
        "keyframes": st.just([{"at": 0, "props": {"opacity": 0}}]),
    },
    optional={"duration": st.integers(0, 900)},
)
actions = st.fixed_dictionaries(
    {"on": st.sampled_from(["click", "hover"]), "do": st.just({"kind": "navigate", "href": "/"})}
)
_types = st.sampled_from(CONTAINERS + LEAVES)
_layouts = st.sampled_from(["free", "stack", "grid"])
_later_bps = st.sampled_from(BREAKPOINTS[1:])
_anim_lists = st.lists(anims, max_size=3)
_action_lists = st.lists(actions, max_size=3)
_class_names = st.sampled_from(["hero", "card wide"])


@st.composite
def nodes(
    draw: st.DrawFn, id: str, parent: str | None, *, type: str | None = None, extras: bool = False
) -> dict[str, Any]:
    """One valid node with the given id and parent."""
    kind = type or draw(_types)
    style: dict[str, Any] = {"base": draw(style_patches)}
    if draw(st.booleans()):
        style[draw(_later_bps)] = draw(style_patches)
    node: dict[str, Any] = {
        "id": id,
        "type": kind,
        "parent": parent,
        "order": draw(order_keys),
        "props": draw(props_for(kind)),
        "style": style,
    }
    if kind in CONTAINERS and draw(st.booleans()):
        node["layout"] = draw(_layouts)
    if draw(st.booleans()):
        base = {"width": draw(size_modes), "height": draw(size_modes), **draw(constraint_patches)}
        node["constraints"] = {"base": base}
        if draw(st.booleans()):
            node["constraints"]["md"] = draw(constraint_patches)
    if extras:
        if draw(st.booleans()):
            node["animations"] = draw(_anim_lists)
        if draw(st.booleans()):
            node["actions"] = draw(_action_lists)
        if draw(st.booleans()):
            node["className"] = draw(_class_names)
        if draw(st.booleans()):
            node["island"] = draw(st.booleans())
    return node


@st.composite
def pages(
    draw: st.DrawFn, *, max_nodes: int = 10, orphans: bool = False, extras: bool = False
) -> Doc:
    """A valid page document with up to ``max_nodes`` nodes (ids from ``POOL``)."""
    ids = draw(st.lists(st.sampled_from(POOL), unique=True, max_size=min(max_nodes, len(POOL))))
    absent = [id for id in POOL if id not in ids]
    doc_nodes: dict[str, Any] = {}
    containers: list[str] = []
    for id in ids:
        parents: list[str | None] = [None, *containers]
        if orphans and absent and draw(st.integers(0, 5)) == 0:
            parents = list(absent)
        parent = draw(st.sampled_from(parents))
        node = draw(nodes(id, parent, extras=extras))
        if node["type"] in CONTAINERS:
            containers.append(id)
        doc_nodes[id] = node
    meta: dict[str, Any] = {
        "title": draw(short_text),
        "slug": draw(st.sampled_from(["/", "/home"])),
        "scrollMode": draw(st.sampled_from(["snap", "smooth"])),
    }
    if draw(st.booleans()):
        meta["seo"] = {"description": draw(short_text)}
    theme: dict[str, Any] = {"name": "default"}
    if draw(st.booleans()):
        theme["primary"] = "#123456"
    return {
        "id": "page",
        "seq": draw(st.integers(0, 50)),
        "meta": meta,
        "theme": theme,
        "breakpoints": list(BREAKPOINTS),
        "nodes": doc_nodes,
    }


MALFORMED_OPS: list[object] = [
    None,
    "remove_node",
    ["t", "remove_node"],
    {},
    {"t": 7},
    {"t": "explode"},
    {"t": "remove_node"},
    {"t": "move_node", "id": "n0", "order": "V"},
    {"t": "insert_node", "node": {"id": "n0"}},
    {"t": "set_action", "id": "n0", "index": True, "action": None},
    {"t": "set_style", "id": "n0", "breakpoint": "base", "patch": []},
    {"t": "reorder_roots", "order": "n0"},
    {"t": "restore_meta", "meta": None},
]

OP_KINDS = [
    "insert_node", "remove_node", "move_node", "set_node_props", "set_layout", "set_style",
    "set_constraints", "set_animation", "remove_animation", "set_action", "set_meta",
    "set_theme", "reorder_roots", "restore_node", "restore_meta", "restore_theme",
]  # fmt: skip
_kinds = st.sampled_from(OP_KINDS)
_kinds_or_malformed = st.sampled_from([*OP_KINDS, "malformed"])
_pool = st.sampled_from(POOL)
_bps = st.sampled_from([*BREAKPOINTS, "xl"])
_layout_or_none = st.sampled_from(["free", "stack", "grid", None])
_meta_patches = patches({"title": short_text, "description": short_text})
_theme_patches = patches({"name": short_text, "accent": short_text})
_action_or_none = st.none() | actions
_malformed = st.sampled_from(MALFORMED_OPS)


@st.composite
def ops_for(draw: st.DrawFn, doc: Doc, *, malformed: bool = True) -> object:
    """One op of any type aimed at ``doc`` (valid or invalid; malformed ones too unless told)."""
    existing = sorted(doc["nodes"])

    def an_id() -> str:
        if existing and draw(st.booleans()):
            return draw(st.sampled_from(existing))
        return draw(_pool)

    def a_parent() -> str | None:
        return None if draw(st.integers(0, 3)) == 0 else an_id()

    t = draw(_kinds_or_malformed if malformed else _kinds)
    if t == "malformed":
        return draw(_malformed)
    if t in ("insert_node", "restore_node"):
        # Often reuse the missing parent of an orphan: the new node adopts it.
        wanted = sorted({n["parent"] for n in doc["nodes"].values()} - {None, *existing})
        id = draw(st.sampled_from(wanted)) if wanted and draw(st.booleans()) else an_id()
        return {"t": t, "node": draw(nodes(id, a_parent(), extras=draw(st.booleans())))}
    if t == "set_meta":
        return {"t": t, "patch": draw(_meta_patches)}
    if t == "set_theme":
        return {"t": t, "patch": draw(_theme_patches)}
    if t == "restore_meta":
        return {"t": t, "meta": {"title": draw(short_text), "slug": "/", "scrollMode": "snap"}}
    if t == "restore_theme":
        return {"t": t, "theme": draw(_theme_patches)}
    if t == "reorder_roots":
        order = draw(st.permutations(root_ids(doc)))
        spoil = draw(st.integers(0, 5))
        if spoil == 1:
            order = order[1:]
        elif spoil == 2:
            order = [*order, order[0] if order else "n0"]
        elif spoil == 3:
            order = [*order, an_id()]
        return {"t": t, "order": order}
    op: Op = {"t": t, "id": an_id()}
    if t == "move_node":
        below = descendants_of(doc, op["id"])
        # Often aim below the node itself: the move must be refused as a cycle.
        parent = draw(st.sampled_from(below)) if below and draw(st.booleans()) else a_parent()
        op.update(parent=parent, order=draw(order_keys))
    elif t == "set_node_props":
        op["patch"] = draw(props_patches)
    elif t == "set_layout":
        if draw(st.booleans()):
            op["layout"] = draw(_layout_or_none)
    elif t in ("set_style", "set_constraints"):
        op["breakpoint"] = draw(_bps)
        op["patch"] = draw(style_patches if t == "set_style" else constraint_patches)
    elif t == "set_animation":
        op["anim"] = draw(anims)
    elif t == "remove_animation":
        op["animId"] = draw(st.sampled_from(ANIM_IDS))
    elif t == "set_action":
        op.update(index=draw(st.integers(-1, 4)), action=draw(_action_or_none))
    return op
