"""The intent on the size of the words: bigger or smaller text or headings, at every width or one.

"Make the text bigger", "the headings are too big on phones", "smaller
headline on desktop", "make the phone number bigger and the rest smaller" (the
nodes showing the phone number or e-mail; "the rest": every other text and
heading). It changes font sizes, never the words (a text made "bigger" is not
made longer). Each breakpoint that sets a size is scaled; asked
for one width, the sizes of the wider ones stay what they were. A heading grows
on a phone only while its longest word still fits a card's width.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any, Final

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.facts import unaccounted
from charlotte.offline.intents.intent import CHANGE, FILLERS, Clause, Intent, Reading
from charlotte.offline.looks import HEADING_EM
from charlotte.offline.requests import FontSize
from charlotte.page.node_types import DEFAULT_BREAKPOINTS
from charlotte.sections.fact_changes import phone_runs
from charlotte.sections.page_view import PROP, PageView
from charlotte.sections.style import CARD_WIDTH, fits

__all__ = ["FONT_SIZE"]

#: Words asking for a size: comparatives, and verbs said of a size ("increase the font size").
_COMPARATIVES: Final = {"bigger": True, "larger": True, "smaller": False, "tinier": False}
_VERBS: Final = {"increase": True, "enlarge": True, "decrease": False, "reduce": False, "shrink": False}
#: "too small" asks for bigger, "too big" for smaller.
_TOO: Final = {"small": True, "tiny": True, "big": False, "large": False, "huge": False}
_SCOPES: Final = {
    "text": "text", "texts": "text", "words": "text", "writing": "text", "copy": "text",
    "paragraphs": "text", "body": "text",
    "font": "page", "fonts": "page", "type": "page", "lettering": "page", "letters": "page",
    "headings": "headings", "headlines": "headings", "titles": "headings",
    "headline": "headline", "heading": "headline", "title": "headline",
    "telephone": "phone", "number": "phone", "numbers": "phone", "email": "email", "e-mail": "email",
}  # fmt: skip
#: Words naming every other text and heading ("the rest smaller", "everything else").
_REST: Final = frozenset({"rest", "else", "other", "others"})
_WIDTHS: Final = {
    "phone": "base", "phones": "base", "mobile": "base", "mobiles": "base", "small": "base",
    "tablet": "md", "tablets": "md", "ipad": "md",
    "desktop": "lg", "desktops": "lg", "computer": "lg", "computers": "lg", "laptop": "lg",
    "laptops": "lg", "wide": "lg", "large": "lg", "big": "lg",
}  # fmt: skip
_ACCOUNTED: Final = (
    CHANGE | FILLERS | frozenset(_COMPARATIVES) | frozenset(_VERBS) | frozenset(_SCOPES) | frozenset(_WIDTHS) | frozenset(_TOO)
    | frozenset({"the", "a", "bit", "little", "lot", "much", "slightly", "more", "size", "sizes",
                 "of", "all", "on", "in", "is", "are", "too", "it", "page", "site", "hero", "screens",
                 "screen", "main", "everywhere", "our", "my", "its", "their", "they", "them", "touch",
                 "tad", "fraction", "notch", "even", "phone", "address", "rest", "else", "everything",
                 "other", "others"})
)  # fmt: skip
_FACTOR: Final = {True: 1.15, False: 0.87}
_MIN_PX: Final = 12
_NAMES: Final = {"text": "the text", "headings": "the headings", "headline": "the headline",
                 "page": "the text and headings", "phone": "the phone number",
                 "email": "the e-mail address"}  # fmt: skip
_AT: Final = {None: "at every width", "base": "on phones", "md": "on tablets", "lg": "on desktops"}


#: Who a size is for ("for older patients"): a reason, never a part of the page.
_AUDIENCE: Final = frozenset(
    {"patients", "people", "readers", "customers", "clients", "visitors", "users", "everyone",
     "eyes", "guests", "parents", "grandparents", "pensioners", "folk", "folks"}
)  # fmt: skip


def _purpose_at(words: list[str]) -> int:
    """Where "for older patients" starts at the end of ``words`` (a reason, no place), else len."""
    if not words or words[-1] not in _AUDIENCE or "for" not in words:
        return len(words)
    at = len(words) - 1 - words[::-1].index("for")
    return at if len(words) - at <= 4 else len(words)


def _asks(words: list[str]) -> list[bool]:
    """The ways ``words`` ask a size to go (True: bigger), in order."""
    asks = [_COMPARATIVES[w] for w in words if w in _COMPARATIVES]
    asks += [_VERBS[w] for w in words if w in _VERBS]
    return asks + [_TOO[b] for a, b in pairwise(words) if a == "too" and b in _TOO]


def _scopes(words: list[str]) -> set[str]:
    """The words' scopes; "phone" only before "number" ("on phones" is a width)."""
    found = {_SCOPES[w] for w in words if w in _SCOPES}
    return found | {"phone" for a, b in pairwise(words) if a == "phone" and b in ("number", "numbers")}


def _parts(words: list[str]) -> list[list[str]]:
    """``words`` cut at each "and" with a size asked on both sides ("X bigger and Y smaller")."""
    parts: list[list[str]] = []
    start = 0
    for i, word in enumerate(words):
        if word == "and" and _asks(words[start:i]) and _asks(words[i + 1 :]):
            parts.append(words[start:i])
            start = i + 1
    return [*parts, words[start:]]


def _read(clause: Clause) -> Reading | None:
    words = clause.words_of(0, len(clause.lower))
    words = words[: _purpose_at(words)]
    if (not _scopes(words) and not _REST & set(words)) or not _asks(words):
        return None
    if any(f.kind in ("phone", "email") for f in clause.found):
        return None  # a number or address given: the contact intent's
    ons = [i for i, w in enumerate(words) if w == "on"]
    widths = {_WIDTHS[w] for i in ons for w in words[i + 1 : i + 4] if w in _WIDTHS}
    parts = [(_scopes(p), _asks(p), bool(_REST & set(p))) for p in _parts(words)]
    named = [scopes - {"page"} if len(scopes) > 1 else scopes for scopes, _a, _rest in parts]
    rests = [k for k, (_s, _a, rest) in enumerate(parts) if rest]
    # Above the contact intent's "no new phone number": a size asked of it is no new value.
    score = 75 if _scopes(words) & {"phone", "email"} else 65
    if (len(widths) > 1 or any(len(set(asks)) != 1 for _s, asks, _r in parts)
            or any(len(n) != 1 for k, n in enumerate(named) if k not in rests or n)
            or (rests and (len(parts) != 2 or len(rests) != 1))):  # fmt: skip
        return Reading(score, (), why="I could not tell which words to resize, which way, or at which width")
    left = unaccounted(words, _ACCOUNTED)
    if left:
        return Reading(score, (), why=f'I did not understand "{" ".join(left)}"')
    width = widths.pop() if widths else None
    requests = []
    for k, (_s, asks, _r) in enumerate(parts):
        scope = next(iter(named[k])) if named[k] else "page"
        # "The rest (of the text)": that scope but what the other part named.
        besides = next(iter(named[1 - k])) if k in rests else None
        requests.append(FontSize(scope, asks[0], width, besides))
    return Reading(score, tuple(requests))


def _shows(node: Mapping[str, Any], scope: str) -> bool:
    """Whether ``node`` shows the page's phone number (``scope`` "phone") or e-mail address."""
    props = node.get("props")
    props = props if isinstance(props, dict) else {}
    href = props.get("href")
    if isinstance(href, str) and href.startswith("tel:" if scope == "phone" else "mailto:"):
        return True
    words = props.get(PROP.get(str(node.get("type")), "content"))
    if not isinstance(words, str):
        return False
    return bool(phone_runs(words)) if scope == "phone" else any("@" in w for w in words.split())


def _targets(page: PageView, scope: str) -> list[Mapping[str, Any]]:
    """The nodes whose size ``scope`` names (the headline: the hero's first heading)."""
    if scope == "headline":
        hero = page.hero()
        inside = page.inside(hero) if hero is not None else []
        return [n for n in inside if n.get("type") == "heading"][:1]
    if scope in ("phone", "email"):
        return [n for n in page.nodes if _shows(n, scope)]
    kinds = {"text": ("text",), "headings": ("heading",), "page": ("text", "heading")}[scope]
    return [n for n in page.nodes if n.get("type") in kinds]


def _px(values: object) -> float | None:
    size = values.get("fontSize") if isinstance(values, dict) else None
    if isinstance(size, dict) and size.get("unit") == "px" and isinstance(size.get("value"), int | float):
        return float(size["value"])
    return None


def _node_ops(node: Mapping[str, Any], request: FontSize, words: str) -> list[dict[str, Any]]:
    """``set_style`` ops scaling the node's font size at the widths asked for."""
    raw, props = node.get("style"), node.get("props")
    style: Mapping[str, Any] = raw if isinstance(raw, dict) else {}
    level = props.get("level") if isinstance(props, dict) else None
    em = HEADING_EM.get(level, 1.0) if node.get("type") == "heading" and isinstance(level, int) else 1.0
    sizes: dict[str, float] = {}
    now: float | None = None
    for bp in DEFAULT_BREAKPOINTS:
        now = _px(style.get(bp)) or now
        if now is not None:
            sizes[bp] = now  # the size each width shows (a width without its own: the narrower's)
    targets = [bp for bp in DEFAULT_BREAKPOINTS if bp in sizes and (
        request.breakpoint == bp if request.breakpoint else _px(style.get(bp)) is not None)]  # fmt: skip
    ops: list[dict[str, Any]] = []
    for bp in targets:
        new = round(sizes[bp] * _FACTOR[request.bigger], 2)
        if new < _MIN_PX or (bp == "base" and request.bigger and not fits(words, CARD_WIDTH, new * em)):
            continue
        ops.append({"t": "set_style", "id": node["id"], "breakpoint": bp,
                    "patch": {"fontSize": {"value": new, "unit": "px"}}})  # fmt: skip
        wider = DEFAULT_BREAKPOINTS[DEFAULT_BREAKPOINTS.index(bp) + 1 :]
        if request.breakpoint and wider and _px(style.get(wider[0])) is None:
            # Only this width: the next wider one keeps the size it showed.
            ops.append({"t": "set_style", "id": node["id"], "breakpoint": wider[0],
                        "patch": {"fontSize": {"value": sizes[bp], "unit": "px"}}})  # fmt: skip
    return ops


def _plan(request: FontSize, page: PageView, _context: Context) -> Edit | Refusal:
    ops: list[dict[str, Any]] = []
    left_out = {n["id"] for n in _targets(page, request.besides)} if request.besides else set()
    for node in _targets(page, request.scope):
        if node["id"] not in left_out:
            ops += _node_ops(node, request, page.words(node))
    what, where = _NAMES[request.scope], _AT[request.breakpoint]
    if request.besides:
        what = "the rest of the text and headings"
    size = "bigger" if request.bigger else "smaller"
    if not ops:
        return Refusal(f"{what} cannot get any {size} {where} (a phone's width, or 12 px, is the limit)")
    if len(ops) > 200:
        return Refusal(f"the page has too many words to resize {what} in one change")
    return Edit(tuple(ops), f"made {what} {size} {where}")


FONT_SIZE: Final = Intent(
    "make text or headings bigger or smaller",
    _read,
    (FontSize,),
    _plan,
    "make the text, the headings or the phone number bigger or smaller, at every width or on phones, "
    "tablets or desktops",
)
