"""A charlotte served by uvicorn on loopback for the browser test, with a paced offline builder.

The offline builder finishes a turn in a blink, too fast to watch the preview
fill in. ``PacedModel`` wraps it: while ``Pacer.hold()`` is on, every model
response that calls ``cms_apply`` waits for one ``Pacer.release()`` before it
goes out, so a test sees each write land, one at a time, while the turn is
still running. ``Pacer.free()`` lets the rest of the turn run straight through.
A wait is bounded, so a forgotten release slows a turn but never hangs it.
"""

from __future__ import annotations

import asyncio
import inspect
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import uvicorn
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import (
    AgentInfo,
    BuiltinToolCallsReturns,
    DeltaThinkingCalls,
    DeltaToolCall,
    DeltaToolCalls,
    FunctionModel,
)

from charlotte.app import Charlotte
from charlotte.offline.model import offline_model
from charlotte.settings import Settings

__all__ = ["BrowserServer", "Pacer", "paced_model", "serve_builder"]

#: The tool call a paced turn holds back.
PACED_TOOL: Final = "cms_apply"
#: Longest a held write waits for its release before going on regardless.
RELEASE_TIMEOUT_SECONDS: Final = 60.0
#: A short pause on every model request, so a turn's steps arrive as separate moments.
STEP_SECONDS: Final = 0.05


class Pacer:
    """Holds the builder's writes back until the test releases them, one by one."""

    def __init__(self) -> None:
        self._permits = threading.Semaphore(0)
        self._held = threading.Event()
        self._waiting = 0
        self._lock = threading.Lock()

    def hold(self) -> None:
        """From now on every write waits for a ``release``."""
        self._held.set()

    def free(self) -> None:
        """Let every write through, including any waiting now."""
        self._held.clear()
        with self._lock:
            waiting = self._waiting
        if waiting:
            self._permits.release(waiting)

    def release(self) -> None:
        """Let one held write through."""
        self._permits.release()

    def waiting(self) -> int:
        """How many writes wait for a release right now."""
        with self._lock:
            return self._waiting

    def gate(self) -> None:
        """Block the calling (model) thread while writes are held and no permit is left."""
        if not self._held.is_set():
            return
        with self._lock:
            self._waiting += 1
        try:
            self._permits.acquire(timeout=RELEASE_TIMEOUT_SECONDS)
        finally:
            with self._lock:
                self._waiting -= 1


def paced_model(pacer: Pacer) -> FunctionModel:
    """The offline builder, a little slower, with its ``cms_apply`` responses gated by ``pacer``."""
    inner = offline_model()
    respond = inner.function
    stream = inner.stream_function
    assert respond is not None and stream is not None

    async def paced_respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        response = respond(messages, info)
        answer = await response if inspect.isawaitable(response) else response
        if any(isinstance(part, ToolCallPart) and part.tool_name == PACED_TOOL for part in answer.parts):
            await asyncio.to_thread(pacer.gate)
        await asyncio.sleep(STEP_SECONDS)
        return answer

    async def paced_stream(
        messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls | DeltaThinkingCalls | BuiltinToolCallsReturns]:
        # The offline steps are computed at once: gather them, wait if it is a write, then stream.
        items = [item async for item in stream(messages, info)]
        if any(
            isinstance(item, dict)
            and any(isinstance(call, DeltaToolCall) and call.name == PACED_TOOL for call in item.values())
            for item in items
        ):
            await asyncio.to_thread(pacer.gate)
        await asyncio.sleep(STEP_SECONDS)
        for item in items:
            yield item

    return FunctionModel(paced_respond, stream_function=paced_stream, model_name="charlotte-offline-paced")


@dataclass
class BrowserServer:
    """The served charlotte, its base URL and the pacer of its model."""

    charlotte: Charlotte
    url: str
    pacer: Pacer


def _wait_until_started(server: uvicorn.Server, thread: threading.Thread, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("uvicorn stopped before it started")
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start in time")
        time.sleep(0.01)


@contextmanager
def serve_builder(folder: Path, model: FunctionModel | None = None) -> Iterator[BrowserServer]:
    """Serve a fresh charlotte (SQLite in ``folder``, thread queue) on 127.0.0.1; always shut down.

    ``model`` replaces the paced offline builder (its pacer then does nothing).
    """
    pacer = Pacer()
    charlotte = Charlotte(
        Settings(database_url=f"sqlite:///{folder / 'builder.db'}", queue="thread", model="offline"),
        model_factory=(lambda: model) if model is not None else (lambda: paced_model(pacer)),
    )
    charlotte.migrate()
    # One local person, as ``charlotte serve`` has it.
    charlotte.resolve_user_using(lambda request: "local")
    charlotte.resolve_tenant_using(lambda request: "local")
    app: Any = charlotte.asgi_app()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no ~40 ms wait per kept-alive answer
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        _wait_until_started(server, thread)
        yield BrowserServer(charlotte, f"http://127.0.0.1:{port}", pacer)
    finally:
        # Nothing may stay held, and closing the notifier ends the open streams
        # so the graceful shutdown need not wait for them.
        pacer.free()
        charlotte.notifier.close()
        server.should_exit = True
        thread.join(15)
        sock.close()
        charlotte.close()
    if thread.is_alive():
        raise RuntimeError("uvicorn did not shut down")
