"""Words made shorter or longer: a text's, a heading's ("make the about text longer").

``resize`` cuts a text at its first sentence or clause end (never inside a
number), or lengthens it by a sentence of the brief or the facts the page does
not show yet. Nothing is invented: a longer text says only what the brief or
the facts say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from charlotte.offline.edits import LIMITS, Context, Edit, Refusal, target_node
from charlotte.offline.requests import Resize
from charlotte.sections.brief import statements
from charlotte.sections.facts import contact_items, fact, fact_items, fact_key
from charlotte.sections.page_view import PROP, PageView
from charlotte.sections.writer import plan_page

__all__ = ["resize"]

_HOURS: Final = ("opening_hours", "hours", "opening_times")


def _shorter(words: str) -> str | None:
    """``words`` cut at its first sentence or clause end (never inside a number), or None."""
    for marks in (". ", ": ", " \u2013 ", " \u2014 ", " - ", ", ", "; "):
        at = words.find(marks)
        if at > 0 and len(words[:at].split()) >= 2:
            return words[:at].rstrip(" .,;:") + (
                "." if words.endswith(".") and marks == ". " else ""
            )
    tokens = words.split()
    if len(tokens) < 5:
        return None
    keep = (len(tokens) + 1) // 2
    while keep > 2 and (
        any(c.isdigit() for c in tokens[keep])
        or tokens[keep - 1].lower()
        in {"and", "or", "the", "of", "with", "a", "an", "to", "in", "for", "at"}
    ):
        keep -= 1
    return " ".join(tokens[:keep]).rstrip(",;:")


def _longer(words: str, kind: str, context: Context, page_words: str) -> str | None:
    plan = plan_page(context.brief, context.facts)
    if kind == "heading":
        name = plan.name
        if name and name not in words and len(words) + len(name) + 4 <= 80:
            return f"{words} at {name}"
        lead = plan.subheading.split(". ")[0].rstrip(".")
        if lead and lead not in words and len(words) + len(lead) + 2 <= 80:
            return f"{words}: {lead}"
        return None
    candidates = [*statements(context.brief), plan.subheading, *_fact_sentences(context.facts)]
    for seen in (page_words, words):
        for sentence in (c.strip() for c in candidates):
            if sentence and sentence not in seen:
                return f"{words.rstrip()} {sentence}"
    return None


def _fact_sentences(facts: object) -> list[str]:
    """Sentences stating the host's facts verbatim (opening hours, address, phone)."""
    table = {fact_key(str(k)): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    hours = "; ".join(
        f"{t}: {d}" if t and d else (t or d or "") for t, d in fact_items(fact(table, _HOURS))
    )
    out = [f"Open {hours}."] if hours else []
    said = {"address": "Find us at {}.", "phone": "Call {}.", "email": "Write to {}."}
    out += [said[label].format(words) for label, words, _href in contact_items(table)]
    return out


def resize(page: PageView, request: Resize, context: Context) -> Edit | Refusal:
    found = target_node(page, request.target)
    if isinstance(found, Refusal):
        return found
    node, name = found
    words, kind = page.words(node), str(node.get("type"))
    if request.longer:
        everything = " ".join(page.words(n) for n in page.nodes)
        new = _longer(words, kind, context, everything)
        if new is None or len(new) > LIMITS.get(kind, 300):
            return Refusal(f"the brief and the facts give nothing more to add to {name}")
    else:
        new = _shorter(words)
        if new is None:
            return Refusal(f'{name} ("{words}") is already short; cutting it would lose its sense')
    op = {"t": "set_node_props", "id": node["id"], "patch": {PROP[kind]: new}}
    return Edit((op,), f'made {name} {"longer" if request.longer else "shorter"}: "{new}"')
