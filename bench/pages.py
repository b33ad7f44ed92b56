"""The pages and op streams the benchmarks run on.

``stacked_page`` is the plain page ``reduce``, ``replay`` and ``apply`` edit:
sections ``s{s}``, each holding one stack ``k{s}`` of text leaves ``t{s}_{i}``.
``edit_ops`` draws a seeded stream of edits on it from a mix of op makers, so
each benchmark states only its own mix.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from charlotte.page.model import empty_doc
from charlotte.page.ordering import key_between


def node(id: str, type: str, parent: str | None, order: str, **extra: Any) -> dict[str, Any]:
    """A page node with empty props and base style unless ``extra`` gives them."""
    return {"id": id, "type": type, "parent": parent, "order": order,
            "props": extra.pop("props", {}), "style": extra.pop("style", {"base": {}}),
            **extra}  # fmt: skip


class PageBuilder:
    """Appends nodes under parents with upstream-style order keys."""

    def __init__(self) -> None:
        self.doc = empty_doc("bench")
        self._last: dict[str | None, str | None] = {}

    def add(self, id: str, type: str, parent: str | None, **extra: Any) -> str:
        """Append a node as the last child of ``parent``; return its id."""
        order = key_between(self._last.get(parent), None)
        self._last[parent] = order
        self.doc["nodes"][id] = node(id, type, parent, order, **extra)
        return id


def stacked_page(sections: int, leaves_per_section: int) -> dict[str, Any]:
    """A page of sections, each holding one stack of text leaves."""
    page = PageBuilder()
    for s in range(sections):
        page.add(f"s{s}", "section", None, layout="stack")
        page.add(f"k{s}", "stack", f"s{s}", layout="stack")
        for i in range(leaves_per_section):
            page.add(f"t{s}_{i}", "text", f"k{s}", props={"content": f"Text {i}"})
    return page.doc


@dataclass(frozen=True, slots=True)
class Edit:
    """One draw of an op stream: what an op maker may use."""

    rnd: random.Random
    n: int
    target: str
    stacks: list[str]
    added: list[str]


#: Makes the op for one draw, or ``None`` when it cannot (the next row of the mix is tried).
OpMaker = Callable[[Edit], dict[str, Any] | None]


def edit_ops(
    count: int,
    seed: int,
    sections: int,
    leaves_per_section: int,
    mix: Sequence[tuple[float, OpMaker]],
) -> list[dict[str, Any]]:
    """``count`` ops on a ``stacked_page``: each draw takes the first row of ``mix`` its roll is under."""
    rnd = random.Random(seed)
    leaves = [f"t{s}_{i}" for s in range(sections) for i in range(leaves_per_section)]
    stacks = [f"k{s}" for s in range(sections)]
    added: list[str] = []
    ops: list[dict[str, Any]] = []
    for n in range(count):
        roll = rnd.random()
        edit = Edit(rnd, n, rnd.choice(leaves), stacks, added)
        for bound, make in mix:
            if roll < bound and (op := make(edit)) is not None:
                ops.append(op)
                break
    return ops


def set_props(edit: Edit) -> dict[str, Any]:
    """Change the target's text."""
    return {"t": "set_node_props", "id": edit.target, "patch": {"content": f"v{edit.n}"}}


def set_style(edit: Edit) -> dict[str, Any]:
    """Patch the target's colour and padding at base or md."""
    patch = {"color": edit.rnd.choice(["#111", "#222"]), "padding": {"value": edit.n % 40, "unit": "px"}}
    return {"t": "set_style", "id": edit.target, "breakpoint": edit.rnd.choice(["base", "md"]), "patch": patch}


def move_to_stack(order: Callable[[random.Random], str]) -> OpMaker:
    """A maker that moves the target into a random stack at the key ``order`` draws."""

    def make(edit: Edit) -> dict[str, Any]:
        key = order(edit.rnd)
        return {"t": "move_node", "id": edit.target, "parent": edit.rnd.choice(edit.stacks), "order": key}

    return make


def insert_text(props: dict[str, Any] | None = None) -> OpMaker:
    """A maker that inserts a text node (with ``props``) into a random stack and remembers it."""

    def make(edit: Edit) -> dict[str, Any]:
        id = f"new{edit.n}"
        edit.added.append(id)
        extra = {} if props is None else {"props": dict(props)}
        return {"t": "insert_node", "node": node(id, "text", edit.rnd.choice(edit.stacks), f"z{edit.n}", **extra)}

    return make


def remove_added(edit: Edit) -> dict[str, Any] | None:
    """Remove a node an earlier draw inserted, if there is one."""
    if not edit.added:
        return None
    return {"t": "remove_node", "id": edit.added.pop(edit.rnd.randrange(len(edit.added)))}


def set_meta(edit: Edit) -> dict[str, Any]:
    """Retitle the page."""
    return {"t": "set_meta", "patch": {"title": f"Title {edit.n}"}}
