"""The intent on a quote the person gives for the testimonials: "here's one: 'Bella came back looking like a show dog' - Tina".

The quote is the person's quoted words, verbatim; who said it is what follows
the closing quote after a dash or "from"/"by" ("- Helen, mum of Ava"), as
written, at most ``_MAX_BY`` words. A clause giving one reads as ``AddQuote``
when its other words say what it is ("here's a review:", "add this
testimonial:"); "here's one:" alone only right after a request adding a
testimonials section, which then carries it (``joined``): "add a section for
reviews. here's one: …" adds the section showing that quote. "Add a
testimonials section with this one: …" is read by the section intent with
``quote_after``. Nothing else is written: a testimonials section with no quote
the facts or the person give is still refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final

from charlotte.offline.clauses import folded
from charlotte.offline.edits import Context, Edit, Refusal, add
from charlotte.offline.intents.intent import FILLERS, Clause, Intent, Reading
from charlotte.offline.items import items_of, new_item
from charlotte.offline.requests import AddQuote, AddSection, Request, Unsupported
from charlotte.sections.page_view import PageView

__all__ = ["ADD_QUOTE", "joined", "plan_quotes", "quote_after"]

_NOUNS: Final = frozenset({"review", "testimonial", "quote", "comment"})
#: Words that may say what a quote is before it ("here's one:", "add this review too:").
_LEAD: Final = FILLERS | _NOUNS | frozenset(
    {"here's", "heres", "here", "is", "this", "one", "a", "another", "add", "include", "too", "new",
     "with", "of", "our", "my", "the", "reviews", "testimonials", "quotes", "from", "customer",
     "client", "lovely", "nice", "great"}
)  # fmt: skip
_DASHES: Final = ("-", "\u2013", "\u2014", "~")
_MAX_BY: Final = 8
_MAX_QUOTE: Final = 600


def _marker(text: str) -> tuple[int, int, int] | None:
    """(start, end, run number) of the clause's one quoted run, or None (none, or two)."""
    start = text.find("\x00")
    end = text.find("\x00", start + 1) + 1 if start >= 0 else 0
    if start < 0 or end <= 0 or "\x00" in text[end:] or not text[start + 1 : end - 1].isdigit():
        return None
    return start, end, int(text[start + 1 : end - 1])


def _by(after: str) -> str | None:
    """Who said the quote, from the words after it ("- Helen, mum of Ava"); "" for none; None: not a name."""
    rest = after.strip().rstrip(".!")
    if not rest:
        return ""
    lead = next((d for d in _DASHES if rest.startswith(d)), None)
    if lead is None:
        words = rest.split(maxsplit=1)
        if len(words) < 2 or folded(words[0]) not in ("from", "by"):
            return None
        rest = words[1]
    else:
        rest = rest[len(lead) :]
    rest = rest.strip(" ,")
    words = rest.split()
    if not words or len(words) > _MAX_BY or not words[0][:1].isupper() or any(c.isdigit() for c in rest):
        return None
    return rest


#: What may open the words giving a quote inside a clause adding a section.
_GIVING: Final = (" with ", ", here's ", ", here is ", ", heres ", " - here's ", ": ")


def quote_after(clause: Clause) -> tuple[int, str, str] | None:
    """(where the words giving it start in ``clause.lower``, the quote, who said it) when the
    clause ends "with this one: '<quote>' [- who]" (or ", here's one: …"), else None."""
    found = _marker(clause.text)
    if found is None:
        return None
    start, end, run = found
    by = _by(clause.text[end:])
    quote = clause.runs[run].strip() if run < len(clause.runs) else ""
    ats = [at for lead in _GIVING if (at := clause.lower.find(lead, clause.at, start)) >= 0]
    at = min(ats, default=-1)
    if by is None or not quote or len(quote) > _MAX_QUOTE or at < 0:
        return None
    said = clause.words_of(at, start)
    if not said or any(w not in _LEAD for w in said):
        return None
    return at, quote, by


def _read(clause: Clause) -> Reading | None:
    found = _marker(clause.text)
    if found is None:
        return None
    start, end, run = found
    said = clause.words_of(0, start)
    by = _by(clause.text[end:])
    quote = clause.runs[run].strip() if run < len(clause.runs) else ""
    named = bool(_NOUNS & {w.removesuffix("s") for w in said})
    if not said or any(w not in _LEAD for w in said) or not (named or "one" in said):
        return None
    if by is None or not quote or len(quote) > _MAX_QUOTE:
        return Reading(86, (), why="I could not tell who said it; write it as \"…\" - their name")
    return Reading(86, (AddQuote(quote, by, named),))


def joined(requests: list[Request]) -> list[Request]:
    """A quote right after a request adding a testimonials section is shown in it; "here's
    one" after anything else is refused (it names nothing)."""
    out: list[Request] = []
    for request in requests:
        before = out[-1] if out else None
        if isinstance(request, AddQuote):
            if isinstance(before, AddSection) and before.kind == "testimonials":
                out[-1] = dataclasses.replace(before, quotes=(*before.quotes, (request.quote, request.by)))
                continue
            if not request.named:
                words = f'here\'s one: "{request.quote}"'
                request = Unsupported(words, f"{words}: I could not tell what it is; say \"here's a review: …\"")
        out.append(request)
    return out


def plan_quotes(
    page: PageView, request: AddSection, context: Context
) -> Edit | Refusal:
    """The person's quotes: cards like the testimonials band's, else a testimonials section of them."""
    root = next((r for r in page.roots if page.kind(r) == "testimonials"), None)
    if root is None:
        table = dict(context.facts) if isinstance(context.facts, Mapping) else {}
        table["testimonials"] = [{"quote": q, "name": by} if by else {"quote": q} for q, by in request.quotes]
        plain = dataclasses.replace(request, quotes=())
        edit = add(page, plain, dataclasses.replace(context, facts=table))
        if isinstance(edit, Refusal):
            return edit
        who = f" from {request.quotes[0][1]}" if request.quotes[0][1] else ""
        return Edit(edit.ops, f"{edit.said}, showing the quote{who}")
    items = items_of(page, root)
    shown = " ".join(page.words(n) for n in page.inside(root))
    ops: list[dict[str, object]] = []
    for quote, by in request.quotes:
        if quote in shown:
            return Refusal(f"the {page.label(root)} section already shows \"{quote}\"")
        made = new_item(page, items, [f"\u201c{quote}\u201d", *([by] if by else [])])
        if made is None or ops:
            return Refusal(f"the {page.label(root)} section is not a list of quotes I can add to")
        ops += made
    who = f" from {request.quotes[0][1]}" if request.quotes[0][1] else ""
    return Edit(tuple(ops), f"added the quote{who} to the {page.label(root)} section")


def _plan(request: AddQuote, page: PageView, context: Context) -> Edit | Refusal:
    return plan_quotes(page, AddSection("testimonials", quotes=((request.quote, request.by),)), context)


ADD_QUOTE: Final = Intent(
    "add a quote",
    _read,
    (AddQuote,),
    _plan,
    "add a review you give (\"here's a review: '…' - Tina\") to the testimonials",
)
