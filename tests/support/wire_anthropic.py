"""A scripted peer speaking the Anthropic Messages streaming format (``POST /v1/messages``).

As Anthropic documents it: with ``"stream": true`` the answer is server-sent
events, each with an ``event:`` line and a ``data:`` line of the same
``type``: ``message_start`` (the message with empty ``content`` and the
input ``usage``), ``ping``, then per content block ``content_block_start``
(a ``text`` block, or a ``tool_use`` block with ``id``, ``name`` and empty
``input``), ``content_block_delta`` pieces (``text_delta`` text, or
``input_json_delta`` ``partial_json`` — the tool input's JSON text in pieces)
and ``content_block_stop``; then ``message_delta`` (``stop_reason``:
``end_turn``, ``tool_use`` or ``max_tokens``, and the output ``usage``) and
``message_stop``. Errors are JSON ``{"type": "error", "error": {"type",
"message"}}`` with the HTTP status (529 ``overloaded_error`` included).

Point ``anthropic:<name>`` at it with ``Settings.model_base_url=peer.root_url``
(the Anthropic client adds ``/v1/messages`` itself).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from tests.support.loopback_http import PEER_ERROR_TEXT, Failure, Peer, Reply, pieces, sse

MODEL: Final = "claude-loopback"

_ERRORS: Final[Mapping[int, str]] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def _event(data: Mapping[str, Any]) -> bytes:
    return sse(data, event=str(data["type"]))


class AnthropicPeer(Peer):
    path = "/v1/messages"

    def _start(self, input_tokens: int) -> bytes:
        message = {
            "id": "msg_loopback",
            "type": "message",
            "role": "assistant",
            "content": [],
            "model": MODEL,
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": 1},
        }
        return _event({"type": "message_start", "message": message})

    def text_event(self, text: str) -> bytes:
        return self._start(1)

    def stream(self, reply: Reply, request: dict[str, Any]) -> Iterator[bytes]:
        yield self._start(reply.input_tokens)
        yield _event({"type": "ping"})
        index = 0
        if reply.text:
            yield _event(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                }
            )
            for piece in pieces(reply.text, reply.text_chunks):
                delta = {"type": "text_delta", "text": piece}
                yield _event({"type": "content_block_delta", "index": index, "delta": delta})
            yield _event({"type": "content_block_stop", "index": index})
            index += 1
        for number, call in enumerate(reply.calls):
            block = {
                "type": "tool_use",
                "id": self.call_id("toolu_", number, call),
                "name": call.name,
                "input": {},
            }
            yield _event({"type": "content_block_start", "index": index, "content_block": block})
            for piece in pieces(call.arguments, call.chunks):
                delta = {"type": "input_json_delta", "partial_json": piece}
                yield _event({"type": "content_block_delta", "index": index, "delta": delta})
            yield _event({"type": "content_block_stop", "index": index})
            index += 1
        stop = (
            "max_tokens" if reply.finish == "length" else "tool_use" if reply.calls else "end_turn"
        )
        yield _event({
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": reply.output_tokens},
        })  # fmt: skip
        yield _event({"type": "message_stop"})

    def tool_calls(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        # An earlier call is a "tool_use" block of an assistant message.
        return [
            (block["id"], block["name"])
            for message in body.get("messages", [])
            if message.get("role") == "assistant" and isinstance(message.get("content"), list)
            for block in message["content"]
            if block.get("type") == "tool_use"
        ]

    def tool_results(self, body: dict[str, Any]) -> dict[str, str]:
        # A tool result is a "tool_result" block of a user message, naming the tool_use it answers.
        found: dict[str, str] = {}
        for message in body.get("messages", []):
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if block.get("type") == "tool_result":
                    inner = block.get("content")
                    texts = (
                        [b.get("text", "") for b in inner]
                        if isinstance(inner, list)
                        else [str(inner)]
                    )
                    found[block["tool_use_id"]] = "".join(texts)
        return found

    def stream_error(self, failure: Failure) -> Iterator[bytes]:
        # An error after the stream opened is an "error" event (overloaded_error, say).
        yield self._start(10)
        yield _event(self.error_body(failure))

    def error_body(self, failure: Failure) -> dict[str, Any]:
        kind = _ERRORS.get(failure.status, "api_error")
        return {
            "type": "error",
            "error": {"type": kind, "message": f"{PEER_ERROR_TEXT} {failure.status}"},
        }
