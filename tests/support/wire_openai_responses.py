"""A scripted peer speaking the OpenAI Responses API streaming format (``POST /v1/responses``).

As OpenAI documents it: with ``"stream": true`` the answer is server-sent
events, each with an ``event:`` line naming its ``type`` and a ``data:`` line
holding it with a rising ``sequence_number``: ``response.created`` and
``response.in_progress`` (the ``response`` object, no output yet); per output
item ``response.output_item.added``, then for a ``message`` item
``response.content_part.added``, ``response.output_text.delta`` pieces,
``response.output_text.done`` and ``response.content_part.done``, for a
``function_call`` item (``call_id``, ``name``) ``response.function_call_arguments.delta``
pieces and ``response.function_call_arguments.done``; then
``response.output_item.done``. The stream ends with ``response.completed``
(status ``completed``, the whole ``output`` and ``usage``: ``input_tokens``,
``output_tokens``, ``total_tokens`` with their details) or, cut off by
``max_output_tokens``, ``response.incomplete`` (``incomplete_details.reason``).
Errors are the same JSON ``{"error": {...}}`` bodies as Chat Completions.

Point ``openai-responses:<name>`` at it with ``Settings.model_base_url=peer.base_url``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, Final

from tests.support.loopback_http import Failure, Peer, Reply, pieces, sse
from tests.support.wire_openai_chat import openai_error_body

MODEL: Final = "gpt-loopback"


def _response(status: str, output: list[dict[str, Any]], reply: Reply | None) -> dict[str, Any]:
    usage = None
    if reply is not None:
        usage = {
            "input_tokens": reply.input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": reply.output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": reply.input_tokens + reply.output_tokens,
        }
    return {
        "id": "resp_loopback",
        "object": "response",
        "created_at": 1_700_000_000,
        "status": status,
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "instructions": None,
        "max_output_tokens": None,
        "model": MODEL,
        "output": output,
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "reasoning": {"effort": None, "summary": None},
        "store": False,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": usage,
        "user": None,
        "metadata": {},
    }


class OpenAIResponsesPeer(Peer):
    path = "/v1/responses"

    def text_event(self, text: str) -> bytes:
        return self._event(
            {"type": "response.created", "response": _response("in_progress", [], None)}, 0
        )

    @staticmethod
    def _event(data: dict[str, Any], sequence: int) -> bytes:
        return sse({**data, "sequence_number": sequence}, event=data["type"])

    def stream(self, reply: Reply, request: dict[str, Any]) -> Iterator[bytes]:
        counter = itertools.count()
        for data in self._events(reply):
            yield self._event(data, next(counter))

    def _events(self, reply: Reply) -> Iterator[dict[str, Any]]:
        yield {"type": "response.created", "response": _response("in_progress", [], None)}
        yield {"type": "response.in_progress", "response": _response("in_progress", [], None)}
        output: list[dict[str, Any]] = []
        if reply.text:
            index, item_id = len(output), "msg_0"
            item = {
                "id": item_id,
                "type": "message",
                "status": "in_progress",
                "role": "assistant",
                "content": [],
            }
            yield {"type": "response.output_item.added", "output_index": index, "item": item}
            part = {"type": "output_text", "text": "", "annotations": []}
            at = {"item_id": item_id, "output_index": index, "content_index": 0}
            yield {"type": "response.content_part.added", **at, "part": part}
            for piece in pieces(reply.text, reply.text_chunks):
                yield {"type": "response.output_text.delta", **at, "delta": piece, "logprobs": []}
            yield {"type": "response.output_text.done", **at, "text": reply.text, "logprobs": []}
            done_part = {**part, "text": reply.text}
            yield {"type": "response.content_part.done", **at, "part": done_part}
            item = {**item, "status": "completed", "content": [done_part]}
            yield {"type": "response.output_item.done", "output_index": index, "item": item}
            output.append(item)
        for number, call in enumerate(reply.calls):
            index, item_id = len(output), f"fc_{number}"
            item = {
                "id": item_id,
                "type": "function_call",
                "call_id": self.call_id("call_", number, call),
                "name": call.name,
                "arguments": "",
                "status": "in_progress",
            }
            yield {"type": "response.output_item.added", "output_index": index, "item": item}
            for piece in pieces(call.arguments, call.chunks):
                yield {"type": "response.function_call_arguments.delta", "item_id": item_id, "output_index": index, "delta": piece}  # fmt: skip
            yield {"type": "response.function_call_arguments.done", "item_id": item_id, "output_index": index, "arguments": call.arguments}  # fmt: skip
            item = {**item, "arguments": call.arguments, "status": "completed"}
            yield {"type": "response.output_item.done", "output_index": index, "item": item}
            output.append(item)
        if reply.finish == "length":
            yield {
                "type": "response.incomplete",
                "response": _response("incomplete", output, reply),
            }
        else:
            yield {"type": "response.completed", "response": _response("completed", output, reply)}

    def tool_results(self, body: dict[str, Any]) -> dict[str, str]:
        # A tool result is an input item of type "function_call_output" with the call's call_id.
        items = body.get("input", [])
        return {
            i["call_id"]: i["output"]
            for i in items
            if isinstance(i, dict) and i.get("type") == "function_call_output"
        }

    def tool_calls(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        # An earlier call is an input item of type "function_call".
        return [
            (i["call_id"], i["name"])
            for i in body.get("input", [])
            if isinstance(i, dict) and i.get("type") == "function_call"
        ]

    def stream_error(self, failure: Failure) -> Iterator[bytes]:
        # An error after the stream opened is an "error" event (code, message, param).
        yield self._event(
            {"type": "response.created", "response": _response("in_progress", [], None)}, 0
        )
        error = openai_error_body(failure)["error"]
        data = {
            "type": "error",
            "code": error["code"] or error["type"],
            "message": error["message"],
            "param": None,
        }
        yield self._event(data, 1)

    def error_body(self, failure: Failure) -> dict[str, Any]:
        return openai_error_body(failure)
