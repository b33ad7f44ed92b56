"""The intents on the page's arrangement: two sections swapped; a shorter or longer page.

"Swap services and prices", "switch the menu and the opening hours round";
"make the page shorter", "the page is too short". A shorter page loses an
optional section (any but the hero and contact) and a longer one gets back a
section of the first draft's plan it lacks (built from the brief and the facts,
like "add"); when there is more than one to choose from, nothing changes and
the reply asks which.
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.edits import Context, Edit, Refusal, add, band_of, moved_ops, remove
from charlotte.offline.existing import batch_kind, kinds_on
from charlotte.offline.intents.facts import unaccounted
from charlotte.offline.intents.intent import CHANGE, FILLERS, Clause, Intent, Reading
from charlotte.offline.requests import AddSection, PageLength, RemoveSection, SwapSections
from charlotte.sections.additions import KIND_TITLES
from charlotte.sections.catalogue import kinds_in
from charlotte.sections.page_view import PageView
from charlotte.sections.writer import plan_page

__all__ = ["PAGE_LENGTH", "SWAP_SECTIONS"]

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
                 "too", "long", "short", "feels", "seems", "way", "of"})
)  # fmt: skip
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
    words = clause.words_of(0, len(clause.lower))
    seen = set(words)
    too = "too" in seen and bool({"long", "short"} & seen)
    shorter = bool(_SHORTER & seen) or (too and "long" in seen)
    longer = bool(_LONGER & seen) or (too and "short" in seen)
    if not (_PAGE - {"it"}) & seen or shorter == longer:
        return None
    left = unaccounted(words, _LENGTH_WORDS)
    if left:
        return Reading(62, (), why=f'I did not understand "{" ".join(left)}"')
    return Reading(62, (PageLength(longer),))


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


def _plan_length(request: PageLength, page: PageView, context: Context) -> Edit | Refusal:
    if not request.longer:
        optional = [r for r in page.roots if r != page.hero() and page.kind(r) not in _KEPT]
        if not optional:
            return Refusal("the page has only its hero and contact, which it keeps")
        if len(optional) > 1:
            names = _which([f"the {page.label(r)}" for r in optional])
            example = f'"remove the {page.label(optional[-1])} section"'
            return Refusal(f"which section should go: {names} section? Say, for example, {example}")
        return remove(page, RemoveSection(page.label(optional[0])))
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
PAGE_LENGTH: Final = Intent(
    "a shorter or longer page",
    _read_length,
    (PageLength,),
    _plan_length,
    "make the page shorter or longer by a section (it asks which when there is a choice)",
)
