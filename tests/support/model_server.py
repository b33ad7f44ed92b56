"""A Chat Completions peer with fixed behaviours chosen by the person's message (no script).

Point ``openai-compatible:{server.base_url}:<name>`` at it (``server.model()``).
It is the ``OpenAIChatPeer`` of ``wire_openai_chat.py`` on the shared loopback
base (``loopback_http.py``); what a reply does depends on the last user
message of the request:

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
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any, Final

from tests.support.loopback_http import MAX_REPLY_SECONDS, Recorded, Reply, Silence, serving
from tests.support.wire_openai_chat import OpenAIChatPeer

__all__ = ["FIRST_WORDS", "MAX_REPLY_SECONDS", "SILENT", "TRICKLE", "ModelServer", "model_server"]

SILENT: Final = "SILENT"
TRICKLE: Final = "TRICKLE"
TRICKLE_SECONDS: Final = 0.2
#: The text of a silent reply's one chunk.
FIRST_WORDS: Final = "Working on it"


def _last_user_text(request: dict[str, Any]) -> str:
    for message in reversed(request.get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else json.dumps(content)
    return ""


class ModelServer(OpenAIChatPeer):
    """The running server: its ``base_url``, and what it has seen (``requests``, ``went_quiet``, ``hung_up``)."""

    def model(self, name: str = "loopback") -> str:
        """The ``Settings.model`` string for this server."""
        return f"openai-compatible:{self.base_url}:{name}"

    def answer(self, handler: BaseHTTPRequestHandler, recorded: Recorded) -> None:
        self.record(recorded)
        text = _last_user_text(recorded.body)
        if TRICKLE in text and SILENT not in text:
            self._trickle(handler)
        else:
            self.respond(
                handler,
                recorded,
                Silence(FIRST_WORDS) if SILENT in text else Reply.of_text("Done."),
            )

    def _trickle(self, handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        try:
            handler.wfile.write(self.text_event("Still "))
            self.endless(handler, lambda: self._chunk({"content": "working "}), TRICKLE_SECONDS)
        except OSError:
            self.hung_up.set()


@contextmanager
def model_server() -> Iterator[ModelServer]:
    """A ``ModelServer`` on 127.0.0.1 (a free port), shut down afterwards."""
    with serving(ModelServer()) as server:
        yield server
