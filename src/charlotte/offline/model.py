"""The offline builder: a deterministic pydantic-ai ``FunctionModel`` that builds a page through the tools.

It is what the demo and the tests run with no network. It holds no state of
its own: every request it reads the conversation (the latest user message and
the tool results since) and decides the next step, so one run may span many
model requests and a continued run picks up where the page is. Steps::

    cms_facts → cms_types → cms_outline → cms_apply per batch (hero, sections,
    call to action, contact) → cms_check → cms_apply (fixes) → cms_check
    → cms_find (the name is on the page) → cms_get (the page's sections)
    → cms_ready → a short final text

Each ``cms_apply`` is based on the revision of the previous tool result. On
``stale_revision`` it reads ``cms_changes_since`` and ``cms_outline`` and goes
on from the page as it now is (a node a person removed is not put back); any
other failure skips that batch. Failures are bounded, so a run always ends.

After ``cms_outline``, a draft that already has sections and a message that
asks for changes (not to build the page) make a follow-up turn: the steps
are ``follow_up.follow_up_step``'s (each request on the page as ``cms_get``
shows it now, ``cms_check``, ``cms_ready`` only after a change).

>>> agent = Agent(offline_model(), tools=page_tools, deps_type=ToolBinding)   # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic_ai.messages import (
    ModelMessage,
    ModelResponse,
    ModelResponsePart,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from charlotte.offline.edits import Context
from charlotte.offline.follow_up import follow_up_step, is_follow_up
from charlotte.offline.writer import PagePlan, plan_page

__all__ = ["OFFLINE_MODEL_NAME", "offline_model"]

OFFLINE_MODEL_NAME: Final = "charlotte-offline"
#: Failed tool results in one user turn before the builder stops trying.
MAX_FAILURES: Final = 8
#: Attempts at one read tool before going on without it.
MAX_READS: Final = 2
#: ``stale_revision`` answers in one user turn before the builder stops writing.
MAX_STALE: Final = 3
#: ``cms_check`` calls in one user turn (a check, a re-check after fixes, one spare).
MAX_CHECKS: Final = 3
#: Fix batches in one user turn.
MAX_FIXES: Final = 2

#: Leaf types the builder may remove when a check reports a problem in them.
_REMOVABLE: Final = frozenset({"text", "callout", "link", "button", "image", "code", "divider"})


@dataclass(frozen=True, slots=True)
class _Exchange:
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


@dataclass(frozen=True, slots=True)
class _Call:
    """The next step: a tool call, or the final text (``name`` None)."""

    name: str | None
    args: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def _result(content: object) -> dict[str, Any] | None:
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except ValueError:
            return None
    return content if isinstance(content, dict) else None


@dataclass(slots=True)
class _Transcript:
    """The conversation as the builder reads it."""

    turn: list[_Exchange] = field(default_factory=list)  # since the latest user message
    declined: set[str] = field(default_factory=set)  # node ids a person removed
    responses: int = 0
    prompt: str = ""  # the latest user message

    @classmethod
    def read(cls, messages: Sequence[ModelMessage]) -> _Transcript:
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
                    t.prompt = rpart.content if isinstance(rpart.content, str) else ""
                elif (
                    isinstance(rpart, ToolReturnPart | RetryPromptPart)
                    and rpart.tool_call_id in pending
                ):
                    name, args = pending.pop(rpart.tool_call_id)
                    result = _result(rpart.content) if isinstance(rpart, ToolReturnPart) else None
                    t.turn.append(_Exchange(name, args, result))
                    if name == "cms_changes_since" and result is not None:
                        t.declined |= _removed_by_people(result)
        return t

    def last_ok(self, name: str) -> tuple[int, _Exchange] | None:
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


class _Page:
    """Node ids, types and parents as the builder last read them, with its own writes since."""

    def __init__(self, outline: str) -> None:
        self.nodes: dict[str, tuple[str, str | None]] = {}
        self.roots: list[str] = []
        path: list[str] = []
        for line in outline.splitlines():
            # "<indent>id type \"words\"": two spaces of indent per level of depth.
            depth = (len(line) - len(line.lstrip(" "))) // 2
            words = line.strip().split(" ")
            if len(words) < 2:
                continue
            node_id, node_type = words[0], words[1]
            del path[depth:]
            parent = path[-1] if path else None
            self.nodes[node_id] = (node_type, parent)
            if parent is None:
                self.roots.append(node_id)
            path.append(node_id)

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


def _page_now(t: _Transcript) -> tuple[_Page, int] | None:
    """The page since the latest outline (and the outline's index), or None when unread."""
    found = t.last_ok("cms_outline")
    if found is None:
        return None
    index, exchange = found
    assert exchange.result is not None
    outline = exchange.result.get("outline")
    page = _Page(outline if isinstance(outline, str) else "")
    for later in t.turn[index + 1 :]:
        if later.name == "cms_apply" and later.ok:
            page.replay(later.args.get("ops"))
    return page, index


def _is_batch(plan: PagePlan, args: Mapping[str, Any]) -> str | None:
    """The plan root a ``cms_apply`` call's ops create, or None for a fix batch."""
    ops = args.get("ops")
    roots = {b.root for b in plan.batches}
    for op in ops if isinstance(ops, list) else []:
        node = op.get("node") if isinstance(op, dict) else None
        if isinstance(node, dict) and node.get("parent") is None and node.get("id") in roots:
            return str(node["id"])
    return None


def _fixes(findings: object, page: _Page, plan: PagePlan) -> list[dict[str, Any]]:
    """Ops that clear what the checks reported: remove a faulty leaf, rename a faulty heading."""
    ops: list[dict[str, Any]] = []
    done: set[str] = set()
    for finding in findings if isinstance(findings, list) else []:
        if not isinstance(finding, dict):
            continue
        node_id = finding.get("node")
        serious = finding.get("severity") == "error" or finding.get("check") == "facts"
        if (
            not serious
            or not isinstance(node_id, str)
            or node_id in done
            or node_id not in page.nodes
        ):
            continue
        node_type = page.nodes[node_id][0]
        if node_type == "heading":
            ops.append({"t": "set_node_props", "id": node_id, "patch": {"content": plan.name}})
        elif node_type in _REMOVABLE:
            ops.append({"t": "remove_node", "id": node_id})
            page.replay(ops[-1:])
        else:
            continue
        done.add(node_id)
    return ops


def _final(t: _Transcript, plan: PagePlan | None) -> str:
    ready = t.last_ok("cms_ready")
    name = plan.name if plan else "the page"
    if ready is not None:
        said = f"The page for {name} is ready for review."
        if plan is not None and plan.left_out:
            # What the brief asked for and the page lacks is said, never left to be found.
            missing = _listed(plan.left_out)
            said += f" I left out {missing}: nothing in the brief or the facts says what to put there."
        return said
    return f"The page for {name} is not ready yet: the checks or the tools still report problems."


def _listed(titles: Sequence[str]) -> str:
    """ "About us", "About us and Team", "About us, Team and Gallery"."""
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]


def next_step(messages: Sequence[ModelMessage]) -> _Call:
    """The builder's next step for this conversation (a pure function of it)."""
    t = _Transcript.read(messages)
    failures = sum(1 for e in t.turn if not e.ok)
    follow_up = _follow_up(t, failures)
    if follow_up is not None:
        return follow_up
    facts = t.last_ok("cms_facts")
    plan = None
    if facts is not None:
        assert facts[1].result is not None
        plan = plan_page(facts[1].result.get("brief", ""), facts[1].result.get("facts"))
    if t.count("cms_ready") or failures >= MAX_FAILURES:
        return _Call(None, text=_final(t, plan))
    if plan is None:
        if t.count("cms_facts") < MAX_READS:
            return _Call("cms_facts")
        return _Call(
            None, text="The brief and the facts could not be read, so the page was left as it is."
        )
    if t.last_ok("cms_types") is None and t.count("cms_types") < MAX_READS:
        return _Call("cms_types")
    return _build(t, plan) or _finish(t, plan)


def _follow_up(t: _Transcript, failures: int) -> _Call | None:
    """The next step of a follow-up turn (see ``follow_up``), or None for a build turn."""
    facts = t.last_ok("cms_facts")
    outline = next((i for i, e in enumerate(t.turn) if e.name == "cms_outline" and e.ok), None)
    if facts is None or outline is None or facts[1].result is None:
        return None
    first = t.turn[outline].result
    if first is None or not is_follow_up(t.prompt, first):
        return None
    context = Context(str(facts[1].result.get("brief", "")), facts[1].result.get("facts"))
    step = follow_up_step(
        t.prompt, t.turn[outline + 1 :], context, t.revision, failures >= MAX_FAILURES
    )
    return _Call(step.name, step.args, step.text)


def _build(t: _Transcript, plan: PagePlan) -> _Call | None:
    """Read the page and write the next missing batch; None when there is nothing left to write."""
    stale = [
        i for i, e in enumerate(t.turn) if e.name == "cms_apply" and e.code == "stale_revision"
    ]
    now = _page_now(t)
    if now is None or (stale and stale[-1] > now[1]):
        if t.count("cms_outline") >= MAX_READS + len(stale):
            return None
        if (
            stale
            and (now is None or stale[-1] > now[1])
            and t.count("cms_changes_since", after=stale[-1]) == 0
        ):
            return _Call(
                "cms_changes_since", {"revision": t.turn[stale[-1]].args.get("basedOn", 0)}
            )
        return _Call("cms_outline")
    if len(stale) >= MAX_STALE or t.count("cms_check"):
        return None
    page, _ = now
    refused = {
        root
        for e in t.turn
        if e.name == "cms_apply"
        and not e.ok
        and e.code != "stale_revision"
        and (root := _is_batch(plan, e.args)) is not None
    }
    for batch in plan.batches:
        if batch.root in page.nodes or batch.root in t.declined or batch.root in refused:
            continue
        return _Call("cms_apply", {"basedOn": t.revision, "ops": list(batch.ops)})
    return None


def _finish(t: _Transcript, plan: PagePlan) -> _Call:
    """Check, fix what the checks report, read the result back, say it is ready."""
    checked = t.last_ok("cms_check")
    last_write = max(
        (i for i, e in enumerate(t.turn) if e.name == "cms_apply" and e.ok), default=-1
    )
    if (checked is None or checked[0] < last_write) and t.count("cms_check") < MAX_CHECKS:
        return _Call("cms_check")
    now = _page_now(t)
    if now is None:
        # Never read the page: saying it is ready would vouch for a page unseen.
        return _Call(None, text=_final(t, plan))
    if checked is not None:
        first_check = next(i for i, e in enumerate(t.turn) if e.name == "cms_check")
        assert checked[1].result is not None
        ops = _fixes(checked[1].result.get("findings"), now[0], plan)
        fixes = t.count("cms_apply", after=first_check)
        if ops and fixes < MAX_FIXES and checked[0] > last_write:
            return _Call("cms_apply", {"basedOn": t.revision, "ops": ops})
    if t.count("cms_find") == 0:
        return _Call("cms_find", {"text": plan.name[:200]})
    got = t.last_ok("cms_get")
    if got is None and t.count("cms_get") < MAX_READS:
        return _Call("cms_get", {"depth": 1})
    present = [n.get("id") for n in _nodes(got[1].result if got else None)]
    found = t.last_ok("cms_find")
    total = found[1].result.get("total") if found and found[1].result else None
    summary = plan.summary(
        [p for p in present if isinstance(p, str)], total if type(total) is int else None
    )
    return _Call("cms_ready", {"summary": summary})


def _nodes(result: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    page = result.get("page") if result else None
    nodes = page.get("nodes") if isinstance(page, dict) else None
    return [n for n in nodes if isinstance(n, dict)] if isinstance(nodes, list) else []


def _call_id(messages: Sequence[ModelMessage]) -> str:
    return f"offline-{sum(1 for m in messages if isinstance(m, ModelResponse))}"


async def _respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    step = next_step(messages)
    if step.name is None:
        return ModelResponse(parts=[TextPart(step.text)], finish_reason="stop")
    parts: list[ModelResponsePart] = [ToolCallPart(step.name, step.args, _call_id(messages))]
    return ModelResponse(parts=parts, finish_reason="tool_call")


async def _stream(
    messages: list[ModelMessage], info: AgentInfo
) -> AsyncIterator[str | DeltaToolCalls]:
    step = next_step(messages)
    if step.name is None:
        # Word by word, so a streaming consumer sees real deltas.
        words = step.text.split(" ")
        for n, word in enumerate(words):
            yield word if n == 0 else " " + word
        return
    yield {0: DeltaToolCall(step.name, json.dumps(step.args), tool_call_id=_call_id(messages))}


def offline_model() -> FunctionModel:
    """A fresh offline builder model (deterministic: the same conversation gives the same steps)."""
    return FunctionModel(_respond, stream_function=_stream, model_name=OFFLINE_MODEL_NAME)
