"""The conversation as the offline builder reads it: this turn's tool calls and the page since.

``Transcript.read`` replays the messages: every tool call of the current user
turn with what it returned (``Exchange``), the nodes people removed (from
``cms_changes_since``), the latest user message. ``page_now`` is the page as
the latest ``cms_outline`` showed it with the turn's own writes since
(``PageNow``). Nothing here decides a step (``model`` does).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelResponse,
    RetryPromptPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from charlotte.sections.page_view import outline_rows

__all__ = ["Exchange", "PageNow", "Transcript", "page_now"]


@dataclass(frozen=True, slots=True)
class Exchange:
    """One tool call of the current user turn and what it returned (None: no usable result)."""

    name: str
    args: dict[str, Any]
    result: dict[str, Any] | None

    @property
    def ok(self) -> bool:
        return self.result is not None and self.result.get("isError") is not True

    @property
    def code(self) -> str | None:
        if self.result is None:
            return "no_result"
        error = self.result.get("error")
        if self.result.get("isError") is True and isinstance(error, dict):
            code = error.get("code")
            return code if isinstance(code, str) else "error"
        return None


def _result(content: object) -> dict[str, Any] | None:
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except ValueError:
            return None
    return content if isinstance(content, dict) else None


@dataclass(slots=True)
class Transcript:
    """The conversation as the builder reads it."""

    turn: list[Exchange] = field(default_factory=list)  # since the latest user message
    declined: set[str] = field(default_factory=set)  # node ids a person removed
    responses: int = 0
    prompt: str = ""  # the latest user message
    earlier: list[str] = field(default_factory=list)  # the user messages before it, oldest first

    @classmethod
    def read(cls, messages: Sequence[ModelMessage]) -> Transcript:
        t = cls()
        pending: dict[str, tuple[str, dict[str, Any]]] = {}
        for message in messages:
            if isinstance(message, ModelResponse):
                t.responses += 1
                for part in message.parts:
                    if isinstance(part, ToolCallPart):
                        pending[part.tool_call_id] = (part.tool_name, part.args_as_dict())
                continue
            for rpart in message.parts:
                if isinstance(rpart, UserPromptPart):
                    t.turn = []
                    if t.prompt:
                        t.earlier.append(t.prompt)
                    t.prompt = rpart.content if isinstance(rpart.content, str) else ""
                elif (
                    isinstance(rpart, ToolReturnPart | RetryPromptPart)
                    and rpart.tool_call_id in pending
                ):
                    name, args = pending.pop(rpart.tool_call_id)
                    result = _result(rpart.content) if isinstance(rpart, ToolReturnPart) else None
                    t.turn.append(Exchange(name, args, result))
                    if name == "cms_changes_since" and result is not None:
                        t.declined |= _removed_by_people(result)
        return t

    def last_ok(self, name: str) -> tuple[int, Exchange] | None:
        for index in range(len(self.turn) - 1, -1, -1):
            if self.turn[index].name == name and self.turn[index].ok:
                return index, self.turn[index]
        return None

    def count(self, name: str, *, after: int = -1) -> int:
        return sum(1 for i, e in enumerate(self.turn) if e.name == name and i > after)

    @property
    def revision(self) -> int:
        """The revision of the latest tool result that carries one (0 before any)."""
        for exchange in reversed(self.turn):
            value = exchange.result.get("revision") if exchange.result else None
            if type(value) is int:
                return value
        return 0


def _removed_by_people(result: Mapping[str, Any]) -> set[str]:
    changes = result.get("changes")
    out: set[str] = set()
    for change in changes if isinstance(changes, list) else []:
        op = change.get("op") if isinstance(change, dict) else None
        human = isinstance(change, dict) and change.get("actor") == "human"
        if (
            human
            and isinstance(op, dict)
            and op.get("t") == "remove_node"
            and isinstance(op.get("id"), str)
        ):
            out.add(op["id"])
    return out


class PageNow:
    """Node ids, types and parents as the builder last read them, with its own writes since."""

    def __init__(self, outline: str) -> None:
        self.nodes: dict[str, tuple[str, str | None]] = {}
        self.roots: list[str] = []
        for node_id, node_type, parent, _words in outline_rows(outline):
            self.nodes[node_id] = (node_type, parent)
            if parent is None:
                self.roots.append(node_id)

    def replay(self, ops: object) -> None:
        for op in ops if isinstance(ops, list) else []:
            if not isinstance(op, dict):
                continue
            node = op.get("node")
            if op.get("t") == "insert_node" and isinstance(node, dict):
                parent = node.get("parent")
                self.nodes[node["id"]] = (
                    str(node.get("type")),
                    parent if isinstance(parent, str) else None,
                )
                if parent is None:
                    self.roots.append(node["id"])
            elif op.get("t") == "remove_node" and isinstance(op.get("id"), str):
                self._remove(op["id"])

    def _remove(self, node_id: str) -> None:
        doomed = {node_id}
        grew = True
        while grew:
            more = {i for i, (_t, p) in self.nodes.items() if p in doomed} - doomed
            doomed |= more
            grew = bool(more)
        for i in doomed:
            self.nodes.pop(i, None)
        self.roots = [r for r in self.roots if r not in doomed]


def page_now(t: Transcript) -> tuple[PageNow, int] | None:
    """The page since the latest outline (and the outline's index), or None when unread."""
    found = t.last_ok("cms_outline")
    if found is None:
        return None
    index, exchange = found
    assert exchange.result is not None
    outline = exchange.result.get("outline")
    page = PageNow(outline if isinstance(outline, str) else "")
    for later in t.turn[index + 1 :]:
        if later.name == "cms_apply" and later.ok:
            page.replay(later.args.get("ops"))
    return page, index
