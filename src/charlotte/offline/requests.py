"""What a person asks of the offline builder after the first build: the typed requests.

A follow-up message is read (``offline/intents/``) as requests: ``SetText``,
``Resize``, ``AddSection``, ``RemoveSection``, ``MoveSection``, ``ChangeFact``,
``Restyle``, ``FontSize``, ``ChangePrice``,
``SwapSections``, ``PageLength``, ``Recolour``, ``AddLink``, ``ChangeValue``,
``AddToList``, ``RemoveRows``, ``ChangePlace``, ``AddQuote``, ``ShowFact``, or ``Unsupported`` when a clause is none of those. Each is a
frozen value; ``offline/intents/registry.py`` reads them and plans their ops.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from charlotte.offline.clauses import folded
from charlotte.offline.looks import Restyle

__all__ = [
    "MAX_MESSAGE",
    "MAX_REQUESTS",
    "AddLink",
    "AddQuote",
    "AddSection",
    "AddSentences",
    "AddToList",
    "ChangeFact",
    "ChangeHours",
    "ChangePlace",
    "ChangePrice",
    "ChangeValue",
    "Especially",
    "FontSize",
    "MoveSection",
    "MoveToDay",
    "PageLength",
    "Recolour",
    "RemoveRows",
    "RemoveSection",
    "Request",
    "Resize",
    "Restyle",
    "SetText",
    "ShowFact",
    "SwapSections",
    "Target",
    "Unsupported",
    "is_build_request",
]

#: Characters of a message read; the rest is ignored.
MAX_MESSAGE: Final = 4_000
#: Requests read from one message.
MAX_REQUESTS: Final = 8

_BUILD = frozenset(
    {"build", "rebuild", "check", "recheck", "finish", "continue", "again", "generate", "start"}
)
#: Words before a build request's verb ("please", "can you", "ok, now").
_BUILD_FILLERS = frozenset(
    {"please", "can", "could", "would", "will", "you", "u", "just", "ok", "okay", "now", "and",
     "then", "so", "kindly", "i'd", "like", "to", "let's", "go", "ahead"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Target:
    """A piece of text on the page: a part (heading, text, button) of a section (None: the hero).

    ``part`` "quote": the node whose words contain ``section`` (the words the person quoted).
    """

    section: str | None
    part: str
    hero_text: bool = False


@dataclass(frozen=True, slots=True)
class SetText:
    """Put ``words`` (the person's, verbatim) in ``target``."""

    target: Target
    words: str


@dataclass(frozen=True, slots=True)
class Resize:
    """Make ``target`` shorter (``longer`` False) or longer."""

    target: Target
    longer: bool


@dataclass(frozen=True, slots=True)
class AddSection:
    """Add a section of ``kind``; ``where`` top/bottom/above/below ``anchor`` (None: the usual place).

    ``quotes``: the person's own (quote, who said it or "") for a testimonials section;
    ``asked``: questions the person named for an FAQ (shown only when the facts answer them).
    """

    kind: str
    where: str | None = None
    anchor: str | None = None
    quotes: tuple[tuple[str, str], ...] = ()
    asked: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RemoveSection:
    """Remove the section the words ``section`` name."""

    section: str


@dataclass(frozen=True, slots=True)
class MoveSection:
    """Move ``section`` to the top/bottom, or above/below ``anchor``.

    ``also``: a second place the person said in the same breath ("after the fees,
    before contact"; "first (after the top bit)"), checked against the first, never a
    second move.
    """

    section: str
    where: str
    anchor: str | None = None
    also: tuple[str, str | None] | None = None


@dataclass(frozen=True, slots=True)
class ChangeFact:
    """Show ``value`` (the person's words) where the page shows its ``kind`` (phone, email, address)."""

    kind: str
    value: str


@dataclass(frozen=True, slots=True)
class AddLink:
    """A link to the business's profile on ``network`` (facebook, instagram, …); ``url`` as given, else the facts'."""

    network: str
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Recolour:
    """``colour`` (hex) in place of the colour the person last changed (the accent or a background)."""

    colour: str


@dataclass(frozen=True, slots=True)
class SwapSections:
    """Swap the places of the sections the words ``first`` and ``second`` name."""

    first: str
    second: str


@dataclass(frozen=True, slots=True)
class PageLength:
    """A shorter page (what it says twice said once; else an optional section removed) or a
    longer one (a section of the plan restored). ``within``: the section the person singled
    out ("the FAQ especially"); ``it``: said of "it", which a section named just before means.
    """

    longer: bool
    within: str | None = None
    it: bool = False


@dataclass(frozen=True, slots=True)
class AddSentences:
    """The person's own sentences added to the text of ``section`` ("mention I've practised for
    twelve years"); ``sentences`` empty: they are still to come in the message."""

    section: str
    sentences: str = ""


@dataclass(frozen=True, slots=True)
class Especially:
    """"The FAQ especially": the section a shorter or longer page is about (never alone)."""

    section: str


@dataclass(frozen=True, slots=True)
class ChangePrice:
    """Show ``price`` (as the person wrote it) for the item ``item`` names; ``old``: the price it replaces.

    ``unit``: what the person said the price is for ("a dozen": "dozen"), which the row must say.
    """

    item: str
    price: str
    old: str | None = None
    unit: str | None = None


@dataclass(frozen=True, slots=True)
class ChangeValue:
    """Show ``value`` (as written) in place of the one value of its ``shape`` the words ``named`` point to.

    ``shape``: "time" (7:30pm), "number" (30 miles: ``unit`` the word after it), "handle"
    (@name) or "quote" (a phrase restated with one number changed: "Children from age 5").
    """

    value: str
    shape: str
    named: tuple[str, ...]
    unit: str = ""


@dataclass(frozen=True, slots=True)
class AddToList:
    """Add ``items`` (as written) to the list the band named ``band`` shows ("Bath, Bristol").

    ``note``: the person's words describing the one item ("extensions", "from January").
    """

    band: str
    items: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class AddQuote:
    """Add the person's ``quote`` (verbatim) said by ``by`` ("" unnamed) to the testimonials.

    ``named``: the clause named what it is ("here's a review"); "here's one" alone is not.
    """

    quote: str
    by: str
    named: bool = True


@dataclass(frozen=True, slots=True)
class ShowFact:
    """Show the contact fact ``kind`` (phone, email, address) the page already has in the band ``section`` names."""

    kind: str
    section: str


@dataclass(frozen=True, slots=True)
class ChangePlace:
    """Show ``place`` (as written) as where the business is on ``day`` (mon … sun); ``old``: where it was."""

    day: str
    place: str
    old: str | None = None


@dataclass(frozen=True, slots=True)
class ChangeHours:
    """New opening hours for ``days`` (Monday = 0): a range, an opening or closing time, closed,
    or the hours the page shows for the days ``like`` ("same hours as Tue-Fri"); times in minutes.
    """

    days: frozenset[int]
    opens: int | None = None
    closes: int | None = None
    closed: bool = False
    like: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class MoveToDay:
    """Move the one-day row (on day ``old``, None: any) whose words hold ``item`` ("yin") to day ``new``."""

    old: int | None
    new: int
    item: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RemoveRows:
    """Remove the priced rows whose names hold the words ``item`` ("the NHS fees": "NHS")."""

    item: str


@dataclass(frozen=True, slots=True)
class FontSize:
    """Words of ``scope`` (text, headings, headline, page, phone, email) ``bigger`` or smaller.

    ``breakpoint`` None: at every width; "base" on a phone, "md" a tablet, "lg" a desktop.
    ``besides``: a scope left out ("the phone number bigger and the rest smaller").
    """

    scope: str
    bigger: bool
    breakpoint: str | None = None
    besides: str | None = None


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A clause the builder cannot act on offline (its words, shortened), and what it did not understand."""

    words: str
    why: str = ""


Request = (
    SetText | Resize | AddSection | RemoveSection | MoveSection | ChangeFact | Restyle | FontSize
    | ChangePrice | SwapSections | PageLength | Recolour | AddLink | ChangeValue | AddToList | ChangePlace
    | RemoveRows | AddQuote | ShowFact | ChangeHours | MoveToDay | Especially | AddSentences
    | Unsupported
)


def is_build_request(message: str) -> bool:
    """True for a message that asks to build (or check, or finish) the page as a whole.

    Its verb is one of those words ("Build the page…", "Please check the page again",
    "try again"): a build word inside another request ("add a quiz so students can check
    their level") asks for that request, which is refused if unknown, never a rebuild
    said to be done.
    """
    words = [w.strip(".,!?:;") for w in folded(message[:MAX_MESSAGE]).split()]
    words = [w for w in words if w]
    first = next((w for w in words if w not in _BUILD_FILLERS), "")
    return first in _BUILD or (len(words) <= 4 and not _BUILD.isdisjoint(words))
