"""Tool-call arguments the model sent as malformed JSON reach charlotte's tools, not the model library's retry.

A provider streams a tool call's arguments as JSON text. When that text is
not a JSON object, pydantic-ai would answer with its own parser's message
and count the call against its retry budget (one retry by default), so a
model that sent broken JSON twice ended the turn ``run_failed``. Here the
text is handed on as it came (``wrap_malformed``, which the tool calls'
capability ``tool_routing.ToolRouting`` applies, puts it under ``MALFORMED``;
``raw_arguments`` unwraps it in the tool): the page tools
answer ``invalid_arguments`` (``$.arguments``: expected an object) like any
other bad call, with charlotte's own words, and the model fixes its call.
"""

from __future__ import annotations

import json
from typing import Any, Final

__all__ = ["MALFORMED", "raw_arguments", "wrap_malformed"]

#: The one key of the arguments that stand for text that was not a JSON object (no tool argument has a ``$``).
MALFORMED: Final = "$malformed_arguments"


def _is_object(text: str) -> bool:
    if not text.strip():
        return True  # no arguments at all: the library reads that as {}
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def wrap_malformed(args: str | dict[str, Any]) -> str | dict[str, Any]:
    """Arguments that are not a JSON object as ``{MALFORMED: text}``; others as they are."""
    if isinstance(args, str) and not _is_object(args):
        return {MALFORMED: args}
    return args


def raw_arguments(arguments: dict[str, Any]) -> object:
    """The arguments as the model sent them: the malformed text itself, or the object."""
    if len(arguments) == 1 and isinstance(arguments.get(MALFORMED), str):
        return arguments[MALFORMED]
    return arguments
