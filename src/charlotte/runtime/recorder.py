"""``StreamRecorder``: turns a model run's stream events into session log events.

One recorder serves one turn (all its runs). Every append is a short write
transaction, so a browser following the log sees the run live.

- Text parts and text deltas are buffered and written as one coalesced
  ``text.delta`` when the buffer reaches ``flush_chars``, when
  ``flush_seconds`` passed since its first character, or before any other
  event is written (the log keeps the order the model produced). The log
  keeps a turn's first ``MAX_TURN_TEXT`` characters; the delta that reaches
  the bound says ``cut`` and the rest is not written.
- ``FunctionToolCallEvent`` → ``tool.called`` (arguments decoded from JSON
  when the model sent text; the raw text when it is not a JSON object).
  Arguments whose JSON text is longer than ``MAX_CALL_ARGUMENTS`` are kept
  as the text's first ``MAX_CALL_ARGUMENTS`` characters, and
  ``arguments_chars`` says how long the text was.
- ``FunctionToolResultEvent`` → ``tool.result`` from the tool's result dict
  (``isError``, ``revision``, ``error.code``); the model library's own retry
  (arguments it could not validate) → ``is_error`` with ``invalid_arguments``.
- A call that reaches its tool writes both itself, at the end of the
  transaction in which the tool read the stop flag, its session and the
  page and made its write (``write_tool_call``): ``tool.called``, the
  write's own events, ``tool.result``, in that order and in one append, so
  a call is one transaction and the recorder writes nothing for its stream
  events. A checking call (run after that transaction) writes only its
  ``tool.called`` there. A call that never reaches its tool (arguments the
  model library refused) gets its ``tool.called`` with its ``tool.result``,
  in one transaction; a call stopped before it ran leaves none.
- Everything else is ignored.

No exception message ever reaches an event: failures are recorded by code.
Everything the model chose (text, tool names, call ids, arguments, finish
reasons) is made storable first: a lone surrogate becomes U+FFFD, whatever
event log adapter writes it (``charlotte.policy.text``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

import sqlalchemy as sa
from pydantic_ai.messages import (
    FunctionToolCallEvent,
    FunctionToolResultEvent,
    PartDeltaEvent,
    PartStartEvent,
    RetryPromptPart,
    TextPart,
    TextPartDelta,
    ToolCallPart,
)

from charlotte.errors import MESSAGES
from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent
from charlotte.policy.text import storable_json, storable_text
from charlotte.storage import EventLog, UnitOfWork, Units
from charlotte.storage.conversation import MAX_REPLY

__all__ = ["MAX_CALL_ARGUMENTS", "MAX_TURN_TEXT", "READY_TOOL", "StreamRecorder"]

#: The tool whose successful result marks the turn's page ready for review.
READY_TOOL: Final = "cms_ready"
#: The longest JSON text of a call's arguments a ``tool.called`` keeps whole (a valid
#: ``cms_apply`` of 200 ops stays well under it); a longer one is kept cut to this many characters.
MAX_CALL_ARGUMENTS: Final = 100_000
#: The most of a turn's text its ``text.delta`` events keep: what its conversation row keeps.
MAX_TURN_TEXT: Final = MAX_REPLY

# How far a call wrote its own events (``StreamRecorder._calls``).
_CALLED: Final = "called"
_ANSWERED: Final = "answered"
_MAX_LABEL: Final = 128  # tool name and call id bounds of the event schema
_MAX_REASON: Final = 32  # run.finished reason bound
# Outcomes of a tool call that never produced a result dict.
_OUTCOME_CODES: Final[Mapping[str, str]] = {
    "retried": "invalid_arguments",
    "failed": "tool_failed",
    "denied": "tool_denied",
    "interrupted": "tool_interrupted",
}


class StreamRecorder:
    """Records one turn's model stream events in the session's log (see module docstring).

    ``ready`` becomes True once a ``cms_ready`` call succeeded. A failed run's
    ``run.failed`` is written by ``Turns.fail``, with the turn's end.
    """

    def __init__(
        self,
        engine: sa.Engine,
        session_id: str,
        tenant: str,
        *,
        events: EventLog | None = None,
        flush_chars: int = 200,
        flush_seconds: float = 0.25,
        clock: Callable[[], float] = time.monotonic,
        actor: str = AGENT_ACTOR,
    ) -> None:
        if flush_chars < 1 or flush_seconds < 0:
            raise ValueError("flush_chars must be >= 1 and flush_seconds >= 0")
        self._units = Units(engine, events=events)
        #: Who the events are recorded as: the built-in agent, or an outside one (``agent:<client>``).
        self._actor = actor
        self._session_id = session_id
        self._tenant = tenant
        self._flush_chars = flush_chars
        self._flush_seconds = flush_seconds
        self._clock = clock
        self._buffer: list[str] = []
        self._buffered = 0
        self._logged = 0  # the turn's characters buffered for the log so far (at most MAX_TURN_TEXT)
        self._cut = False  # the turn's text went past MAX_TURN_TEXT (the next delta says so)
        self._first_at = 0.0
        self._turn_id: str | None = None
        # A failure result may carry no revision (an unbound call) but the
        # event needs one: the last revision a result reported stands in.
        self._revision = 0
        self.ready = False
        # What the log holds of each call, by call id: the stream's
        # ``tool.called`` payload not yet written (a dict), or how far the
        # call wrote its own (CALLED, ANSWERED). The model's stream and the
        # tool calls may run on different threads.
        self._lock = threading.Lock()
        self._calls: dict[str, dict[str, Any] | str] = {}
        # What the turn said, for its conversation row (bounded).
        self._said: list[str] = []
        self._said_chars = 0

    # -- run boundaries ------------------------------------------------------------

    def run_started(self, run: int, turn_id: str) -> None:
        """Record ``run.started`` for run number ``run`` (1 = first) of ``turn_id``."""
        _check_run(run)
        self._turn_id = turn_id
        self._write(EventTypes.RUN_STARTED, {"turn_id": turn_id, "run": run})

    def run_finished(self, run: int, reason: str) -> None:
        """Flush pending text, then record ``run.finished`` with the model's finish ``reason``."""
        _check_run(run)
        if self._turn_id is None:
            raise RuntimeError("run_finished before run_started")
        if not isinstance(reason, str) or not reason:
            reason = "unknown"
        payload = {"turn_id": self._turn_id, "run": run, "reason": storable_text(reason)[:_MAX_REASON]}
        self._write(EventTypes.RUN_FINISHED, payload)

    # -- stream events -------------------------------------------------------------

    def record(self, event: object) -> None:
        """Record one pydantic-ai stream event (text is buffered; unknown kinds are ignored)."""
        if isinstance(event, PartStartEvent):
            if isinstance(event.part, TextPart):
                if self._said and self._said_chars < MAX_REPLY:
                    self._said.append("\n\n")  # a new text part: a new paragraph of the reply
                    self._said_chars += 2
                self._text(event.part.content)
        elif isinstance(event, PartDeltaEvent):
            if isinstance(event.delta, TextPartDelta):
                self._text(event.delta.content_delta)
        elif isinstance(event, FunctionToolCallEvent):
            # Text the model wrote before the call goes first.
            self.flush()
            called = _called(event.part)
            with self._lock:
                earlier = self._calls.get(called["call_id"])
                if isinstance(earlier, str):
                    return  # the call wrote its own already
                self._calls[called["call_id"]] = called
            if earlier is not None:
                # Two calls under one id: the earlier one is written now, not lost.
                self._append_many(self._call_events(earlier))
        elif isinstance(event, FunctionToolResultEvent):
            call_id = _label(getattr(event.part, "tool_call_id", None), "unknown")
            with self._lock:
                state = self._calls.pop(call_id, None)
            if state == _ANSWERED:
                # The call wrote its tool.result itself, with its write (``tool_answered``);
                # done with this id: a later call under it is logged again.
                self.flush()
                return
            unwritten = state if isinstance(state, dict) else None
            result = self._result(event.part)
            self._append_many([*self._buffered_text(), *self._call_events(unwritten, result)])

    def tool_called(self, unit: UnitOfWork, call_id: object, name: object, arguments: object) -> None:
        """Emit a call's ``tool.called`` in ``unit``, the call's own, before the tool runs.

        It carries the payload the stream event gave when it came first,
        else one made from ``name`` and ``arguments`` (the object or the raw
        text the model sent), and is never written again for this call:
        should ``unit`` roll back (a stop), the call leaves none.
        """
        key = _label(call_id, "unknown")
        with self._lock:
            state = self._calls.get(key)
            self._calls[key] = _CALLED
        if isinstance(state, str):
            return  # written already (``settle``)
        called = state if state is not None else _called_payload(name, key, arguments)
        unit.emit_all(self._call_events(called))

    def tool_answered(
        self, unit: UnitOfWork, call_id: object, name: object, result: Mapping[str, Any]
    ) -> None:
        """Emit a call's ``tool.result`` in ``unit`` (after what the tool wrote); the stream's is then skipped."""
        key = _label(call_id, "unknown")
        payload = self._payload(_label(name, "unknown"), key, *self._outcome_of(result))
        unit.emit_all(self._call_events(None, payload))
        with self._lock:
            self._calls[key] = _ANSWERED

    def flush(self) -> None:
        """Write the buffered text as one ``text.delta`` (nothing when the buffer is empty)."""
        self._append_many(self._buffered_text())

    def settle(self) -> None:
        """Write all that is held: the ``tool.called`` of calls that neither ran nor got a result, then text.

        For a run that ends early (a stop, a failure): the log keeps every
        call the model made.
        """
        self._append_many(self._held())

    # -- internals -----------------------------------------------------------------

    @property
    def reply(self) -> str:
        """The text the turn's runs streamed so far (at most ``MAX_REPLY`` characters)."""
        return storable_text("".join(self._said))

    def _text(self, chunk: str) -> None:
        if not chunk:
            return
        if self._said_chars < MAX_REPLY:
            kept = chunk[: MAX_REPLY - self._said_chars]
            self._said.append(kept)
            self._said_chars += len(kept)
        if self._cut:
            return  # past the bound: the log says so once, and keeps no more
        logged = chunk[: MAX_TURN_TEXT - self._logged]
        self._logged += len(logged)
        if not self._buffer:
            self._first_at = self._clock()
        self._buffer.append(logged)
        self._buffered += len(logged)
        if len(logged) < len(chunk):
            self._cut = True
            self.flush()
        elif (
            self._buffered >= self._flush_chars
            or self._clock() - self._first_at >= self._flush_seconds
        ):
            self.flush()

    def _write(self, type: str, payload: Mapping[str, Any]) -> None:
        # What is held comes first, all in one transaction.
        self._append_many([*self._held(), NewEvent(type, payload, AGENT_ACTOR)])

    def _held(self) -> list[NewEvent]:
        """The held calls' ``tool.called`` (marked written) and the buffered text, in log order."""
        with self._lock:
            calls = [state for state in self._calls.values() if isinstance(state, dict)]
            for called in calls:
                self._calls[called["call_id"]] = _CALLED
        held = [event for called in calls for event in self._call_events(called)]
        return [*held, *self._buffered_text()]

    def _call_events(
        self,
        called: dict[str, Any] | None, result: dict[str, Any] | None = None
    ) -> list[NewEvent]:
        """THE writer of ``tool.called`` and ``tool.result``: a call's payload, then its result's."""
        new = [] if called is None else [NewEvent(EventTypes.TOOL_CALLED, called, self._actor)]
        if result is not None:
            new.append(NewEvent(EventTypes.TOOL_RESULT, result, self._actor))
        return new

    def _buffered_text(self) -> list[NewEvent]:
        """The buffered text as one ``text.delta`` event (none when empty); the buffer is emptied.

        The delta that reaches ``MAX_TURN_TEXT`` says ``cut`` (its text may be
        empty: the bound was reached exactly by the text before it).
        """
        if not self._buffer:
            return []
        # Joined before repairing: a surrogate pair split across two chunks is one character.
        text = storable_text("".join(self._buffer))
        # Emptied before writing: should the write fail, the run.failed that
        # follows must not fail again on the same text.
        self._buffer.clear()
        self._buffered = 0
        if self._cut:
            return [NewEvent(EventTypes.TEXT_DELTA, {"text": text, "cut": True}, AGENT_ACTOR)]
        return [NewEvent(EventTypes.TEXT_DELTA, {"text": text}, AGENT_ACTOR)]

    def _append_many(self, new: list[NewEvent]) -> None:
        if not new:
            return
        with self._units.recording(self._session_id, self._tenant) as unit:
            unit.emit_all(new)

    def _result(self, part: object) -> dict[str, Any]:
        name = _label(getattr(part, "tool_name", None), "unknown")
        call_id = _label(getattr(part, "tool_call_id", None), "unknown")
        return self._payload(name, call_id, *self._outcome(part))

    def _payload(self, name: str, call_id: str, is_error: bool, revision: int | None, code: str) -> dict[str, Any]:
        if revision is not None:
            self._revision = revision
        payload: dict[str, Any] = {
            "name": name,
            "call_id": call_id,
            "is_error": is_error,
            "revision": self._revision,
        }
        if is_error:
            payload["code"] = code
        elif name == READY_TOOL:
            self.ready = True
        return payload

    @staticmethod
    def _outcome(part: object) -> tuple[bool, int | None, str]:
        """``(is_error, revision or None, code)`` of a tool return part."""
        if isinstance(part, RetryPromptPart):
            return True, None, "invalid_arguments"
        outcome = getattr(part, "outcome", "success")
        if outcome in _OUTCOME_CODES:
            return True, None, _OUTCOME_CODES[outcome]
        return StreamRecorder._outcome_of(_decoded(getattr(part, "content", None)))

    @staticmethod
    def _outcome_of(result: object) -> tuple[bool, int | None, str]:
        """``(is_error, revision or None, code)`` of what a tool returned."""
        if not isinstance(result, Mapping):
            # Not one of our tools' results: nothing to read a revision or code from.
            return False, None, ""
        revision = result.get("revision")
        known = revision if type(revision) is int and revision >= 0 else None
        if result.get("isError") is True:
            error = result.get("error")
            code = error.get("code") if isinstance(error, dict) else None
            return True, known, code if isinstance(code, str) and code in MESSAGES else "tool_failed"
        return False, known, ""


def _check_run(run: int) -> None:
    # The event schema numbers runs from 1; a 0 would be logged as an invalid event.
    if type(run) is not int or run < 1:
        raise ValueError("run numbers start at 1")


def _called(part: ToolCallPart) -> dict[str, Any]:
    return _called_payload(part.tool_name, _label(part.tool_call_id, "unknown"), part.args)


def _called_payload(name: object, call_id: str, args: object) -> dict[str, Any]:
    """A ``tool.called`` payload: the arguments object, or the raw text when it is none; cut past the bound."""
    payload: dict[str, Any] = {"name": _label(name, "unknown"), "call_id": call_id}
    if args is None or args == "":
        payload["arguments"] = {}
        return payload
    # The text's length is read before it is decoded: an 8 MB text is cut, never decoded here.
    text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False, default=str)
    if len(text) > MAX_CALL_ARGUMENTS:
        payload["arguments"] = storable_text(text[:MAX_CALL_ARGUMENTS])
        payload["arguments_chars"] = len(text)
        return payload
    decoded = _decoded(args)
    # The schema allows the raw text when it is not a JSON object.
    arguments = decoded if isinstance(decoded, dict) else text
    payload["arguments"] = storable_json(arguments)
    return payload


def _decoded(value: object) -> object:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        return value


def _label(value: object, default: str) -> str:
    # The model chooses names and call ids; the event schema bounds them.
    if not isinstance(value, str) or not value:
        return default
    return storable_text(value)[:_MAX_LABEL]
