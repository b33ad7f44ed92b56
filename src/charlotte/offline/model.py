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

Its fixes touch only the nodes the turn inserted; on a draft that already had
sections a build turn keeps them, adds only the kinds missing and says so
(``existing``). The conversation is read by ``transcript``.

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
    TextPart,
    ToolCallPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from charlotte.offline.edits import Context
from charlotte.offline.existing import (
    batch_kind,
    kinds_on,
    outline_view,
    removed_sections,
    words_on_content,
    written_ids,
)
from charlotte.offline.follow_up import follow_up_step, is_follow_up
from charlotte.offline.transcript import PageNow, Transcript, page_now
from charlotte.sections.fact_bands import LINKS_TITLE
from charlotte.sections.facts import listed
from charlotte.sections.page_view import PageView
from charlotte.sections.writer import PagePlan, plan_page

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
class _Call:
    """The next step: a tool call, or the final text (``name`` None)."""

    name: str | None
    args: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def _is_batch(plan: PagePlan, args: Mapping[str, Any]) -> str | None:
    """The plan root a ``cms_apply`` call's ops create, or None for a fix batch."""
    ops = args.get("ops")
    roots = {b.root for b in plan.batches}
    for op in ops if isinstance(ops, list) else []:
        node = op.get("node") if isinstance(op, dict) else None
        # A band's root, or the first link of the batch that links a band's handles.
        if isinstance(node, dict) and node.get("id") in roots:
            return str(node["id"])
    return None


def _refused_roots(t: Transcript, plan: PagePlan) -> set[str]:
    """The plan's batches the page refused (not for a stale revision): not written again."""
    return {
        root
        for e in t.turn
        if e.name == "cms_apply"
        and not e.ok
        and e.code != "stale_revision"
        and (root := _is_batch(plan, e.args)) is not None
    }


def _fixes(findings: object, page: PageNow, plan: PagePlan, mine: set[str]) -> list[dict[str, Any]]:
    """Ops that clear what the checks reported: remove a faulty leaf, rename a faulty heading.

    Only in ``mine``, the nodes this turn wrote: what was on the page before
    is a person's or an earlier turn's, and nobody asked to remove it.
    """
    ops: list[dict[str, Any]] = []
    done: set[str] = set()
    for finding in findings if isinstance(findings, list) else []:
        if not isinstance(finding, dict):
            continue
        node_id = finding.get("node")
        serious = finding.get("severity") == "error" or finding.get("check") == "facts"
        if finding.get("code") == "placeholder":
            # The builder's own photo slots: removing their marks would leave empty boxes
            # and hide what a person still has to do (the reply says it instead).
            continue
        if (
            not serious
            or not isinstance(node_id, str)
            or node_id in done
            or node_id not in page.nodes
            or node_id not in mine
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


def _final(t: Transcript, plan: PagePlan | None) -> str:
    ready = t.last_ok("cms_ready")
    found = _found(t)
    if found is not None and found.roots and plan is not None:
        return _final_on_content(t, plan, found, ready is not None)
    name = plan.name if plan else "the page"
    # What the brief asked for and the page lacks is said, never left to be found.
    left_out = plan.left_out if plan is not None else ()
    lacks = "".join(
        f" I left out {listed([t for t, w in left_out if w == why])}: {why}."
        for why in dict.fromkeys(w for _t, w in left_out)
    )
    refused = _refused_roots(t, plan) if plan is not None else set()
    if plan is not None and any(b.title == LINKS_TITLE and b.root in refused for b in plan.batches):
        lacks += (
            " The social handles are shown as words, not links: this site's link policy"
            " allows no links to those sites (allowed_origins)."
        )
    if ready is not None:
        return f"The page for {name} is ready for review.{lacks}"
    slots = _waiting_slots(t)
    if slots:
        return (
            f"The page for {name} is built, but not ready: {slots} photo slots are waiting for "
            "photos. Choose each from the asset library (select a slot in the preview), or "
            f"remove the slots; then the page can be marked ready.{lacks}"
        )
    return f"The page for {name} is not ready yet: the checks or the tools still report problems."


def _waiting_slots(t: Transcript) -> int:
    """How many photo slots the last check holds the page back for, when nothing else does."""
    checked = t.last_ok("cms_check")
    findings = checked[1].result.get("findings") if checked and checked[1].result else None
    errors = [
        f for f in findings or () if isinstance(f, dict) and f.get("severity") == "error"
    ]
    if not errors or any(f.get("code") != "placeholder" for f in errors):
        return 0
    return len(errors)


def _final_on_content(t: Transcript, plan: PagePlan, found: PageView, ready: bool) -> str:
    """The reply of a build turn on a page that had content: kept, added, removed, ready or not."""
    mine = written_ids(t.turn)
    added = [b.title for b in plan.batches if b.root in mine]
    said = words_on_content(added, removed_sections(found, t.turn))
    if ready:
        return f"{said} The page is ready for review."
    checked = t.last_ok("cms_check")
    findings = checked[1].result.get("findings") if checked and checked[1].result else None
    codes = sorted(
        {
            str(f.get("code"))
            for f in findings or []
            if isinstance(f, dict) and f.get("severity") == "error"
        }
    )
    why = f"the checks report {', '.join(codes)}" if codes else "the tools reported problems"
    return (
        f"{said} The page is not ready yet: {why}. I changed nothing that was there before; "
        "tell me what to change or remove."
    )


def _found(t: Transcript) -> PageView | None:
    """The page as the turn found it (its first outline), or None before it was read."""
    first = next((e for e in t.turn if e.name == "cms_outline" and e.ok), None)
    return (
        None if first is None or first.result is None else outline_view(first.result.get("outline"))
    )


def next_step(messages: Sequence[ModelMessage]) -> _Call:
    """The builder's next step for this conversation (a pure function of it)."""
    t = Transcript.read(messages)
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


def _follow_up(t: Transcript, failures: int) -> _Call | None:
    """The next step of a follow-up turn (see ``follow_up``), or None for a build turn."""
    facts = t.last_ok("cms_facts")
    outline = next((i for i, e in enumerate(t.turn) if e.name == "cms_outline" and e.ok), None)
    if facts is None or outline is None or facts[1].result is None:
        return None
    first = t.turn[outline].result
    if first is None or not is_follow_up(t.prompt, first):
        return None
    context = Context(
        str(facts[1].result.get("brief", "")), facts[1].result.get("facts"), tuple(t.earlier)
    )
    step = follow_up_step(
        t.prompt, t.turn[outline + 1 :], context, t.revision, failures >= MAX_FAILURES
    )
    return _Call(step.name, step.args, step.text)


def _build(t: Transcript, plan: PagePlan) -> _Call | None:
    """Read the page and write the next missing batch; None when there is nothing left to write."""
    stale = [
        i for i, e in enumerate(t.turn) if e.name == "cms_apply" and e.code == "stale_revision"
    ]
    now = page_now(t)
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
    found = _found(t)
    # On a page that had content, a section of a kind it has is not built again.
    there = kinds_on(found) if found is not None else set()
    refused = _refused_roots(t, plan)
    for batch in plan.batches:
        if batch.root in page.nodes or batch.root in t.declined or batch.root in refused:
            continue
        if batch_kind(batch.root, batch.title) in there:
            continue
        return _Call("cms_apply", {"basedOn": t.revision, "ops": list(batch.ops)})
    return None


def _finish(t: Transcript, plan: PagePlan) -> _Call:
    """Check, fix what the checks report, read the result back, say it is ready."""
    checked = t.last_ok("cms_check")
    last_write = max(
        (i for i, e in enumerate(t.turn) if e.name == "cms_apply" and e.ok), default=-1
    )
    if (checked is None or checked[0] < last_write) and t.count("cms_check") < MAX_CHECKS:
        return _Call("cms_check")
    now = page_now(t)
    if now is None:
        # Never read the page: saying it is ready would vouch for a page unseen.
        return _Call(None, text=_final(t, plan))
    if checked is not None:
        first_check = next(i for i, e in enumerate(t.turn) if e.name == "cms_check")
        assert checked[1].result is not None
        ops = _fixes(checked[1].result.get("findings"), now[0], plan, written_ids(t.turn))
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
