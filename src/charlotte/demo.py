"""``charlotte demo``: the whole product in one command, offline by default.

Creates the SQLite database under ``./.charlotte/``, opens a session with a
sample brief and facts, runs the builder through a real queued turn (the
thread queue, as an embedded host runs it) for the first draft, then one
turn per follow-up message (by default ``SAMPLE_FOLLOW_UP``, which changes
the page), printing one readable line per event and each turn's revision
before and after; then it runs the page checks, publishes, and writes the
published page as a standalone HTML file. ``run_demo`` is the testable core;
``cli.py`` only parses options and the environment.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from charlotte.app import Charlotte
from charlotte.checks import PageChecks
from charlotte.events import EventTypes
from charlotte.page.document import render_page
from charlotte.runtime.notifier import Subscription
from charlotte.settings import Settings

__all__ = [
    "SAMPLE_BRIEF",
    "SAMPLE_FACTS",
    "SAMPLE_FOLLOW_UP",
    "DemoResult",
    "describe_event",
    "run_demo",
]

SAMPLE_BRIEF: Final = (
    "A landing page for Rosa's Bakery, a family bakery in Lisbon baking sourdough, "
    "pastel de nata and seasonal cakes every morning. Sections: our menu, about us, "
    "opening hours and contact. Warm, friendly tone; invite people to visit."
)
SAMPLE_FACTS: Final[Mapping[str, str]] = {
    "name": "Rosa's Bakery",
    "address": "Rua das Flores 12, Lisbon",
    "phone": "+351 21 345 6789",
    "email": "hello@rosasbakery.example",
    "hours": "Tue-Sun 7:00-15:00",
    "signature": "Sourdough loaf 4.50 EUR",
}

#: What the demo asks once the first draft is there: a follow-up the offline builder carries out.
SAMPLE_FOLLOW_UP: Final = "Add an FAQ section, and put the opening hours above the menu."
FIRST_MESSAGE: Final = "Build the page from the brief and the facts."

#: The one tenant of a local install: ``charlotte demo`` writes its session and page there and
#: ``charlotte serve`` answers every request as it, so the builder shows what the demo made.
LOCAL_TENANT: Final = "local"
#: The person the demo acts as (its sessions say they were opened by the demo).
DEMO_USER: Final = "demo"

_END: Final = frozenset({EventTypes.TURN_FINISHED, EventTypes.TURN_STOPPED, EventTypes.RUN_FAILED})

#: Events whose progress line is a fixed label (the payload adds nothing worth a line).
_LABELS: Final[Mapping[str, str]] = {
    EventTypes.SESSION_OPENED: "session opened",
    EventTypes.TURN_QUEUED: "turn queued",
    EventTypes.TURN_STARTED: "turn started",
    EventTypes.TURN_STOPPED: "turn stopped",
    EventTypes.PROPOSAL_OPENED: EventTypes.PROPOSAL_OPENED,
    EventTypes.PROPOSAL_APPROVED: EventTypes.PROPOSAL_APPROVED,
    EventTypes.PROPOSAL_REJECTED: EventTypes.PROPOSAL_REJECTED,
    EventTypes.PROPOSAL_CONFLICTED: EventTypes.PROPOSAL_CONFLICTED,
}


@dataclass(frozen=True, slots=True)
class DemoResult:
    """What the demo did: the session, whether the page was ready, findings, the output file."""

    session_id: str
    ready: bool
    revision: int
    nodes: int
    errors: int
    warnings: int
    output: Path | None
    failure: str | None = None
    #: Per follow-up: the revision before and after, and whether the turn ended ready.
    follow_ups: tuple[tuple[int, int, bool], ...] = ()


def _arguments_summary(name: str, arguments: Any) -> str:
    if not isinstance(arguments, dict):
        return ""
    if name == "cms_apply":
        ops = arguments.get("ops")
        count = len(ops) if isinstance(ops, list) else 0
        return f" ({count} op{'s' if count != 1 else ''} on revision {arguments.get('basedOn')})"
    if name == "cms_ready":
        summary = str(arguments.get("summary", ""))
        return f" ({summary[:60]}{'…' if len(summary) > 60 else ''})"
    return ""


def describe_event(event: Mapping[str, Any]) -> str | None:
    """One readable progress line for a log event (None for events shown otherwise)."""
    kind = event.get("type")
    payload = event.get("payload") or {}
    seq = f"[{event.get('seq'):>3}]"
    if isinstance(kind, str) and kind in _LABELS:
        return f"{seq} {_LABELS[kind]}"
    if kind == EventTypes.RUN_STARTED:
        return f"{seq} model run {payload.get('run')} started"
    if kind == EventTypes.TOOL_CALLED:
        name = payload.get("name", "?")
        return f"{seq} → {name}{_arguments_summary(name, payload.get('arguments'))}"
    if kind == EventTypes.TOOL_RESULT:
        mark = "✗" if payload.get("is_error") else "✓"
        code = f" {payload['code']}" if payload.get("code") else ""
        return (
            f"{seq}   {mark} {payload.get('name', '?')}{code} · revision {payload.get('revision')}"
        )
    if kind == EventTypes.PAGE_CHANGED:
        ids = payload.get("node_ids") or []
        shown = ", ".join(ids[:4]) + (f" +{len(ids) - 4}" if len(ids) > 4 else "")
        return f"{seq}   page changed → revision {payload.get('revision')} ({shown})"
    if kind == EventTypes.RUN_FINISHED:
        return f"{seq} model run {payload.get('run')} finished ({payload.get('reason')})"
    if kind == EventTypes.RUN_FAILED:
        return f"{seq} run failed: {payload.get('code')}"
    if kind == EventTypes.TURN_FINISHED:
        return (
            f"{seq} turn finished · {'ready for review' if payload.get('ready') else 'not ready'}"
        )
    if kind == EventTypes.PAGE_PUBLISHED:
        return f"{seq} published revision {payload.get('revision')}"
    return None


def run_demo(
    *,
    settings: Settings,
    out_dir: Path,
    brief: str = SAMPLE_BRIEF,
    facts: Mapping[str, str] = SAMPLE_FACTS,
    page: str = "home",
    approve_on_save: bool = False,
    echo: Callable[[str], None] = print,
    timeout_seconds: float = 600.0,
    follow_ups: Sequence[str] = (SAMPLE_FOLLOW_UP,),
) -> DemoResult:
    """Run the demo end to end; ``echo`` receives every progress line."""
    with Charlotte(replace(settings, queue="thread")) as charlotte:
        charlotte.migrate()
        handle = (
            charlotte.for_user(DEMO_USER)
            .tenant(LOCAL_TENANT)
            .page(page)
            .brief(brief)
            .facts(dict(facts))
            .approve_on_save(approve_on_save)
            .open()
        )
        echo(f"charlotte demo · session {handle.id} · model {settings.model}")
        subscription = charlotte.notifier.subscribe(handle.id)
        try:
            turn = _Turn(handle, subscription, echo, timeout_seconds, approve_on_save)
            ending = turn.run(FIRST_MESSAGE)
            if ending is None or ending["type"] != EventTypes.TURN_FINISHED:
                return DemoResult(
                    handle.id, False, handle.draft()["revision"], 0, 0, 0, None, _code(ending)
                )
            ready = bool(ending["payload"].get("ready"))
            done: list[tuple[int, int, bool]] = []
            for message in follow_ups:
                before = handle.draft()["revision"]
                echo(f"person: {message}")
                ending = turn.run(message)
                if ending is None or ending["type"] != EventTypes.TURN_FINISHED:
                    return DemoResult(handle.id, False, before, 0, 0, 0, None, _code(ending))
                after = handle.draft()["revision"]
                ready = bool(ending["payload"].get("ready"))
                done.append((before, after, ready))
                echo(
                    f"follow-up: revision {before} → {after}"
                    + ("" if after != before else " (unchanged)")
                )
        finally:
            subscription.close()
        draft = handle.draft()
        doc = draft["page"]
        # The checks the agent ran, once more on what is published, with the person's words as evidence.
        checks = PageChecks(facts=facts, brief=brief, site_origin=settings.site_origin,
                            allowed_origins=settings.allowed_origins, assets=charlotte.assets,
                            person_said=list(follow_ups))  # fmt: skip
        findings = checks.run(doc)
        errors = [f for f in findings if f.severity == "error"]
        warnings = [f for f in findings if f.severity == "warning"]
        echo(f"checks: {len(errors)} errors, {len(warnings)} warnings")
        for finding in findings:
            echo(
                f"  {finding.severity}: {finding.code} ({finding.node or 'page'}) {finding.message}"
            )
        published = handle.publish()
        for event in handle.events(after=turn.seen, limit=100):
            line = describe_event(event)
            if line:
                echo(line)
        out_dir.mkdir(parents=True, exist_ok=True)
        output = out_dir / f"{page}.html"
        output.write_text(render_page(doc, assets=charlotte.assets), encoding="utf-8")
        nodes = len(doc.get("nodes", {}))
        echo(f"published revision {published['revision']}: {nodes} nodes → {output}")
        return DemoResult(
            handle.id, ready, draft["revision"], nodes, len(errors), len(warnings), output,
            follow_ups=tuple(done),
        )  # fmt: skip


def _code(ending: Mapping[str, Any] | None) -> str:
    return "timeout" if ending is None else str(ending["payload"].get("code", ending["type"]))


class _Turn:
    """Sends one message, prints its events until the turn ends, approves an open change set."""

    def __init__(
        self, handle: Any, subscription: Subscription, echo: Callable[[str], None],
        timeout_seconds: float, approve_on_save: bool,
    ) -> None:  # fmt: skip
        self.handle, self.subscription, self.echo = handle, subscription, echo
        self.timeout_seconds, self.approve_on_save = timeout_seconds, approve_on_save
        self.seen = 0

    def run(self, message: str) -> dict[str, Any] | None:
        self.handle.send(message)
        self.seen, agent_text, ending = _follow(
            self.handle, self.subscription, self.echo, self.timeout_seconds, self.seen
        )
        if agent_text.strip():
            self.echo(f"agent: {agent_text.strip()}")
        if ending is not None and self.approve_on_save and self.handle.change_set() is not None:
            approved = self.handle.approve()
            self.echo(f"change set approved → {json.dumps(approved, default=str)[:120]}")
        return ending


def _follow(
    handle: Any,
    subscription: Subscription,
    echo: Callable[[str], None],
    timeout_seconds: float,
    after: int = 0,
) -> tuple[int, str, dict[str, Any] | None]:
    """Print events after ``after`` until the turn ends; returns the last seq, the agent's text, the end event."""
    deadline = time.monotonic() + timeout_seconds
    text: list[str] = []
    while time.monotonic() < deadline:
        batch = handle.events(after=after, limit=200)
        for event in batch:
            after = event["seq"]
            if event["type"] == EventTypes.TEXT_DELTA:
                text.append(str(event["payload"].get("text", "")))
                continue
            line = describe_event(event)
            if line:
                echo(line)
            if event["type"] in _END:
                return after, "".join(text), event
        subscription.seen(after)
        if not batch:
            # Woken by the notifier when the log moves: no polling loop here.
            subscription.wait(max(0.0, min(1.0, deadline - time.monotonic())))
    return after, "".join(text), None
