"""A scripted peer speaking the OpenAI Chat Completions streaming format (``POST /v1/chat/completions``).

As OpenAI documents it: with ``"stream": true`` the answer is server-sent
events, each ``data:`` line one ``chat.completion.chunk`` whose
``choices[0].delta`` carries ``role`` first, then ``content`` pieces or
``tool_calls`` pieces (``index`` says which call; the first piece of a call
has its ``id``, ``type`` and ``function.name``, later ones only
``function.arguments`` text); the last choice chunk has ``finish_reason``
(``stop``, ``length`` or ``tool_calls``). When the request asks for
``stream_options.include_usage`` a final chunk with empty ``choices`` carries
``usage`` (``prompt_tokens``, ``completion_tokens``, ``total_tokens``). The
stream ends with ``data: [DONE]``. Errors are JSON ``{"error": {"message",
"type", "param", "code"}}`` with the HTTP status.

Point ``openai:<name>`` at it with ``Settings.model_base_url=peer.base_url``,
or ``openai-compatible:{peer.base_url}:<name>``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from tests.support.loopback_http import PEER_ERROR_TEXT, Failure, Peer, Reply, pieces, sse

MODEL: Final = "gpt-loopback"

#: status → (error type, error code), as OpenAI names them.
_ERRORS: Final[Mapping[int, tuple[str, str | None]]] = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", "unsupported_country_region_territory"),
    404: ("invalid_request_error", "model_not_found"),
    429: ("requests", "rate_limit_exceeded"),
    500: ("server_error", None),
    503: ("server_error", None),
}


class OpenAIChatPeer(Peer):
    path = "/v1/chat/completions"

    def _chunk(self, delta: Mapping[str, Any], finish: str | None = None) -> bytes:
        return sse(
            {
                "id": "chatcmpl-loopback",
                "object": "chat.completion.chunk",
                "created": 1_700_000_000,
                "model": MODEL,
                "system_fingerprint": "fp_loopback",
                "choices": [
                    {"index": 0, "delta": dict(delta), "logprobs": None, "finish_reason": finish}
                ],
            }
        )

    def text_event(self, text: str) -> bytes:
        return self._chunk({"role": "assistant", "content": text})

    def stream(self, reply: Reply, request: dict[str, Any]) -> Iterator[bytes]:
        yield self._chunk({"role": "assistant", "content": ""})
        if reply.text:
            for piece in pieces(reply.text, reply.text_chunks):
                yield self._chunk({"content": piece})
        for index, call in enumerate(reply.calls):
            head = {"index": index, "id": self.call_id("call_", index, call), "type": "function"}
            yield self._chunk(
                {"tool_calls": [{**head, "function": {"name": call.name, "arguments": ""}}]}
            )
            for piece in pieces(call.arguments, call.chunks):
                yield self._chunk(
                    {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}
                )
        finish = "length" if reply.finish == "length" else "tool_calls" if reply.calls else "stop"
        yield self._chunk({}, finish)
        if (request.get("stream_options") or {}).get("include_usage"):
            usage = {
                "prompt_tokens": reply.input_tokens,
                "completion_tokens": reply.output_tokens,
                "total_tokens": reply.input_tokens + reply.output_tokens,
            }
            yield sse({
                "id": "chatcmpl-loopback",
                "object": "chat.completion.chunk",
                "created": 1_700_000_000,
                "model": MODEL,
                "choices": [],
                "usage": usage,
            })  # fmt: skip
        yield b"data: [DONE]\n\n"

    def tool_results(self, body: dict[str, Any]) -> dict[str, str]:
        # A tool result is a message with role "tool" naming the call it answers.
        return {
            m["tool_call_id"]: m["content"]
            for m in body.get("messages", [])
            if m.get("role") == "tool"
        }

    def tool_calls(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        # The assistant's messages list their calls under "tool_calls".
        return [
            (c["id"], c["function"]["name"])
            for m in body.get("messages", [])
            if m.get("role") == "assistant"
            for c in m.get("tool_calls") or []
        ]

    def stream_error(self, failure: Failure) -> Iterator[bytes]:
        # An error after the stream opened comes as a data line holding the error object.
        yield self._chunk({"role": "assistant", "content": ""})
        yield sse(openai_error_body(failure))

    def error_body(self, failure: Failure) -> dict[str, Any]:
        return openai_error_body(failure)


def openai_error_body(failure: Failure) -> dict[str, Any]:
    """OpenAI's error body for ``failure`` (Chat Completions and Responses alike)."""
    kind, code = _ERRORS.get(failure.status, ("server_error", None))
    return {
        "error": {
            "message": f"{PEER_ERROR_TEXT} {failure.status}",
            "type": kind,
            "param": None,
            "code": code,
        }
    }
