"""A loopback server speaking the OpenAI Chat Completions streaming wire format (SSE ``data:`` chunks).

Point ``openai-compatible:{server.base_url}:<name>`` at it. What a reply does
depends on the person's message, the last user message of the request:

- contains ``SILENT``: one text chunk, then only keep-alive comments
  (``: ping``) — a provider that has gone quiet but keeps the connection up;
- contains ``TRICKLE``: a short text chunk every ``TRICKLE_SECONDS``, never a
  finish — a model that is busy but never done;
- anything else: ``"Done."`` and finish reason ``stop``.

Nothing waits forever: an endless reply ends when the client hangs up, when the
server closes, or after ``MAX_REPLY_SECONDS``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final

SILENT: Final = "SILENT"
TRICKLE: Final = "TRICKLE"
PING_SECONDS: Final = 0.1
TRICKLE_SECONDS: Final = 0.2
MAX_REPLY_SECONDS: Final = 60.0
#: The text of a silent reply's one chunk.
FIRST_WORDS: Final = "Working on it"


class ModelServer:
    """The running server: its ``base_url``, and what it has seen."""

    def __init__(self, server: ThreadingHTTPServer) -> None:
        self._server = server
        self.closing = threading.Event()
        #: Set once a silent reply has sent its one chunk (the model is quiet from now on).
        self.went_quiet = threading.Event()
        #: Set once an endless reply ended because the client hung up.
        self.hung_up = threading.Event()
        self.requests = 0
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def model(self, name: str = "loopback") -> str:
        """The ``Settings.model`` string for this server."""
        return f"openai-compatible:{self.base_url}:{name}"

    def counted(self) -> None:
        with self._lock:
            self.requests += 1


def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    body = {
        "id": "chatcmpl-loopback",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "loopback",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return b"data: " + json.dumps(body).encode() + b"\n\n"


def _last_user_text(request: dict[str, Any]) -> str:
    for message in reversed(request.get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else json.dumps(content)
    return ""


def _handler(owner: list[ModelServer]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            return

        def do_POST(self) -> None:
            server = owner[0]
            server.counted()
            length = int(self.headers.get("Content-Length", "0"))
            request = json.loads(self.rfile.read(length) or b"{}")
            text = _last_user_text(request)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            try:
                if SILENT in text:
                    self._send(_chunk({"role": "assistant", "content": FIRST_WORDS}))
                    server.went_quiet.set()
                    self._endless(server, lambda: b": ping\n\n", PING_SECONDS)
                elif TRICKLE in text:
                    self._send(_chunk({"role": "assistant", "content": "Still "}))
                    self._endless(server, lambda: _chunk({"content": "working "}), TRICKLE_SECONDS)
                else:
                    self._send(_chunk({"role": "assistant", "content": "Done."}))
                    self._send(_chunk({}, "stop"))
                    self._send(b"data: [DONE]\n\n")
            except OSError:
                server.hung_up.set()

        def _send(self, data: bytes) -> None:
            self.wfile.write(data)
            self.wfile.flush()

        def _endless(self, server: ModelServer, piece: Any, every: float) -> None:
            deadline = time.monotonic() + MAX_REPLY_SECONDS
            while time.monotonic() < deadline and not server.closing.wait(every):
                self._send(piece())

    return Handler


@contextmanager
def model_server() -> Iterator[ModelServer]:
    """A ``ModelServer`` on 127.0.0.1 (a free port), shut down afterwards."""
    owner: list[ModelServer] = []
    http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(owner))
    http.daemon_threads = True
    server = ModelServer(http)
    owner.append(server)
    thread = threading.Thread(target=http.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.closing.set()
        http.shutdown()
        http.server_close()
        thread.join(timeout=5)
