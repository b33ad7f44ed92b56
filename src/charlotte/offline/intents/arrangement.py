"""The intents on the page's arrangement: two sections swapped; a shorter or longer page.

"Swap services and prices", "switch the menu and the opening hours round";
"make the page shorter", "make it even shorter", "shorter? The FAQ especially",
"the page is too short". A shorter page first says once what it says twice
(``offline/repeats.py``: nothing it shows is lost); with nothing said twice it
loses an optional section (any but the hero and contact). A longer one gets back
a section of the first draft's plan it lacks (built from the brief and the facts,
like "add"). When there is more than one section to choose from, nothing changes
and the reply asks which.
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.edits import Context, Edit, Refusal, add, band_of, moved_ops, remove
from charlotte.offline.existing import batch_kind, kinds_on
from charlotte.offline.intents.facts import unaccounted
from charlotte.offline.intents.intent import CHANGE, FILLERS, Clause, Intent, Reading
from charlotte.offline.repeats import said_twice
from charlotte.offline.requests import (
    AddSection,
    AddSentences,
    Especially,
    PageLength,
    RemoveSection,
    Request,
    Resize,
    SwapSections,
    Unsupported,
)
from charlotte.sections.additions import KIND_TITLES
from charlotte.sections.catalogue import kinds_in
from charlotte.sections.page_view import PageView
from charlotte.sections.writer import plan_page

__all__ = ["ESPECIALLY", "PAGE_LENGTH", "SWAP_SECTIONS", "scoped"]

#: Verbs that swap whatever they name; the others swap only when both sides name sections.
_SWAP: Final = frozenset({"swap", "exchange"})
_SWITCH: Final = frozenset({"switch", "flip", "reverse", "trade"})
_ROUND: Final = ("the order of ", "the places of ", "the positions of ")
_TAILS: Final = (" round", " around", " over", " places", " positions", " sections")
_SHORTER: Final = frozenset({"shorter", "shorten", "briefer", "trim"})
_LONGER: Final = frozenset({"longer", "lengthen", "fuller", "expand", "extend"})
_PAGE: Final = frozenset({"page", "site", "website", "homepage", "it"})
_LENGTH_WORDS: Final = (
    CHANGE | FILLERS | _SHORTER | _LONGER | _PAGE
    | frozenset({"the", "a", "bit", "little", "lot", "much", "whole", "our", "my", "this", "is",
                 "too", "long", "short", "feels", "seems", "way", "of", "even", "slightly",
                 "somewhat", "touch", "still"})
)  # fmt: skip
#: "The FAQ especially": words singling out the section a shorter or longer page is about.
_ESPECIALLY: Final = ("especially", "particularly", "in particular", "mostly", "mainly", "above all")
#: Bands a shorter page keeps: the hero heads it, contact is how people reach the business.
_KEPT: Final = frozenset({"hero", "contact"})


def _side(words: str) -> str:
    return words.strip(" .,!").removeprefix("the ").removesuffix(" section").strip()


def _read_swap(clause: Clause) -> Reading | None:
    verb = clause.verb
    if verb not in _SWAP | _SWITCH:
        return None
    rest = clause.lbody[len(verb) :].strip(" .,!")
    for words in _ROUND:
        rest = rest.removeprefix(words)
    for tail in _TAILS:
        rest = rest.removesuffix(tail)
    for sep in (" and ", " with ", " & ", " for "):
        at = rest.find(sep)
        if at > 0:
            first, second = _side(rest[:at]), _side(rest[at + len(sep) :])
            break
    else:
        return None if verb in _SWITCH else Reading(82, (), why="I could not tell which two sections")
    named = bool(kinds_in(first)) and bool(kinds_in(second))
    if verb in _SWITCH and not named:
        return None  # "switch the font to serif and …": not a swap of sections
    if not first or not second:
        return Reading(82, (), why="I could not tell which two sections")
    return Reading(82, (SwapSections(first, second),))


def _read_length(clause: Clause) -> Reading | None:
    end, within = len(clause.lower), None
    for word in _ESPECIALLY:
        at = clause.lower.find(f" {word} ")
        named = clause.lower[at + len(word) + 2 :].strip(" .!?,") if at > 0 else ""
        if kinds_in(named) and len(named.split()) <= 4:
            end, within = at, named.removeprefix("the ").removeprefix("our ")  # "…, especially the menu"
            break
    words = clause.words_of(0, end)
    seen = set(words)
    too = "too" in seen and bool({"long", "short"} & seen)
    shorter = bool(_SHORTER & seen) or (too and "long" in seen)
    longer = bool(_LONGER & seen) or (too and "short" in seen)
    said_it = not (_PAGE - {"it"}) & seen and "it" in seen and clause.verb in CHANGE
    if not ((_PAGE - {"it"}) & seen or said_it) or shorter == longer:
        return None
    left = unaccounted(words, _LENGTH_WORDS)
    if left:
        return Reading(62, (), why=f'I did not understand "{" ".join(left)}"')
    return Reading(62, (PageLength(longer, within, said_it),))


def _read_especially(clause: Clause) -> Reading | None:
    """"The FAQ especially", "especially the FAQ": a section singled out (``scoped`` joins it)."""
    lower = clause.lbody.strip(" .!?")
    for word in _ESPECIALLY:
        if lower.endswith(f" {word}") or lower.startswith(f"{word} "):
            named = lower.removesuffix(f" {word}").removeprefix(f"{word} ").strip(" ,")
            if kinds_in(named) and len(named.split()) <= 4:
                return Reading(60, (Especially(named.removeprefix("the ")),))
    return None


def scoped(requests: list[Request]) -> list[Request]:
    """``requests`` with "the FAQ especially" joined to the shorter or longer page before it, and a
    "make it longer" after a request lengthening a section dropped (the "it" is that section).

    Alone, "the FAQ especially" asks nothing: it is refused.
    """
    out: list[Request] = []
    for request in requests:
        before = out[-1] if out else None
        if isinstance(request, Especially):
            if isinstance(before, PageLength) and before.within is None:
                out[-1] = PageLength(before.longer, request.section)
                continue
            words = f"the {request.section} especially"
            request = Unsupported(words, f'"{words}": I could not tell what to do to it')
        if isinstance(request, PageLength) and request.it and before is not None:
            if isinstance(before, Resize | AddSentences) and getattr(before, "longer", True) == request.longer:
                continue  # "the about section could do with more … make it longer"
            words = f"make it {'longer' if request.longer else 'shorter'}"
            request = Unsupported(words, f'"{words}": I could not tell what "it" is; say which part')
        out.append(request)
    return out


def _plan_swap(request: SwapSections, page: PageView, _context: Context) -> Edit | Refusal:
    first, second = band_of(page, request.first), band_of(page, request.second)
    if isinstance(first, Refusal) or isinstance(second, Refusal):
        return first if isinstance(first, Refusal) else second  # type: ignore[return-value]
    if first == second:
        return Refusal(f'"{request.first}" and "{request.second}" name the same section')
    order = list(page.roots)
    a, b = order.index(first), order.index(second)
    order[a], order[b] = order[b], order[a]
    said = f"swapped the {page.label(first)} and {page.label(second)} sections"
    return Edit(tuple(moved_ops(page, order, (first, second))), said)


def _which(titles: list[str]) -> str:
    return ", ".join(titles[:-1]) + f" or {titles[-1]}" if len(titles) > 1 else titles[0]


def _shorter(request: PageLength, page: PageView) -> Edit | Refusal:
    band = band_of(page, request.within) if request.within else None
    if isinstance(band, Refusal):
        return band
    trim = said_twice(page, [band] if band else page.roots)
    if trim.ops:
        where = f"the {page.label(band)} section" if band else "the page"
        took = "; ".join(trim.took)
        return Edit(trim.ops, f"made {where} shorter by taking out what the page says twice ({took}); every fact it shows stays")
    if band is not None:
        return Refusal(
            f"the {page.label(band)} section says nothing the page does not say elsewhere, so I cut nothing;"
            f' to drop it, say "remove the {page.label(band)} section"'
        )
    optional = [r for r in page.roots if r != page.hero() and page.kind(r) not in _KEPT]
    if not optional:
        return Refusal("the page has only its hero and contact, which it keeps")
    if len(optional) > 1:
        names = _which([f"the {page.label(r)}" for r in optional])
        example = f'"remove the {page.label(optional[-1])} section"'
        return Refusal(
            "the page says nothing twice, so a shorter page means a section less. Which section should"
            f" go: {names} section? Say, for example, {example}"
        )
    return remove(page, RemoveSection(page.label(optional[0])))


def _plan_length(request: PageLength, page: PageView, context: Context) -> Edit | Refusal:
    if not request.longer:
        return _shorter(request, page)
    there = kinds_on(page)
    missing = [kind for b in plan_page(context.brief, context.facts).batches
               if (kind := batch_kind(b.root, b.title)) is not None and kind not in there]  # fmt: skip
    if not missing:
        return Refusal("the brief and the facts give no section the page lacks")
    if len(missing) > 1:
        names = _which([KIND_TITLES.get(k, k) for k in missing])
        example = f'"add {KIND_TITLES.get(missing[0], missing[0])}"'
        return Refusal(f"which section should I add back: {names}? Say, for example, {example}")
    return add(page, AddSection(missing[0]), context)


SWAP_SECTIONS: Final = Intent(
    "swap two sections", _read_swap, (SwapSections,), _plan_swap, "swap two sections"
)
def _plan_especially(request: Especially, _page: PageView, _context: Context) -> Edit | Refusal:
    return Refusal(f"I could not tell what to do to the {request.section} section")


ESPECIALLY: Final = Intent(
    "a section singled out", _read_especially, (Especially,), _plan_especially, "make the page shorter, one section especially"
)
PAGE_LENGTH: Final = Intent(
    "a shorter or longer page",
    _read_length,
    (PageLength,),
    _plan_length,
    "make the page shorter (what it says twice, said once; else a section less: it asks which) or longer by a section",
)
