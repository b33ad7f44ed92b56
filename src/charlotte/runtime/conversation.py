"""The conversation a turn's model run is given: earlier turns, within a budget.

Each ended turn has a row (``storage.ConversationStore``): the person's message,
the reply, a finished turn's messages in the model library's own JSON
(``ModelMessagesTypeAdapter``) and a compact record of its tool work
(``TurnWork``: tools with counts, nodes changed, the revision it ended at;
the end adds how it ended). ``build_conversation`` turns the newest rows into
the next run's message history:

- at most ``history_turns`` turns, newest first, and at most
  ``history_chars`` characters of serialised messages in all;
- a finished turn goes whole (every request, tool call and result) while
  its messages fit in what is left; once one does not go whole — too big,
  or its messages missing, unreadable or not a history the model library
  accepts — it and every older turn go compact: the person's message and
  one reply holding the reply text and the record — no tool result;
- a stopped or failed turn goes compact (without making older turns compact);
- a compact turn that does not fit either ends the history there.

See ``docs/conversation.md``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    UserPromptPart,
    repair_messages,
)

from charlotte.page.ops import touched_node_ids
from charlotte.storage import ConversationEntry, ConversationRow
from charlotte.storage.conversation import MAX_REPLY

__all__ = [
    "COMPACT_REPLY_CHARS",
    "MAX_RECORD_NODES",
    "TurnWork",
    "build_conversation",
    "compact_messages",
    "dump_messages",
    "load_messages",
]

log = logging.getLogger(__name__)

#: Node ids a compact record keeps at most (the count says how many there were).
MAX_RECORD_NODES: Final = 50

#: Reply text a compact turn keeps at most (characters).
COMPACT_REPLY_CHARS: Final = 2_000

_APPLY: Final = "cms_apply"


class TurnWork:
    """The tool work of one turn, noted by the runner's tool wrapper as calls end."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tools: dict[str, int] = {}
        self._nodes: dict[str, None] = {}
        self._revision: int | None = None

    def note(self, name: str, arguments: Mapping[str, Any], result: object) -> None:
        """Count a call of tool ``name``; a successful write adds the nodes its ops named."""
        with self._lock:
            self._tools[name] = self._tools.get(name, 0) + 1
            if not isinstance(result, Mapping):
                return
            revision = result.get("revision")
            if type(revision) is int and revision >= 0:
                self._revision = revision
            if name == _APPLY and result.get("isError") is not True:
                ops = arguments.get("ops")
                for node_id in touched_node_ids(ops if isinstance(ops, list) else ()):
                    self._nodes.setdefault(node_id, None)

    def record(self) -> dict[str, Any]:
        """The compact record so far: ``tools``, ``node_ids`` (bounded), ``nodes_changed``, ``revision``."""
        with self._lock:
            nodes = list(self._nodes)
            return {
                "tools": dict(self._tools),
                "node_ids": nodes[:MAX_RECORD_NODES],
                "nodes_changed": len(nodes),
                "revision": self._revision,
            }

    def entry(self, reply: str, messages: Sequence[ModelMessage] | None) -> ConversationEntry:
        """What the turn's end stores: the reply, the messages' JSON (or None), the record."""
        return ConversationEntry(reply[:MAX_REPLY], dump_messages(messages), self.record())


def dump_messages(messages: Sequence[ModelMessage] | None) -> str | None:
    """The model library's JSON of ``messages`` made a valid history; None when there are none or it fails."""
    if not messages:
        return None
    try:
        kept = repair_messages([_without_instructions(m) for m in messages])
        return ModelMessagesTypeAdapter.dump_json(kept).decode()
    except Exception:  # text the JSON encoder refuses (a lone surrogate), say: the record stands in
        log.warning("could not serialise a turn's messages; its compact record stands in")
        return None


def _without_instructions(message: ModelMessage) -> ModelMessage:
    # Every run sends its agent's instructions itself; history need not carry old copies.
    if isinstance(message, ModelRequest) and message.instructions is not None:
        return replace(message, instructions=None)
    return message


def load_messages(text: str | None) -> list[ModelMessage] | None:
    """A stored turn's messages, or None when there are none, they cannot be read or are not a whole turn.

    A whole turn opens with the person's request and ends with a reply whose
    tool calls all have their results (what the model library runs on).
    """
    if not text:
        return None
    try:
        messages = list(ModelMessagesTypeAdapter.validate_json(text))
    except Exception:  # a damaged row reads as its compact record, never a crash
        return None
    if not messages or not isinstance(messages[0], ModelRequest):
        return None
    last = messages[-1]
    if not isinstance(last, ModelResponse) or last.tool_calls:
        return None
    try:
        if repair_messages(messages) != messages:
            return None
    except Exception:
        return None
    return messages


def compact_messages(row: ConversationRow) -> list[ModelMessage]:
    """The turn as two messages: the person's message and a reply naming its record."""
    reply = row.reply
    if len(reply) > COMPACT_REPLY_CHARS:
        reply = reply[:COMPACT_REPLY_CHARS] + " …"
    note = describe(row.record, row.status)
    text = f"{reply}\n\n{note}" if reply.strip() else note
    return [
        ModelRequest(parts=[UserPromptPart(row.message, timestamp=row.asked_at)]),
        ModelResponse(parts=[TextPart(text)], timestamp=row.created_at),
    ]


def describe(record: Mapping[str, Any], status: str) -> str:
    """One line on a turn's work: tools, nodes changed, revision, how it ended."""
    tools = record.get("tools")
    said: list[str] = []
    if isinstance(tools, Mapping) and tools:
        calls = ", ".join(
            f"{name} ({count})" for name, count in tools.items() if type(count) is int
        )
        said.append(f"tools {calls}")
    nodes = record.get("node_ids")
    if isinstance(nodes, list) and nodes:
        shown = ", ".join(str(n) for n in nodes)
        more = record.get("nodes_changed")
        extra = f" (of {more})" if type(more) is int and more > len(nodes) else ""
        said.append(f"nodes changed {shown}{extra}")
    revision = record.get("revision")
    if type(revision) is int:
        said.append(f"page at revision {revision}")
    said.append(_ending(record, status))
    return f"[Earlier turn, shortened: {'; '.join(said)}.]"


def _ending(record: Mapping[str, Any], status: str) -> str:
    if status == "finished":
        return "finished, the page ready for review" if record.get("ready") is True else "finished"
    if status == "stopped":
        return "stopped by the person before it was done"
    code = record.get("code")
    return f"failed ({code})" if isinstance(code, str) else "failed"


def _size(messages: Sequence[ModelMessage]) -> int:
    return len(ModelMessagesTypeAdapter.dump_json(list(messages)))


def build_conversation(rows: Sequence[ConversationRow], *, turns: int, chars: int) -> list[ModelMessage]:
    """The message history for the next run from ``rows`` (oldest first), within the budget."""
    if turns <= 0 or chars <= 0:
        return []
    left = chars
    whole = True
    picked: list[list[ModelMessage]] = []
    for row in reversed(rows[-turns:]):
        if whole and row.status == "finished":
            messages = load_messages(row.messages)
            # The stored text is what the model library wrote: its length is the turn's size.
            size = len(row.messages or "")
            if messages is not None and size <= left:
                picked.append(messages)
                left -= size
                continue
            whole = False
        compact = compact_messages(row)
        size = _size(compact)
        if size > left:
            break
        picked.append(compact)
        left -= size
    return [message for turn in reversed(picked) for message in turn]
