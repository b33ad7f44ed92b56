"""The history's groups: who wrote which revisions, in steps, named as they were then.

A *write* is one request's rows: consecutive op rows of one (actor, turn,
undo) stored at one moment (``OpEntry.at``; rows without a time join their
neighbours). Groups are made of writes:

- an agent turn's writes form one group, an approval's replay one, a person's
  undo of a turn one (as before);
- a person's consecutive writes form one group while no more than
  ``QUIET`` passes between them; each write is a *step* of that group, so a
  restore or a reset in the middle of a person's work is a step of its own
  and the revision before it stays one step away. A step whose ops are
  exactly the stored inverses of the rows before it, newest first, took the
  page back to an earlier revision (a restore, a reset, an undo of the last
  edit): ``back_to`` says which.

Names are the nodes' words as they were at the group's (or step's) last
revision, or just before its first for a node it removed: the current draft
walked back with the rows' inverses (``name_units``), never its present text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Final

from charlotte.events import AGENT_ACTOR, format_at
from charlotte.page.model import Doc
from charlotte.page.ops import touched_node_ids
from charlotte.page.working_copy import WorkingCopy
from charlotte.storage import OpEntry

__all__ = ["MAX_NODE_IDS", "NAMED_NODES", "QUIET", "RevisionGroup", "Step", "group_entries", "name_units"]

#: The longest pause inside one group of a person's edits.
QUIET: Final = timedelta(minutes=2)
#: The most node ids a group or a conflict lists.
MAX_NODE_IDS: Final = 100
#: The most nodes of a group or a step named (the sheet shows the first four names).
NAMED_NODES: Final = 8
#: How deep a box is searched for its first words (as the builder page's words.js does).
_DEPTH: Final = 4
_OWN_WORDS: Final = ("content", "label", "alt")


@dataclass(frozen=True, slots=True)
class Step:
    """One write of a person inside a group: revisions ``first`` … ``last``."""

    first: int
    last: int
    at: str | None
    node_ids: tuple[str, ...]
    back_to: int | None
    names: dict[str, str] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The step as the API answers it."""
        return {
            "first_revision": self.first,
            "last_revision": self.last,
            "ops": self.last - self.first + 1,
            "at": self.at,
            "node_ids": list(self.node_ids),
            "names": dict(self.names),
            "back_to": self.back_to,
        }


@dataclass(frozen=True, slots=True)
class RevisionGroup:
    """Revisions ``first`` … ``last`` (inclusive) of one turn, or of one person in steps."""

    first: int
    last: int
    actor: str
    turn_id: str | None
    undoes: str | None
    at: str | None
    node_ids: tuple[str, ...]
    steps: tuple[Step, ...] = ()
    names: dict[str, str] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The group as the API answers it (its steps newest first)."""
        return {
            "kind": "turn" if self.actor == AGENT_ACTOR else "person",
            "actor": self.actor,
            "turn_id": self.turn_id,
            "undoes": self.undoes,
            "first_revision": self.first,
            "last_revision": self.last,
            "ops": self.last - self.first + 1,
            "at": self.at,
            "node_ids": list(self.node_ids),
            "names": dict(self.names),
            "steps": [step.to_json() for step in reversed(self.steps)],
        }


def group_entries(entries: Sequence[OpEntry]) -> list[RevisionGroup]:
    """``entries`` (oldest first, consecutive revisions) as groups, oldest first."""
    groups: list[RevisionGroup] = []
    run: list[list[OpEntry]] = []  # the writes of the group being gathered
    start = 0
    for write in _writes(entries):
        if run and not _joins(run[-1], write):
            groups.append(_group(run, entries, start))
            start += sum(len(w) for w in run)
            run = []
        run.append(write)
    if run:
        groups.append(_group(run, entries, start))
    return groups


def _who(entry: OpEntry) -> tuple[str, str | None, str | None]:
    return entry.actor, entry.turn_id, entry.undoes


def _writes(entries: Iterable[OpEntry]) -> list[list[OpEntry]]:
    writes: list[list[OpEntry]] = []
    for entry in entries:
        last = writes[-1][-1] if writes else None
        if last is not None and _who(last) == _who(entry) and last.at == entry.at:
            writes[-1].append(entry)
        else:
            writes.append([entry])
    return writes


def _is_persons(entry: OpEntry) -> bool:
    return entry.actor != AGENT_ACTOR and entry.turn_id is None and entry.undoes is None


def _joins(before: list[OpEntry], write: list[OpEntry]) -> bool:
    """Whether ``write`` belongs to the group whose newest write is ``before``."""
    last, first = before[-1], write[0]
    if _who(last) != _who(first):
        return False
    if not _is_persons(first) or last.at is None or first.at is None:
        return True
    return first.at - last.at <= QUIET


def _group(run: list[list[OpEntry]], entries: Sequence[OpEntry], start: int) -> RevisionGroup:
    rows = [entry for write in run for entry in write]
    last = rows[-1]
    steps: tuple[Step, ...] = ()
    if _is_persons(last):
        steps_list: list[Step] = []
        offset = start
        for write in run:
            steps_list.append(
                Step(write[0].revision, write[-1].revision, _at(write[-1]), _nodes(write),
                     _back_to(write, entries, offset))
            )  # fmt: skip
            offset += len(write)
        steps = tuple(steps_list)
    return RevisionGroup(
        rows[0].revision, last.revision, last.actor, last.turn_id, last.undoes, _at(last),
        _nodes(rows), steps,
    )  # fmt: skip


def _at(entry: OpEntry) -> str | None:
    return format_at(entry.at) if entry.at is not None else None


def _nodes(rows: Iterable[OpEntry]) -> tuple[str, ...]:
    return tuple(touched_node_ids(entry.op for entry in rows)[:MAX_NODE_IDS])


def _back_to(write: list[OpEntry], entries: Sequence[OpEntry], offset: int) -> int | None:
    """The revision ``write`` took the page back to, when its ops are the inverses of the rows before it."""
    ops = [entry.op for entry in write]
    done, index = 0, offset - 1
    while done < len(ops) and index >= 0:
        inverse = entries[index].inverse
        if inverse is None or list(inverse) != ops[done : done + len(inverse)]:
            return None
        done += len(inverse)
        index -= 1
    if done != len(ops) or index == offset - 1:
        return None
    return entries[index + 1].revision - 1


def name_units(
    doc: Doc, current: int, newer: Sequence[OpEntry], window: Sequence[OpEntry],
    units: Iterable[RevisionGroup | Step],
) -> None:  # fmt: skip
    """Fill each unit's ``names``: its first nodes' words at its last revision (before its first for one it removed).

    ``doc`` is the draft at ``current``; ``newer`` and ``window`` together are
    the rows from the units' oldest revision up to ``current``, oldest first.
    The draft is walked back one inverse at a time, once; a row without its
    inverse, or one that no longer applies, ends the walk (older units keep
    no names: the page shows their ids).
    """
    asked: list[tuple[int, int, RevisionGroup | Step]] = []
    for unit in units:
        asked.append((unit.last, 0, unit))
        asked.append((unit.first - 1, 1, unit))
    asked.sort(key=lambda item: (-item[0], item[1]))
    rows = [*window, *newer]
    copy, at, index = WorkingCopy(doc), current, len(rows) - 1
    words = _Words(copy)
    for revision, _before, unit in asked:
        while at > revision:
            if index < 0 or rows[index].revision != at or rows[index].inverse is None:
                return
            for back in rows[index].inverse or ():
                if copy.apply(back) is not None:
                    return
            at, index = at - 1, index - 1
        for node_id in unit.node_ids[:NAMED_NODES]:
            said = "" if node_id in unit.names else words.of(node_id)
            if said:
                unit.names[node_id] = said


class _Words:
    """A node's words in one document: a heading's or a text's own, else a box's first heading's."""

    def __init__(self, copy: WorkingCopy) -> None:
        self.copy = copy

    def of(self, node_id: str) -> str:
        node = self.copy.node(node_id)
        if node is None:
            return ""
        own = _own(node)
        if own:
            return own
        fallback, level = "", [node_id]
        for _depth in range(_DEPTH):
            nested: list[str] = []
            for parent in level:
                for child_id in self.copy.children(parent):
                    child = self.copy.node(child_id) or {}
                    words = _own(child)
                    if words and child.get("type") == "heading":
                        return words
                    fallback = fallback or words
                    nested.append(child_id)
            level = nested[:200]
            if not level:
                break
        return fallback


def _own(node: Mapping[str, Any]) -> str:
    props = node.get("props")
    if not isinstance(props, dict):
        return ""
    for key in _OWN_WORDS:
        value = props.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return ""
