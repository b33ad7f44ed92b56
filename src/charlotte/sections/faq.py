"""The questions an FAQ band asks, and the answers, from the host's facts only.

``questions_of(ctx)``: the host's own questions first (a ``faq`` fact:
question → answer, or a list of ``{question, answer}``), then the questions
the facts answer — when the business is open, where it is, what it offers,
what it costs, how to get in touch — each answer in the facts' words.
"""

from __future__ import annotations

from collections.abc import Mapping

from charlotte.sections.catalogue import KIND_BY_KEY
from charlotte.sections.context import Context
from charlotte.sections.facts import (
    capitalised,
    contact_items,
    fact,
    fact_items,
    listed,
    priced,
    scalar,
)
from charlotte.sections.style import CARD_WIDTH, fits

__all__ = ["questions_of"]


def questions_of(ctx: Context) -> list[tuple[str, str]]:
    """(question, answer) pairs: the host's own, then those the facts answer."""
    pairs = _asked(ctx)
    asked = {q for q, _a in pairs}
    return pairs + [pair for pair in _answerable(ctx) if pair[0] not in asked]


def _asked(ctx: Context) -> list[tuple[str, str]]:
    """The host's own questions and answers (``faq``: question → answer, or a list of pairs)."""
    value = fact(ctx.facts, KIND_BY_KEY["faq"].facts)
    pairs: list[tuple[str, str]] = []
    if isinstance(value, Mapping):
        pairs = [(str(q), a) for q, v in value.items() if (a := scalar(v))]
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping):
                q = scalar(fact(item, ("question", "q")))
                a = scalar(fact(item, ("answer", "a")))
                if q and a:
                    pairs.append((q, a))
    return pairs


def _uncapitalised(item: str) -> str:
    return item if item[1:2].isupper() else item[:1].lower() + item[1:]


def _answerable(ctx: Context) -> list[tuple[str, str]]:
    """Questions the facts answer, each answer the facts' words."""
    out: list[tuple[str, str]] = []
    contacts = {label: words for label, words, _href in contact_items(ctx.facts)}
    hours = fact_items(fact(ctx.facts, KIND_BY_KEY["hours"].facts))
    if hours:
        out.append(
            (
                "When are you open?",
                "; ".join(f"{t}: {d}" if t and d else (t or d or "") for t, d in hours) + ".",
            )
        )
    if "address" in contacts:
        out.append(("Where are you?", contacts["address"]))
    offered = [t for t, _d in fact_items(fact(ctx.facts, KIND_BY_KEY["services"].facts)) if t]
    # The brief's offerings were capitalised as titles: in a sentence they read as written.
    offered = offered or [_uncapitalised(i) if n else i for n, i in enumerate(ctx.offerings.items)]
    if offered:
        out.append(("What do you offer?", listed(offered) + "."))
    prices = fact_items(fact(ctx.facts, KIND_BY_KEY["pricing"].facts))
    if prices and priced(prices):
        out.append(
            (
                "What does it cost?",
                "; ".join(f"{t}: {d}" if t and d else (t or d or "") for t, d in prices) + ".",
            )
        )
    reach = [f"call {contacts['phone']}"] if "phone" in contacts else []
    if "email" in contacts and fits(contacts["email"], CARD_WIDTH, 17):
        reach.append(f"write to {contacts['email']}")
    if reach:
        out.append(("How can I get in touch?", capitalised(" or ".join(reach)) + "."))
    return out
