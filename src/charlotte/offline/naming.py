"""Which band of the page a person's words name ("the kind words from couples", "work").

A follow-up names a band by what the page shows or by what the catalogue calls
its kind. ``bands_named`` tries, in order, and stops at the first that names
any band: the band's heading (or id) said whole ("bikes for sale" names a band
titled "Bikes for sale"); a kind by the catalogue's names (``kinds_in``: "the
reviews", "the top banner"; of two bands of the kind, the one built as it, by its
id or title); every word said found in a heading or id ("the
specials"); and last a word the catalogue's ``ALSO_CALLED`` or a kind's fact
keys give ("work": the gallery, "the teachers": the team), when only one kind
has it. It returns every band that reading names: more than one means the
words do not tell them apart, and the planner asks instead of guessing.
"""

from __future__ import annotations

import re
from typing import Final

from charlotte.offline.clauses import folded
from charlotte.sections.catalogue import ALSO_CALLED, KIND_BY_KEY, KINDS, kinds_in
from charlotte.sections.page_view import PageView

__all__ = ["bands_named", "said_name"]

#: Words before a band's name that are not part of it ("meet the stylists").
_BEFORE: Final = ("the ", "our ", "my ", "your ", "meet ", "this ", "that ")
#: Words after a band's name that are not part of it ("the about me bit").
_AFTER: Final = (" section", " sections", " bit", " bits", " part", " block", " band", " area", " panel", " box")
_QUOTES: Final = str.maketrans({c: " " for c in "'\"\u2018\u2019\u201c\u201d()"})


def said_name(words: str) -> str:
    """``words`` as a band's name: lower case, no quotes, no article before or "section" after."""
    said = " ".join(folded(words).translate(_QUOTES).strip(" .,!?;:").split())
    changed = True
    while changed:
        before = said
        for word in _BEFORE:
            said = said.removeprefix(word)
        for word in _AFTER:
            said = said.removesuffix(word)
        changed = said != before
    return said.strip()


def _title(page: PageView, root: str) -> str:
    return " ".join(folded(page.title(root)).translate(_QUOTES).split())


def _has(seen: str, word: str) -> bool:
    """``word`` is a word of ``seen``, or its plural is ("the special" and "Specials")."""
    return f" {word} " in seen or f" {word}s " in seen


def bands_named(page: PageView, words: str) -> list[str]:
    """The bands ``words`` name (none, one, or several it cannot tell apart), in page order."""
    said = said_name(words)
    if not said:
        return []
    whole = [r for r in page.roots if said in (_title(page, r), r.replace("-", " "))]
    if whole:
        return whole
    for kind in kinds_in(folded(words).translate(_QUOTES)):
        bands = [r for r in page.roots if page.kind(r) == kind]
        # Of several, the band built as that kind (its id the kind's, or its title the kind's
        # title) is the one: "Quotes" (free quotes) is not the reviews beside "testimonials".
        own = [r for r in bands if r == kind or page.title(r) == KIND_BY_KEY[kind].title] if kind in KIND_BY_KEY else []
        if bands:
            return own if len(bands) > 1 and len(own) == 1 else bands
    wanted = [w for w in re.split(r"[^\w&'-]+", said) if w and w not in ("a", "an", "and", "of")]
    seen = {r: f" {r.replace('-', ' ')} {_title(page, r)} " for r in page.roots}
    contained = [r for r in page.roots if wanted and all(_has(seen[r], w) for w in wanted)]
    if contained:
        return contained
    kinds = {k.key for k in KINDS if said in k.facts or said.replace(" ", "_") in k.facts}
    kinds |= {kind for kind, names in ALSO_CALLED.items() if said in names}
    if len(kinds) != 1:
        return []
    (kind,) = kinds
    return [r for r in page.roots if page.kind(r) == kind]
