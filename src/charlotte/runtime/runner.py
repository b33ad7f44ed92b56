"""``TurnRunner``: runs one queued turn through the model with the nine page tools.

One turn, step by step (each step's events are committed as they happen, so
the browser follows live):

1. Claim the turn in the database (``turn.started``); a turn already claimed
   — delivered twice — is skipped.
2. Refuse ``guide_mode_stale`` when the current guide's hash differs from the
   session's, or the mode prompt does not embed it exactly once.
3. Inside the try: the host's ``TurnContextFactory.for_turn`` — called
   **once per turn** — gives per-turn caps; a ``Refused`` there fails the turn
   with its code before any model call.
4. Bind the tools to this session (``ToolBinding``, scope
   ``charlotte:<session_id>``) and run the model, streaming, with the
   session's earlier turns as message history (``conversation.py``, within
   ``history_turns``/``history_chars``); the
   ``StreamRecorder`` turns stream events into log events. The model work
   runs as an asyncio task beside a ``TurnWatch`` (``watch.py``), which ends
   it on a stop (read every 0.5 s, even while the model is silent), on
   ``model_idle_timeout_seconds`` without a stream event (``model_timeout``)
   and on ``turn_timeout_seconds`` for the whole turn (``turn_timeout``).
   The stop flag is also read before every tool call.
5. A run that ends with finish reason ``length`` before a successful
   ``cms_ready`` is continued with ``CONTINUATION`` on the same history, at
   most ``max_continuations`` times, then fails ``output_limit``. All runs of
   a turn share one usage tally, so the host's caps bound the whole turn.
   A provider's error (after the retries of ``provider_http.py``) becomes its
   code where the model library is called (``models.provider_failure``).
6. ``turn.finished`` (with ``ready`` and the turn's token ``usage``),
   ``turn.stopped`` or ``run.failed`` with a code — never an exception
   message — and the session is idle again; the turn's conversation row
   (reply, a finished turn's messages, its tool work) is written with that event.

A claim that fails on a database error raises ``StorageError`` out of
``run``: nothing ran, and the queue delivers the turn again (``ThreadQueue``
and the Celery task retry with a bounded backoff).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import sqlalchemy as sa
from pydantic_ai import Agent, RunContext, Tool
from pydantic_ai.exceptions import ModelAPIError, OutputTokenLimitExceeded, UsageLimitExceeded
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model
from pydantic_ai.usage import RunUsage, UsageLimits

from charlotte.errors import Refused, StopRequested, code_of
from charlotte.runtime.conversation import TurnWork, build_conversation
from charlotte.runtime.guide import Guide
from charlotte.runtime.logged import escaped_traceback
from charlotte.runtime.models import provider_failure
from charlotte.runtime.modes import ModeRegistry, check_mode
from charlotte.runtime.recorder import StreamRecorder
from charlotte.runtime.telemetry import UsageTelemetry
from charlotte.runtime.tool_arguments import raw_arguments
from charlotte.runtime.tool_calls import call_tool
from charlotte.runtime.tool_routing import UNKNOWN_TOOL, ToolRouting, called_name
from charlotte.runtime.turn_context import (
    HarnessDefaults,
    TurnContext,
    TurnContextFactory,
    merge_limits,
)
from charlotte.runtime.turns import Turns
from charlotte.runtime.watch import STOP, TurnWatch
from charlotte.settings import Settings
from charlotte.storage import (
    ConversationEntry,
    ConversationStore,
    SessionRecord,
    SessionStore,
    TurnRecord,
    UnitOfWork,
)
from charlotte.tools import PageTools, ToolBinding

__all__ = [
    "CONTINUATION",
    "HarnessDefaults",
    "TurnContext",
    "TurnContextFactory",
    "TurnRunner",
]

log = logging.getLogger(__name__)

#: The fixed message that continues a run cut off by the output limit.
CONTINUATION: Final = (
    "Your previous reply was cut off by the output limit. Continue exactly where "
    "you stopped: re-read the page with cms_outline if you need to, finish the "
    "work, run cms_check and call cms_ready."
)

#: How long a halted turn's cancelled model work may take to unwind.
CANCEL_GRACE_SECONDS: Final = 10.0


@dataclass
class _RunState:
    """What the runner learns while one turn runs."""

    watch: TurnWatch
    recorder: StreamRecorder | None = None
    stop_seen: bool = False
    messages: list[ModelMessage] = field(default_factory=list)
    #: The messages this turn's runs added (its conversation row keeps them) and its tool work.
    turn_messages: list[ModelMessage] = field(default_factory=list)
    work: TurnWork = field(default_factory=TurnWork)

    def entry(self, *, finished: bool = False) -> ConversationEntry:
        """The turn's conversation row: the messages only for a finished turn."""
        reply = self.recorder.reply if self.recorder is not None else ""
        return self.work.entry(reply, self.turn_messages if finished else None)


@dataclass(frozen=True, slots=True)
class _TurnDeps:
    """What the tools of one turn run with: the session binding, the turn, its state."""

    binding: ToolBinding
    turn_id: str
    state: _RunState
    recorder: StreamRecorder


# Agents kept per mode prompt (a host registers a handful of modes).
_AGENTS_KEPT: Final = 16


def _finish_reason(messages: list[ModelMessage]) -> str | None:
    for message in reversed(messages):
        if isinstance(message, ModelResponse):
            return message.finish_reason
    return None


class TurnRunner:
    """Runs queued turns (see the module docstring for the steps)."""

    def __init__(
        self,
        *,
        engine: sa.Engine,
        settings: Settings,
        tools: PageTools,
        turns: Turns,
        model_factory: Callable[[], Model],
        guide: Callable[[], Guide],
        modes: ModeRegistry,
        context_factory: TurnContextFactory | None = None,
        telemetry: UsageTelemetry | None = None,
        sessions: SessionStore | None = None,
    ) -> None:
        self.engine = engine
        self.settings = settings
        self.tools = tools
        #: Where the runner opens its units of work: the page tools' own.
        self.units = tools.units
        self.turns = turns
        self.model_factory = model_factory
        self.guide = guide
        self.modes = modes
        self.context_factory: TurnContextFactory = context_factory or HarnessDefaults()
        self.telemetry = telemetry or UsageTelemetry(enabled=settings.telemetry)
        self.sessions = sessions or SessionStore()
        self.conversation = ConversationStore()
        # One agent per mode prompt, shared by every turn (and thread): the
        # tools read the turn from their deps, so nothing in it is per turn.
        self._agents: dict[str, Agent[_TurnDeps, str]] = {}
        self._agents_lock = threading.Lock()

    # -- entry point -------------------------------------------------------------

    def run(self, turn_id: str) -> None:
        """Claim and run one turn to its end; a turn already claimed is skipped."""
        turn = self.turns.claim(turn_id)
        if turn is None:
            return
        stop_beating = threading.Event()
        beater = threading.Thread(
            target=self._heartbeat, args=(turn.id, stop_beating), name=f"heartbeat-{turn.id}", daemon=True
        )
        beater.start()
        try:
            asyncio.run(self._run(turn))
        finally:
            stop_beating.set()
            beater.join(timeout=5)

    def _heartbeat(self, turn_id: str, stop: threading.Event) -> None:
        while not stop.wait(self.settings.heartbeat_seconds):
            try:
                if not self.turns.heartbeat(turn_id):
                    return
            except Exception:  # a missed beat is the sweeper's business, never the turn's
                log.warning("heartbeat failed for turn %s", turn_id)

    # -- one turn ----------------------------------------------------------------

    async def _run(self, turn: TurnRecord) -> None:
        """The turn's model work as a task, and its watch beside it (see ``watch.py``)."""
        watch = TurnWatch(
            lambda: self.turns.should_stop(turn.id),
            idle_seconds=self.settings.model_idle_timeout_seconds,
            turn_seconds=self.settings.turn_timeout_seconds,
        )
        state = _RunState(watch)
        work = asyncio.create_task(self._work(turn, state))
        halt = await watch.watch(work)
        if halt is None:
            await work  # it ended the turn itself
            return
        work.cancel()
        done, _ = await asyncio.wait({work}, timeout=CANCEL_GRACE_SECONDS)
        if not done:
            log.warning("turn %s: the model work did not unwind within %ss", turn.id, CANCEL_GRACE_SECONDS)
        elif not work.cancelled() and (raised := work.exception()) is not None:
            log.warning("turn %s: the halted model work raised\n%s", turn.id, escaped_traceback(raised))
        self._end_halted(turn, state)

    def _end_halted(self, turn: TurnRecord, state: _RunState) -> None:
        """End a stopped or timed-out turn: what the recorder holds, then ``turn.stopped`` or ``run.failed``.

        Idempotent, like the ends it calls: a turn that already ended stays as it is.
        """
        _settle(turn, state.recorder)
        halt = state.watch.halt or STOP
        if halt == STOP:
            self.turns.stopped(turn.id, entry=state.entry())
        else:
            self.turns.fail(turn.id, halt, entry=state.entry())

    async def _work(self, turn: TurnRecord, state: _RunState) -> None:
        recorder: StreamRecorder | None = None
        try:
            session = self._session(turn)
            guide = self.guide()
            mode = self.modes.resolve(session.mode, guide)
            check_mode(mode, guide, session.guide_hash)
            context = self.context_factory.for_turn(session, turn)
            limits = merge_limits(self.settings, context.usage_limits if context else None)
            binding = ToolBinding.for_session(
                session.id, session.tenant, session.page, turn_id=turn.id
            )
            recorder = state.recorder = StreamRecorder(
                self.engine,
                session.id,
                session.tenant,
                flush_chars=self.settings.text_flush_chars,
                flush_seconds=self.settings.text_flush_seconds,
            )
            agent = self._agent(mode.prompt)
            model = self.model_factory()
            deps = _TurnDeps(binding, turn.id, state, recorder)
            usage = RunUsage()
            prompt = turn.message
            history: list[ModelMessage] | None = self._earlier_turns(turn) or None
            for run in range(1, 2 + self.settings.max_continuations):
                recorder.run_started(run, turn.id)
                reason = await self._one_run(agent, model, prompt, history, deps, limits, usage)
                if state.stop_seen:
                    self._end_halted(turn, state)
                    return
                recorder.run_finished(run, reason or "stop")
                if reason == "length" and not recorder.ready:
                    history, prompt = state.messages, CONTINUATION
                    continue
                self.telemetry.observe(
                    self.engine, session.id, session.tenant, turn.id, model.model_name, usage
                )
                self.turns.finish(
                    turn.id, ready=recorder.ready, entry=state.entry(finished=True), usage=_totals(usage)
                )
                return
            self.turns.fail(turn.id, "output_limit", entry=state.entry())
        except Exception as error:  # every failure ends as a code, never a message
            if state.stop_seen or state.watch.halt is not None:
                # The stop surfaced as an error from inside the model library.
                self._end_halted(turn, state)
                return
            _settle(turn, recorder)
            code = code_of(error, "run_failed")
            if code == "run_failed":
                correlation = uuid.uuid4().hex[:12]
                # Not exc_info: a message may quote the model (see logged.py).
                log.error("turn %s failed (correlation %s)\n%s", turn.id, correlation, escaped_traceback(error))
            self.turns.fail(turn.id, code, entry=state.entry())

    async def _one_run(
        self,
        agent: Agent[_TurnDeps, str],
        model: Model,
        prompt: str,
        history: list[ModelMessage] | None,
        deps: _TurnDeps,
        limits: UsageLimits,
        usage: RunUsage,
    ) -> str | None:
        """One model run; returns its finish reason (``length`` when cut off)."""
        state, recorder = deps.state, deps.recorder
        # The stop flag is read before every tool call (in the tool wrapper)
        # and, between those, by the turn's watch, which also sees a silent model.
        state.watch.touch()
        try:
            async with agent.run_stream_events(
                prompt,
                model=model,
                deps=deps,
                message_history=history,
                usage_limits=limits,
                usage=usage,
            ) as events:
                try:
                    async for event in events:
                        state.watch.touch()
                        recorder.record(event)
                except StopRequested:
                    state.stop_seen = True
                except OutputTokenLimitExceeded:
                    state.messages = list(events.all_messages())
                    state.turn_messages.extend(events.new_messages())
                    return "length"
                if state.stop_seen:
                    return None
                state.messages = list(events.all_messages())
                state.turn_messages.extend(events.new_messages())
        except UsageLimitExceeded as error:
            # The model library's limit, translated where the library is called.
            raise Refused("usage_limit") from error
        except ModelAPIError as error:
            # The provider's last word after charlotte's retries, as a code.
            raise provider_failure(error) from error
        return _finish_reason(state.messages)

    def _agent(self, prompt: str) -> Agent[_TurnDeps, str]:
        with self._agents_lock:
            agent = self._agents.get(prompt)
            if agent is None:
                if len(self._agents) >= _AGENTS_KEPT:
                    self._agents.pop(next(iter(self._agents)))
                tools = [self._tool(d.name, d.description, d.parameters_json_schema)
                         for d in self.tools.definitions()]  # fmt: skip
                # Never offered to the model: it answers the calls to names that are not tools.
                tools.append(self._tool(UNKNOWN_TOOL, "", {"type": "object"}))
                agent = Agent(
                    instructions=prompt,
                    deps_type=_TurnDeps,
                    output_type=str,
                    tools=tools,
                    name="charlotte_builder",
                    capabilities=[ToolRouting(self.tools.names)],
                )
                self._agents[prompt] = agent
            return agent

    def _tool(self, name: str, description: str, schema: dict[str, Any]) -> Tool[_TurnDeps]:
        page_tools = self.tools
        turns = self.turns
        units = self.units

        async def call(ctx: RunContext[_TurnDeps], **given: Any) -> dict[str, Any]:
            deps = ctx.deps
            called, arguments = called_name(name, given)
            if called in page_tools.names and name == UNKNOWN_TOOL:
                called = UNKNOWN_TOOL  # the hidden tool answers unknown_tool and nothing else
            arguments = raw_arguments(arguments) if isinstance(arguments, dict) else arguments
            watch = deps.state.watch
            # A halted turn (stop, timeout) starts no tool; a running one is waited for.
            if not watch.tool_may_start():
                deps.state.stop_seen = True
                raise StopRequested

            def stop(unit: UnitOfWork) -> None:
                # The stop flag is honoured between tool calls: a stopped turn
                # writes nothing more (not even this call's tool.called).
                if turns.should_stop(deps.turn_id, unit.conn):
                    deps.state.stop_seen = True
                    raise StopRequested

            try:
                # Run in the turn's own event loop, not a worker thread: a tool
                # call is short database work, the loop serves only this turn,
                # and the watch waits for a running tool anyway.
                result = call_tool(
                    units, page_tools, called, arguments, deps.binding,
                    stop=stop, log=deps.recorder, call_id=ctx.tool_call_id,
                )  # fmt: skip
            finally:
                watch.tool_ended()
            if name != UNKNOWN_TOOL:  # a call to no tool did no work
                deps.state.work.note(name, given, result)
            return result

        return Tool.from_schema(
            function=call, name=name, description=description, json_schema=schema, takes_ctx=True
        )

    def _earlier_turns(self, turn: TurnRecord) -> list[ModelMessage]:
        """The session's earlier turns as message history, within ``history_turns``/``history_chars``."""
        limit = self.settings.history_turns
        if limit == 0:
            return []
        with self.units.reading() as conn:
            # A turn's messages longer than the whole budget could never go whole: not read.
            rows = self.conversation.recent(
                conn, turn.session_id, turn.tenant, limit, messages_up_to=self.settings.history_chars
            )
        return build_conversation(rows, turns=limit, chars=self.settings.history_chars)

    def _session(self, turn: TurnRecord) -> SessionRecord:
        with self.units.reading() as conn:
            session = self.sessions.get(conn, turn.session_id, turn.tenant)
        if session is None:
            raise Refused("not_found")
        return session


def _totals(usage: RunUsage) -> dict[str, int]:
    """The turn's usage as ``turn.finished`` carries it (every run and continuation of the turn)."""
    return {
        "input_tokens": max(0, usage.input_tokens or 0),
        "output_tokens": max(0, usage.output_tokens or 0),
        "requests": max(0, usage.requests or 0),
    }


def _settle(turn: TurnRecord, recorder: StreamRecorder | None) -> None:
    """Write what the recorder still holds; a failure there never hides how the turn ends."""
    if recorder is None:
        return
    try:
        recorder.settle()
    except Exception:
        log.warning("could not settle the recorder of turn %s", turn.id)
