"""The expectation vocabulary: predicates on a draft, never string equality with a stored page.

A predicate is a one-key JSON object. Each is judged on a ``Turn``: the draft
after the turn, the draft before it, the agent's reply and whether it said the
page is ready. Sections are named by *kind* (``faq``, ``pricing``, ``hero``…):
a top-level section is of a kind when its id (or ``name``/``className``)
holds one of the kind's words, else when its first heading does, so the
vocabulary reads a page built by any model, not only the offline builder's
ids. See ``docs/eval.md`` for the table.

>>> doc = {"nodes": {"faq": {"id": "faq", "type": "section", "parent": None, "order": "a",
...                          "props": {}, "style": {}}}}
>>> judge({"section": "faq"}, Turn(doc, doc)).passed
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.checks.claims import Found, claims_in
from charlotte.checks.contacts import Phone
from charlotte.checks.copytext import copy_of
from charlotte.evaluation.colours import Colours, hue_name, is_serif
from charlotte.evaluation.lines import rows, unmarked
from charlotte.page.model import node_map
from charlotte.page.tree import children_of, descendants_of

__all__ = ["KIND_WORDS", "PREDICATES", "Outcome", "Turn", "judge", "problem_of", "sections_of"]

#: Section kind → the words (id tokens or heading words) that name it.
KIND_WORDS: Final[Mapping[str, tuple[str, ...]]] = {
    "hero": ("hero", "banner", "masthead"),
    "faq": ("faq", "faqs", "questions"),
    "pricing": ("pricing", "prices", "price", "plans", "rates", "fees"),
    "services": ("services", "service", "treatments", "repairs", "what-we-do"),
    "menu": ("menu",),
    "about": ("about", "story"),
    "team": ("team", "staff", "meet"),
    "testimonials": ("testimonials", "reviews", "what-people-say"),
    "hours": ("hours", "opening"),
    "contact": ("contact",),
    "location": ("location", "find-us", "directions"),
    "gallery": ("gallery", "portfolio"),
    "offer": ("what-we-offer", "offer"),
    "call-to-action": ("call-to-action", "cta"),
}

_WORD: Final = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Turn:
    """What a predicate may read: the draft after and before the turn, the reply, readiness."""

    doc: Mapping[str, Any]
    before: Mapping[str, Any]
    reply: str = ""
    ready: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """A predicate's verdict and a short reason (what was found)."""

    passed: bool
    detail: str


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _named(tokens: Sequence[str], words: Sequence[str]) -> bool:
    joined = "-" + "-".join(tokens) + "-"
    return any(f"-{w}-" in joined for w in words)


def _props(node: Mapping[str, Any]) -> Mapping[str, Any]:
    props = node.get("props")
    return props if isinstance(props, dict) else {}


def _heading_words(doc: Mapping[str, Any], section_id: str) -> list[str]:
    nodes = node_map(doc)
    for node_id in descendants_of(doc, section_id):
        node = nodes.get(node_id)
        if isinstance(node, dict) and node.get("type") == "heading":
            return _tokens(str(_props(node).get("content", "")))
    return []


def sections_of(doc: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """The top-level sections in page order: (node id, kind or None)."""
    out: list[tuple[str, str | None]] = []
    for node in children_of(doc, None):
        node_id = str(node.get("id", ""))
        own = _tokens(
            " ".join([node_id, str(_props(node).get("name", "")), str(node.get("className", ""))])
        )
        kind = next((k for k, w in KIND_WORDS.items() if _named(own, w)), None)
        if kind is None:
            heading = _heading_words(doc, node_id)
            kind = next((k for k, w in KIND_WORDS.items() if heading and _named(heading, w)), None)
        out.append((node_id, kind))
    return out


def _section_ids(doc: Mapping[str, Any], name: str) -> list[str]:
    """The sections called ``name``: by kind, else by exact id."""
    found = [i for i, kind in sections_of(doc) if kind == name]
    return found or [i for i, _ in sections_of(doc) if i == name]


def _nodes_within(doc: Mapping[str, Any], spec: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(node id, words) of the nodes ``spec`` picks: ``within`` a section, of ``type``."""
    nodes = node_map(doc)
    allowed: set[str] | None = None
    within = spec.get("within")
    if isinstance(within, str):
        allowed = set()
        for sid in _section_ids(doc, within):
            allowed.update([sid, *descendants_of(doc, sid)])
    wanted = spec.get("type")
    out = []
    for node_id, words in copy_of(doc):
        node = nodes.get(node_id)
        if allowed is not None and node_id not in allowed:
            continue
        if isinstance(wanted, str) and not (isinstance(node, dict) and node.get("type") == wanted):
            continue
        out.append((node_id, words))
    return out


def _count_nodes(doc: Mapping[str, Any], spec: Mapping[str, Any]) -> int:
    nodes = node_map(doc)
    ids: list[str] = list(nodes)
    within = spec.get("within")
    if isinstance(within, str):
        ids = [d for sid in _section_ids(doc, within) for d in descendants_of(doc, sid)]
    wanted = spec.get("type")
    return sum(
        1
        for i in ids
        if isinstance(nodes.get(i), dict) and (wanted is None or nodes[i].get("type") == wanted)
    )


def _word_count(pairs: Sequence[tuple[str, str]]) -> int:
    return sum(len(words.split()) for _, words in pairs)


# -- the predicates ------------------------------------------------------------------------


def _section(arg: Any, turn: Turn) -> Outcome:
    found = _section_ids(turn.doc, arg)
    return Outcome(bool(found), f"{arg}: {', '.join(found) or 'absent'}")


def _no_section(arg: Any, turn: Turn) -> Outcome:
    found = _section_ids(turn.doc, arg)
    return Outcome(not found, f"{arg}: {', '.join(found) or 'absent'}")


def _text_contains(arg: Any, turn: Turn) -> Outcome:
    words = [w.lower() for w in arg["words"]]
    said = _nodes_within(turn.doc, arg)
    if not isinstance(arg.get("type"), str):
        said += rows(turn.doc, said)
    for node_id, text in said:
        lowered = text.lower()
        if all(w in lowered for w in words):
            return Outcome(True, f"in {node_id}")
    return Outcome(False, f"no node says {' '.join(arg['words'])!r}")


def _text_absent(arg: Any, turn: Turn) -> Outcome:
    words = [w.lower() for w in arg["words"]]
    for node_id, text in _nodes_within(turn.doc, arg):
        if any(w in text.lower() for w in words):
            return Outcome(False, f"still in {node_id}")
    return Outcome(True, "absent")


def _order(arg: Any, turn: Turn) -> Outcome:
    kinds = [k for _, k in sections_of(turn.doc)]
    ids = [i for i, _ in sections_of(turn.doc)]
    places = []
    for name in arg:
        place = kinds.index(name) if name in kinds else ids.index(name) if name in ids else None
        if place is None:
            return Outcome(False, f"{name} absent")
        places.append(place)
    return Outcome(places == sorted(places) and len(set(places)) == len(places), f"at {places}")


def _count(arg: Any, turn: Turn) -> Outcome:
    n = _count_nodes(turn.doc, arg)
    low, high = arg.get("min", 0), arg.get("max")
    return Outcome(n >= low and (high is None or n <= high), f"{n} found")


def _max_words(arg: Any, turn: Turn) -> Outcome:
    pairs = _nodes_within(turn.doc, arg)
    longest = max((len(words.split()) for _, words in pairs), default=None)
    if longest is None:
        return Outcome(False, "no such node")
    return Outcome(longest <= arg["n"], f"{longest} words")


def _shorter(arg: Any, turn: Turn) -> Outcome:
    now, then = (
        _word_count(_nodes_within(turn.doc, arg)),
        _word_count(_nodes_within(turn.before, arg)),
    )
    return Outcome(0 < now < then, f"{then} → {now} words")


def _longer(arg: Any, turn: Turn) -> Outcome:
    now, then = (
        _word_count(_nodes_within(turn.doc, arg)),
        _word_count(_nodes_within(turn.before, arg)),
    )
    return Outcome(now > then, f"{then} → {now} words")


def _same_claim(a: Found, b: Found) -> bool:
    if a.kind != b.kind:
        return False
    if isinstance(a.key, Phone) and isinstance(b.key, Phone):
        return a.key.matches(b.key)  # "0113 496 0123" is "+44 113 496 0123"
    return a.value == b.value


def _texts(doc: Mapping[str, Any]) -> list[str]:
    """Every node's words, and every container's: its descendants' words in reading order.

    A fact may be split over a row's cells ("Tue-Sun" | "7:00-14:00"); the row
    says it whole. Each text is added to its ancestors' (at most 64 levels up).
    """
    nodes = node_map(doc)
    joined: dict[str, list[str]] = {}
    out: list[str] = []
    for node_id, words in copy_of(doc):
        out.append(words)
        node = nodes.get(node_id)
        for _ in range(64):
            parent = node.get("parent") if isinstance(node, dict) else None
            if not isinstance(parent, str) or parent not in nodes:
                break
            joined.setdefault(parent, []).append(words)
            node = nodes[parent]
    return out + [" ".join(parts) for parts in joined.values()]


def fact_shown(doc: Mapping[str, Any], value: str) -> bool:
    """True when the page states ``value``: its words as written, or each claim they make.

    A claim (a phone, a price, hours) counts in any spelling the facts check
    reads as the same: "0113 496 0123" is "+44 113 496 0123". A node's words
    count, and a container's (a row whose cells say the fact together), quote
    marks and free-standing dashes aside when the value has them (a quote and who
    said it, shown apart); a list
    fact ("Cuts; Colour; Blow-dries", items split at ``;``, ``, ``, `` · ``, `` | ``
    and new lines, bullets aside) counts when every item is shown.
    """
    texts = [" ".join(text.lower().split()) for text in _texts(doc)]
    squeezed = " ".join(value.lower().split())
    if any(squeezed in text for text in texts):
        return True
    # A list fact's items may stand on lines of their own, bullets aside.
    listed = ";".join(" ".join(line.split()).lstrip("•*·- ") for line in value.lower().splitlines())
    if unmarked(squeezed) != squeezed:
        # Quotes shown in their own marks, who said them apart ("“Spotless” / Nadia" for
        # '"Spotless" - Nadia'): read both without quote marks and free-standing dashes.
        texts = [unmarked(text) for text in texts]
        squeezed, listed = unmarked(squeezed), unmarked(listed)
        if squeezed and any(squeezed in text for text in texts):
            return True
    for separator in (", ", " · ", " | "):
        listed = listed.replace(separator, ";")
    parts = [p for p in (" ".join(part.split()) for part in listed.split(";")) if p]
    if len(parts) > 1 and all(any(p in text for text in texts) for p in parts):
        return True  # a list fact ("Cuts; Colour"), shown item by item
    wanted = [f for f in claims_in(value) if f.kind != "number"]
    said = [f for text in texts for f in claims_in(text)] if wanted else []
    return bool(wanted) and all(any(_same_claim(w, s) for s in said) for w in wanted)


def _fact(arg: Any, turn: Turn) -> Outcome:
    missing = [key for key, value in arg.items() if not fact_shown(turn.doc, value)]
    return Outcome(not missing, f"missing {', '.join(missing)}" if missing else "shown")


def _same(doc: Mapping[str, Any], before: Mapping[str, Any]) -> bool:
    return all(doc.get(k) == before.get(k) for k in ("nodes", "meta", "theme"))


def _unchanged(arg: Any, turn: Turn) -> Outcome:
    same = _same(turn.doc, turn.before)
    return Outcome(same == bool(arg), "unchanged" if same else "changed")


def _ready(arg: Any, turn: Turn) -> Outcome:
    return Outcome(turn.ready == bool(arg), "ready" if turn.ready else "not ready")


def _reply_mentions(arg: Any, turn: Turn) -> Outcome:
    lowered = turn.reply.lower()
    hit = next((w for w in arg if w.lower() in lowered), None)
    return Outcome(hit is not None, f"says {hit!r}" if hit else "says none of them")


def _theme(arg: Any, turn: Turn) -> Outcome:
    now = Colours.of(turn.doc)
    results: list[tuple[bool, str]] = []
    if "dark" in arg:
        results.append((now.dark() == arg["dark"], f"luminance {now.luminance():.2f}"))
    if "warmer" in arg:
        then = Colours.of(turn.before)
        warmer = now.warmth() > then.warmth() + 0.02
        results.append(
            (warmer == arg["warmer"], f"warmth {then.warmth():.2f} → {now.warmth():.2f}")
        )
    if "serif" in arg:
        results.append(
            (is_serif(turn.doc) == arg["serif"], "serif" if is_serif(turn.doc) else "sans")
        )
    if "minimal" in arg:
        results.append((now.minimal() == arg["minimal"], f"{now.distinct()} backgrounds"))
    if "hue" in arg:
        within = _section_ids(turn.doc, arg.get("within", "hero"))
        hues = [hue_name(c) for c in Colours.of(turn.doc, within).sections]
        results.append((arg["hue"] in hues, f"hues {sorted({h for h in hues if h})}"))
    return Outcome(all(ok for ok, _ in results), "; ".join(d for _, d in results))


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) and v for v in value)


def _picks(value: Any, need: Sequence[str] = ()) -> str | None:
    if not isinstance(value, dict):
        return "must be an object"
    unknown = set(value) - {"within", "type", "words", "n", "min", "max"}
    if unknown:
        return f"unknown field {sorted(unknown)[0]!r}"
    for key in ("within", "type"):
        if key in value and not isinstance(value[key], str):
            return f"{key} must be a string"
    if "words" in need and not _str_list(value.get("words")):
        return "words must be a non-empty list of strings"
    for key in ("n", "min", "max"):
        if (key in need or key in value) and not (type(value.get(key)) is int and value[key] >= 0):
            return f"{key} must be a whole number ≥ 0"
    return None


_THEME_KEYS: Final = {"dark", "warmer", "serif", "minimal", "hue", "within"}
_HUES: Final = {"red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"}


def _theme_problem(value: Any) -> str | None:
    if not isinstance(value, dict) or not value or set(value) - _THEME_KEYS:
        return f"must be an object of {', '.join(sorted(_THEME_KEYS))}"
    for key in ("dark", "warmer", "serif", "minimal"):
        if key in value and not isinstance(value[key], bool):
            return f"{key} must be true or false"
    if "hue" in value and value["hue"] not in _HUES:
        return f"hue must be one of {', '.join(sorted(_HUES))}"
    return None


def _name_problem(value: Any) -> str | None:
    return None if isinstance(value, str) and value else "must name a section kind or id"


_Check = Callable[[Any, Turn], Outcome]
_Problem = Callable[[Any], str | None]

#: Predicate name → (how its argument is checked, how it is judged).
PREDICATES: Final[Mapping[str, tuple[_Problem, _Check]]] = {
    "section": (_name_problem, _section),
    "no_section": (_name_problem, _no_section),
    "text_contains": (lambda v: _picks(v, ("words",)), _text_contains),
    "text_absent": (lambda v: _picks(v, ("words",)), _text_absent),
    "order": (lambda v: None if _str_list(v) and len(v) >= 2 else "must list 2+ sections", _order),
    "count": (lambda v: _picks(v, ("min",)), _count),
    "max_words": (lambda v: _picks(v, ("n",)), _max_words),
    "shorter": (_picks, _shorter),
    "longer": (_picks, _longer),
    "fact": (
        lambda v: (
            None
            if isinstance(v, dict) and v and all(isinstance(x, str) and x for x in v.values())
            else "must be an object of non-empty strings"
        ),
        _fact,
    ),
    "unchanged": (lambda v: None if isinstance(v, bool) else "must be true or false", _unchanged),
    "ready": (lambda v: None if isinstance(v, bool) else "must be true or false", _ready),
    "reply_mentions": (lambda v: None if _str_list(v) else "must list words", _reply_mentions),
    "theme": (_theme_problem, _theme),
}


def problem_of(predicate: object) -> str | None:
    """Why ``predicate`` is not one of the vocabulary's (one line), or None when it is."""
    if not isinstance(predicate, dict) or len(predicate) != 1:
        return "a predicate is an object with one key"
    ((name, argument),) = predicate.items()
    if name not in PREDICATES:
        return f"unknown predicate {str(name)[:40]!r}"
    problem = PREDICATES[name][0](argument)
    return f"{name} {problem}" if problem else None


def judge(predicate: Mapping[str, Any], turn: Turn) -> Outcome:
    """The verdict of one predicate (already checked by ``problem_of``) on ``turn``."""
    ((name, argument),) = predicate.items()
    return PREDICATES[name][1](argument, turn)
