"""Runs evaluation cases through a real ``Charlotte`` and records every turn.

Each case is one session (its page key is the case id) of one ``Charlotte``
on a SQLite file in a temporary folder, with the thread queue (Playwright's
synchronous API holds an event loop in the calling thread, so turns run in a
worker thread and ``wait`` follows them) and the model asked for: the first message builds the page, then each follow-up is sent in
turn. After every turn the runner reads the draft, the turn's conversation
row (status, reply, tool counts, ``ready``) and its events (usage), runs
``PageChecks`` on the draft with the person's messages as evidence, and
judges the turn's predicates.

A supported turn *passes* when it finished and every predicate holds. An
unsupported one (``supported: false``) passes when it finished **not** ready,
left the draft unchanged and every predicate holds: an honest refusal.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from charlotte.app import Charlotte
from charlotte.checks import PageChecks
from charlotte.errors import CharlotteError, code_of
from charlotte.evaluation.axe import NOT_ASKED, AxeResult
from charlotte.evaluation.cases import Case
from charlotte.evaluation.collateral import collateral
from charlotte.evaluation.overflow import Browser, Overflow
from charlotte.evaluation.predicates import Turn, fact_shown, judge, sections_of
from charlotte.events import EventTypes
from charlotte.page.document import render_page
from charlotte.settings import Settings

__all__ = ["INVENTED_CODES", "CaseResult", "Suite", "TurnResult", "run_suite"]

#: The facts check's codes that count as an invented fact (a claim no source backs).
INVENTED_CODES: Final = frozenset(
    {
        "unsupported_price",
        "unsupported_phone",
        "unsupported_email",
        "unsupported_url",
        "unsupported_hours",
    }
)
_USER: Final = "eval"
_TENANT: Final = "eval"


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One turn of a case: what was asked, how it ended, what the draft became."""

    message: str
    kind: str
    supported: bool
    status: str
    code: str | None
    ready: bool
    reply: str
    predicates: tuple[tuple[dict[str, Any], bool, str], ...]
    passed: bool
    errors: int
    warnings: int
    finding_codes: tuple[str, ...]
    invented: int
    facts_stated: int
    facts_total: int
    sections: tuple[str, ...]
    tool_calls: int
    tokens: int | None
    seconds: float
    #: Nodes touched beyond what was asked (``collateral``); None for a first page or when
    #: the predicates give no scope.
    collateral: tuple[str, ...] | None = None
    #: A follow-up whose reply says it changed the page while the page is as it was.
    claimed: bool = False

    def to_json(self) -> dict[str, Any]:
        """The turn as the JSON report holds it."""
        return {
            "message": self.message,
            "kind": self.kind,
            "supported": self.supported,
            "status": self.status,
            "code": self.code,
            "ready": self.ready,
            "reply": self.reply,
            "predicates": [
                {"predicate": p, "passed": ok, "detail": detail}
                for p, ok, detail in self.predicates
            ],
            "passed": self.passed,
            "checks": {
                "errors": self.errors,
                "warnings": self.warnings,
                "codes": list(self.finding_codes),
            },
            "facts": {
                "stated": self.facts_stated,
                "total": self.facts_total,
                "invented": self.invented,
            },
            "sections": list(self.sections),
            "tool_calls": self.tool_calls,
            "tokens": self.tokens,
            "seconds": round(self.seconds, 3),
            "collateral": None if self.collateral is None else list(self.collateral[:50]),
            "claimed": self.claimed,
        }


@dataclass(frozen=True, slots=True)
class CaseResult:
    """A case's turns (the first page, then each follow-up), its final page, its overflow and axe's findings."""

    id: str
    tone: str
    turns: tuple[TurnResult, ...]
    page_html: str
    overflow: Overflow
    axe: AxeResult = NOT_ASKED


@dataclass(slots=True)
class Suite:
    """A whole run: the model, each case's result, how long it took."""

    model: str
    cases: list[CaseResult] = field(default_factory=list)
    seconds: float = 0.0


def _usage(events: Iterable[Mapping[str, Any]], turn_id: str) -> int | None:
    """The turn's tokens, from ``turn.finished``'s usage (input + output); None without one."""
    for event in events:
        payload = event.get("payload") or {}
        if event.get("type") != EventTypes.TURN_FINISHED or payload.get("turn_id") != turn_id:
            continue
        usage = payload.get("usage")
        if isinstance(usage, dict):
            parts = [usage.get("input_tokens"), usage.get("output_tokens")]
            if all(type(p) is int for p in parts):
                return sum(p for p in parts if isinstance(p, int))
    return None


class _CaseRun:
    """One case's session: sends each message and records its turn."""

    def __init__(self, charlotte: Charlotte, case: Case, timeout: float) -> None:
        self.charlotte = charlotte
        self.case = case
        self.timeout = timeout
        self.said: list[str] = []
        self.handle = (
            charlotte.for_user(_USER)
            .tenant(_TENANT)
            .page(case.id)
            .brief(case.brief)
            .facts(dict(case.facts))
            .open()
        )

    def _events(self, after: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for _ in range(100):  # at most 100,000 events per turn are read
            batch = self.handle.events(after=after, limit=1_000)
            out.extend(batch)
            if len(batch) < 1_000:
                break
            after = batch[-1]["seq"]
        return out

    def turn(
        self, message: str, kind: str, supported: bool, expect: tuple[dict[str, Any], ...]
    ) -> TurnResult:
        handle = self.handle
        before = handle.draft()["page"]
        seq = int(handle.status()["last_seq"])
        self.said.append(message)
        started = time.monotonic()
        status, code, sent = "failed", None, ""
        try:
            sent = str(handle.send(message)["id"])
            if not handle.wait(timeout=self.timeout):
                handle.stop()
                handle.wait(timeout=30)
                code = "turn_timeout"
        except CharlotteError as error:
            code = code_of(error, "run_failed")
        seconds = time.monotonic() - started
        doc = handle.draft()["page"]
        rows = handle.messages(limit=1)
        # This turn's row (a turn that never ended has none: the newest is an older turn's).
        row = rows[-1] if rows and sent and rows[-1]["turn_id"] == sent else None
        record = (row or {}).get("record") or {}
        if row is not None:
            status, code = str(row["status"]), code or record.get("code")
        ready = bool(record.get("ready"))
        reply = str((row or {}).get("reply") or "")
        counted = record.get("tools")
        tools: dict[str, Any] = counted if isinstance(counted, dict) else {}
        turn_id = str((row or {}).get("turn_id", ""))
        seen = Turn(doc, before, reply, ready)
        judged = tuple((p, *_verdict(p, seen)) for p in expect)
        passed = status == "finished" and all(ok for _, ok, _ in judged)
        extra = None if kind == "first page" else collateral(expect, before, doc, supported=supported)
        claimed = kind != "first page" and _same(doc, before) and claims_change(reply)
        if not supported:
            passed = passed and not ready and _same(doc, before)
        elif extra:
            passed = False  # changed what nobody asked to change
        passed = passed and not claimed
        findings = PageChecks(
            facts=self.case.facts,
            brief=self.case.brief,
            site_origin=self.charlotte.settings.site_origin,
            allowed_origins=self.charlotte.settings.allowed_origins,
            assets=self.charlotte.assets,
            person_said=self.said,
        ).run(doc)
        stated = sum(1 for v in self.case.facts.values() if fact_shown(doc, v))
        return TurnResult(
            message=message,
            kind=kind,
            supported=supported,
            status=status,
            code=code if isinstance(code, str) else None,
            ready=ready,
            reply=reply[:2_000],
            predicates=judged,
            passed=passed,
            errors=sum(1 for f in findings if f.severity == "error"),
            warnings=sum(1 for f in findings if f.severity == "warning"),
            finding_codes=tuple(f.code for f in findings),
            invented=sum(1 for f in findings if f.check == "facts" and f.code in INVENTED_CODES),
            facts_stated=stated,
            facts_total=len(self.case.facts),
            sections=tuple(kind or node_id for node_id, kind in sections_of(doc)),
            tool_calls=sum(v for v in tools.values() if isinstance(v, int) and type(v) is int),
            tokens=_usage(self._events(seq), turn_id),
            seconds=seconds,
            collateral=extra,
            claimed=claimed,
        )


def _verdict(predicate: dict[str, Any], turn: Turn) -> tuple[bool, str]:
    outcome = judge(predicate, turn)
    return outcome.passed, outcome.detail


#: A reply's line that says a change was made: "Done: …", "I've changed …", "I have added …".
_CLAIM: Final = re.compile(
    r"^\s*(?:done\b(?!\s*nothing)|i(?:'ve| have) (?:changed|added|moved|removed|updated|made|set|replaced"
    r"|swapped|renamed)\b)",
    re.IGNORECASE | re.MULTILINE,
)


def claims_change(reply: str) -> bool:
    """Whether ``reply`` says, on a line of its own, that it changed the page."""
    return _CLAIM.search(reply[:20_000]) is not None


def _same(doc: Mapping[str, Any], before: Mapping[str, Any]) -> bool:
    return all(doc.get(k) == before.get(k) for k in ("nodes", "meta", "theme"))


def run_suite(
    cases: Iterable[Case],
    *,
    model: str = "offline",
    settings: Settings | None = None,
    allowed_origins: Sequence[str] = (),
    timeout_seconds: float = 600.0,
    measure: bool = True,
    echo: Callable[[str], None] = lambda line: None,
    model_factory: Callable[[], Any] | None = None,
) -> Suite:
    """Run every case through a real ``Charlotte`` (SQLite in a temporary folder, thread queue).

    ``model`` is the model string (its name in the report); ``model_factory``,
    when given, builds the model instead, as ``Charlotte(model_factory=)`` does
    (a host's own model, or ``charlotte.testing.ScriptedModel``).
    ``allowed_origins`` (a cases file's ``host``) are added to the settings' own.
    """
    suite = Suite(model)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="charlotte-eval-") as folder:
        # The host's settings (provider URL and key, retries, limits, origins) with
        # the evaluation's own database, queue and model (tokens come from turn.finished).
        host = settings or Settings()
        chosen = replace(
            host,
            allowed_origins=(*host.allowed_origins, *allowed_origins),
            database_url=f"sqlite:///{Path(folder) / 'eval.db'}",
            database_schema=None,
            model=model,
            queue="thread",
        )
        with (
            Charlotte(chosen, model_factory=model_factory) as charlotte,
            Browser.open(measure) as browser,
        ):
            charlotte.migrate()
            for case in cases:
                run = _CaseRun(charlotte, case, timeout_seconds)
                turns = [run.turn(case.first_message, "first page", True, case.expect)]
                for follow_up in case.follow_ups:
                    turns.append(
                        run.turn(
                            follow_up.message, follow_up.kind, follow_up.supported, follow_up.expect
                        )
                    )
                doc = run.handle.draft()["page"]
                html = render_page(doc, assets=charlotte.assets)
                result = CaseResult(
                    case.id, case.tone, tuple(turns), html, browser.measure(html), browser.axe(html)
                )
                suite.cases.append(result)
                echo(f"{case.id}: {sum(t.passed for t in turns)}/{len(turns)} turns passed")
    suite.seconds = time.monotonic() - started
    return suite
