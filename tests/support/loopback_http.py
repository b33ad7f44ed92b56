"""A loopback HTTP server for scripted model peers, and the script they play.

A test hands a ``Peer`` the replies to play, one per model request, oldest
first; when the script runs out it answers ``Reply.text("Done.")``. A peer
records every request (path, headers, JSON body, when it came) so a test can
read what the client sent. Each wire format (``wire_openai_chat.py``,
``wire_openai_responses.py``, ``wire_anthropic.py``) says how a ``Reply`` is
streamed and how an error body looks; ``model_server.py`` serves its fixed
behaviours on the same base.

What can be played:

- ``Reply``: text and tool calls (each tool call's JSON arguments, given as
  raw text so they can be malformed, split into ``chunks`` pieces), a finish
  (``stop`` or ``length``) and the usage to report;
- ``Failure``: an HTTP error with headers (``Retry-After``) and the provider's
  error body, or (``in_stream``) a stream that opens and then sends the
  provider's error event;
- ``Silence``: the stream opens, sends ``first`` text if given, then only
  keep-alive comments until the client hangs up.

Nothing waits forever: a silent reply ends when the client hangs up, when the
server closes, or after ``MAX_REPLY_SECONDS``.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final, Literal

PING_SECONDS: Final = 0.1
#: The words every error body's message starts with: a test looks for them where they must not be.
PEER_ERROR_TEXT: Final = "peer-error-message"
MAX_REPLY_SECONDS: Final = 60.0


@dataclass(frozen=True, slots=True)
class Call:
    """One tool call: ``arguments`` is the raw JSON text the model sends, in ``chunks`` pieces.

    ``id``: the call id the peer sends (by default one unique over the peer's life).
    """

    name: str
    arguments: str
    chunks: int = 1
    id: str | None = None

    @classmethod
    def of(cls, name: str, arguments: Mapping[str, Any], chunks: int = 1, id: str | None = None) -> Call:
        return cls(name, json.dumps(arguments), chunks, id)


@dataclass(frozen=True, slots=True)
class Reply:
    """One streamed answer: ``text`` (in ``text_chunks`` pieces) then ``calls``."""

    text: str = ""
    calls: tuple[Call, ...] = ()
    finish: Literal["stop", "length"] = "stop"
    input_tokens: int = 100
    output_tokens: int = 20
    text_chunks: int = 1

    @classmethod
    def of_text(cls, text: str, **kwargs: Any) -> Reply:
        return cls(text=text, **kwargs)

    @classmethod
    def of_calls(cls, *calls: Call, **kwargs: Any) -> Reply:
        return cls(calls=calls, **kwargs)


@dataclass(frozen=True, slots=True)
class Failure:
    """An HTTP error answer: ``status`` and ``headers``; ``in_stream``: a 200 stream that then reports it."""

    status: int
    kind: str = "server_error"
    headers: Mapping[str, str] = field(default_factory=dict)
    in_stream: bool = False


@dataclass(frozen=True, slots=True)
class Silence:
    """A stream that opens (``first`` text, if any) and then sends nothing but keep-alives."""

    first: str = ""


Play = Reply | Failure | Silence


def pieces(text: str, count: int) -> list[str]:
    """``text`` in ``count`` pieces (fewer when it is shorter), joined back exactly."""
    count = max(1, min(count, len(text) or 1))
    size, extra = divmod(len(text), count)
    out, at = [], 0
    for index in range(count):
        step = size + (1 if index < extra else 0)
        out.append(text[at : at + step])
        at += step
    return out


@dataclass(frozen=True, slots=True)
class Recorded:
    """One request the peer saw."""

    path: str
    headers: Mapping[str, str]
    body: dict[str, Any]
    at: float


class Peer:
    """A scripted model peer on one wire format; subclasses say how to stream and fail."""

    #: The path a request must be posted to (after ``/v1``).
    path: str = ""

    def __init__(self) -> None:
        self._http: ThreadingHTTPServer | None = None
        self._script: list[Play] = []
        self._lock = threading.Lock()
        self.requests: list[Recorded] = []
        self.closing = threading.Event()
        #: Set once a silent reply has sent what it sends before going quiet.
        self.went_quiet = threading.Event()
        #: Set once a reply ended because the client hung up.
        self.hung_up = threading.Event()

    # -- what a test uses ----------------------------------------------------------------

    @property
    def root_url(self) -> str:
        assert self._http is not None, "the peer is not serving"
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def play(self, *plays: Play) -> None:
        """Queue replies for the next requests."""
        with self._lock:
            self._script.extend(plays)

    def call_id(self, prefix: str, index: int, call: Call | None = None) -> str:
        """A tool call's id: ``call``'s own, else one unique over the peer's life (the request's number, the call's index)."""
        if call is not None and call.id is not None:
            return call.id
        with self._lock:
            return f"{prefix}{len(self.requests)}_{index}"

    def bodies(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r.body for r in self.requests]

    # -- what a wire format says -----------------------------------------------------------

    def stream(self, reply: Reply, request: dict[str, Any]) -> Iterable[bytes]:
        raise NotImplementedError

    def error_body(self, failure: Failure) -> dict[str, Any]:
        raise NotImplementedError

    def text_event(self, text: str) -> bytes:
        """The bytes of a stream's start carrying ``text`` (for ``Silence``)."""
        raise NotImplementedError

    def tool_results(self, body: dict[str, Any]) -> dict[str, str]:
        """The tool results a request carries back: call id → the result's text."""
        raise NotImplementedError

    def tool_calls(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        """The model's earlier tool calls a request carries back: (call id, tool name), in order."""
        raise NotImplementedError

    def stream_error(self, failure: Failure) -> Iterable[bytes]:
        """A stream that starts and then reports ``failure`` as the provider does mid-stream."""
        raise NotImplementedError

    # -- serving -----------------------------------------------------------------------------

    def record(self, recorded: Recorded) -> None:
        with self._lock:
            self.requests.append(recorded)

    def answer(self, handler: BaseHTTPRequestHandler, recorded: Recorded) -> None:
        """Record the request and play the script's next reply."""
        with self._lock:
            self.requests.append(recorded)
            play = self._script.pop(0) if self._script else Reply.of_text("Done.")
        self.respond(handler, recorded, play)

    def respond(self, handler: BaseHTTPRequestHandler, recorded: Recorded, play: Play) -> None:
        """Send ``play`` as the answer to ``recorded``."""
        if isinstance(play, Failure) and not play.in_stream:
            data = json.dumps(self.error_body(play)).encode()
            handler.send_response(play.status)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            for name, value in play.headers.items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(data)
            return
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.end_headers()
        try:
            if isinstance(play, Failure):
                for data in self.stream_error(play):
                    _send(handler, data)
            elif isinstance(play, Silence):
                if play.first:
                    _send(handler, self.text_event(play.first))
                self.went_quiet.set()
                self.endless(handler, lambda: b": ping\n\n", PING_SECONDS)
            else:
                for data in self.stream(play, recorded.body):
                    _send(handler, data)
        except OSError:
            self.hung_up.set()

    def endless(
        self, handler: BaseHTTPRequestHandler, piece: Callable[[], bytes], every: float
    ) -> None:
        deadline = time.monotonic() + MAX_REPLY_SECONDS
        while time.monotonic() < deadline and not self.closing.wait(every):
            _send(handler, piece())


def _send(handler: BaseHTTPRequestHandler, data: bytes) -> None:
    handler.wfile.write(data)
    handler.wfile.flush()


def sse(data: Mapping[str, Any], event: str | None = None) -> bytes:
    """One server-sent event: an optional ``event:`` line and one ``data:`` line of JSON."""
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def _handler(peer: Peer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length) or b"{}"
            recorded = Recorded(
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=json.loads(raw),
                at=time.monotonic(),
            )
            peer.answer(self, recorded)

    return Handler


@contextmanager
def serving(peer: Peer) -> Iterator[Peer]:
    """``peer`` on 127.0.0.1 (a free port), shut down afterwards."""
    http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(peer))
    http.daemon_threads = True
    peer._http = http
    thread = threading.Thread(
        target=http.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield peer
    finally:
        peer.closing.set()
        http.shutdown()
        http.server_close()
        thread.join(timeout=5)


def refused_url() -> str:
    """A loopback base URL nothing listens on (the port was free a moment ago): connecting is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
