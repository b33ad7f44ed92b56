"""A follow-up turn of the offline builder: the person's requests carried out on the current draft.

A turn is a follow-up when the draft already has sections and the person's
message asks for changes (or for nothing the first build would do). Like the
rest of the builder it keeps no state: each step replays the turn's tool
results to see which requests are done. Steps::

    cms_facts → cms_types → cms_outline (the builder's usual start)
    → per request: cms_get (the page as it is now) → cms_apply
    → cms_check → cms_ready (only when a change was made and the checks pass)
    → a reply saying what changed, and what could not be done and why

A request the page or the facts cannot support is not applied; the reply says
why. On ``stale_revision`` the page is read again and the request retried
(``MAX_STALE`` times in a turn); any other refusal of the tools is reported.
A message with nothing the builder can do changes nothing and ends, without
``cms_ready``, with a reply of one line per request: what it did not
understand, and a short pointer to what it can do and to the editor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from charlotte.errors import MESSAGES
from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents import edit_for, read_requests
from charlotte.offline.requests import Request, Unsupported, is_build_request
from charlotte.sections.page_view import PageView

__all__ = ["BY_HAND", "CAPABILITIES", "Exchange", "Step", "follow_up_step", "is_follow_up"]

#: ``stale_revision`` answers before a request is given up.
MAX_STALE: Final = 3
#: Failed reads of the page before the turn gives up.
MAX_READS: Final = 2

#: The one short pointer a reply gives when a request was none it knows (never the whole list).
CAPABILITIES: Final = (
    "I can change words, sections, the phone number, e-mail, address or prices, and the look; "
    "anything else you can change by hand: select it in the preview."
)
#: The pointer when each request not done was one it knows (its line says what it can do).
BY_HAND: Final = "You can change it by hand: select it in the preview."


class Exchange(Protocol):
    """One tool call of the turn and its result, as the model reads it."""

    @property
    def name(self) -> str: ...
    @property
    def args(self) -> dict[str, Any]: ...
    @property
    def result(self) -> dict[str, Any] | None: ...
    @property
    def ok(self) -> bool: ...
    @property
    def code(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Step:
    """The next step: a tool call (``name``), or the final text (``name`` None)."""

    name: str | None
    args: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def _has_sections(outline: Mapping[str, Any]) -> bool:
    text = outline.get("outline")
    return isinstance(text, str) and any(line and line[0] != " " for line in text.splitlines())


def is_follow_up(prompt: str, outline: Mapping[str, Any]) -> bool:
    """A follow-up: the draft has sections, and the message is not a request to build the page."""
    if not _has_sections(outline):
        return False
    requests = read_requests(prompt)
    asks = any(not isinstance(r, Unsupported) for r in requests)
    return asks or not is_build_request(prompt)


@dataclass(slots=True)
class _Progress:
    done: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # one per request, in order
    unknown: bool = False  # a request that is none the builder knows

    def did(self, said: str) -> None:
        self.done.append(said)
        self.lines.append(f"Done: {said}{'' if said.endswith('.') else '.'}")

    def not_did(self, reason: str) -> None:
        self.lines.append("Not done: " + _sentence(reason))


def _nodes(result: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    page = result.get("page") if result else None
    nodes = page.get("nodes") if isinstance(page, dict) else None
    return [n for n in nodes if isinstance(n, dict)] if isinstance(nodes, list) else []


def follow_up_step(
    prompt: str, exchanges: Sequence[Exchange], context: Context, revision: int, worn_out: bool
) -> Step:
    """The next step of a follow-up turn; ``exchanges`` are the tool calls after the first outline.

    ``revision`` is the latest tool result's (every ``cms_apply`` is based on it);
    ``worn_out``: the turn has failed too often to read the page again.
    """
    requests: list[Request] = read_requests(prompt)
    progress = _Progress()
    page: PageView | None = None
    k, i, stale, reads = 0, 0, 0, 0
    while i < len(requests):
        request = requests[i]
        if isinstance(request, Unsupported):
            progress.unknown = progress.unknown or not request.why
            progress.not_did(request.why or f'I can\'t do "{request.words}" offline')
            i += 1
            continue
        if page is None:
            if k < len(exchanges) and exchanges[k].name == "cms_get":
                exchange, k = exchanges[k], k + 1
                if exchange.ok:
                    page = PageView(_nodes(exchange.result))
                else:
                    reads += 1
                if reads >= MAX_READS:
                    progress.not_did(
                        "the page could not be read, so nothing more was changed"
                    )
                    break
                continue
            if worn_out:
                break
            return Step("cms_get")
        edit = edit_for(request, page, context)
        if isinstance(edit, Refusal):
            progress.not_did(edit.reason)
            i += 1
            continue
        if k >= len(exchanges):
            return Step("cms_apply", {"basedOn": revision, "ops": list(edit.ops)})
        exchange, k = exchanges[k], k + 1
        i, page = _outcome(exchange, edit, progress, i, page)
        if exchange.code == "stale_revision":
            stale += 1
            if stale >= MAX_STALE:
                progress.not_did(
                    f"{_noun(edit)} was not done: the page kept changing under me"
                )
                i += 1
    return _finish(exchanges[k:], progress)


def _noun(edit: Edit) -> str:
    return edit.said.split(": ")[0]


def _outcome(
    exchange: Exchange, edit: Edit, progress: _Progress, i: int, page: PageView | None
) -> tuple[int, PageView | None]:
    """(the next request's index, the page view still current) after one ``cms_apply``."""
    if exchange.ok:
        progress.did(edit.said)
        return i + 1, None
    if exchange.code == "stale_revision":
        return i, None  # read the page again and retry
    code = str(exchange.code)
    why = MESSAGES.get(code, "").rstrip(".")
    said = _noun(edit)
    progress.not_did(
        f"the page refused this change ({code}{': ' + why[:1].lower() + why[1:] if why else ''}); "
        f"it would have {said[:1].lower() + said[1:]}"
    )
    return i + 1, page


def _finish(after: Sequence[Exchange], progress: _Progress) -> Step:
    if not progress.done:
        return Step(None, text=_reply(progress, ready=None))
    checks = [e for e in after if e.name == "cms_check"]
    if not checks:
        return Step("cms_check")
    checked = checks[-1]
    errors = [
        f
        for f in (checked.result or {}).get("findings", [])
        if isinstance(f, dict) and f.get("severity") == "error"
    ]
    if not checked.ok or errors:
        codes = sorted({str(f.get("code")) for f in errors}) or [str(checked.code)]
        return Step(None, text=_reply(progress, ready=False, codes=codes))
    ready = [e for e in after if e.name == "cms_ready"]
    if not ready:
        summary = "; ".join(progress.done)
        return Step("cms_ready", {"summary": (summary[:1].upper() + summary[1:] + ".")[:500]})
    codes = [] if ready[-1].ok else [str(ready[-1].code)]
    return Step(None, text=_reply(progress, ready=ready[-1].ok, codes=codes))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _reply(progress: _Progress, *, ready: bool | None, codes: Sequence[str] = ()) -> str:
    parts = list(progress.lines)
    if not progress.done:
        parts.append("The page is unchanged.")
    if len(progress.lines) > len(progress.done):
        parts.append(CAPABILITIES if progress.unknown else BY_HAND)
    if ready is True:
        parts.append("The page is ready for review.")
    elif ready is False:
        parts.append(f"The page is not marked ready: the checks report {', '.join(codes)}.")
    return "\n".join(parts)
