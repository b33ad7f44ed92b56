"""The sections a follow-up may add, built from the brief and the facts only.

``section_batch(kind, brief, facts, index=, taken_ids=)`` is the one place a
follow-up gets a new section's batch. It builds the band the way the first
draft does (``bands.build_section``, in the page's palette as ``plan_page``
picks it), and returns None when the brief and the facts cannot support that
kind honestly (an FAQ with no question the facts answer, a location with no
address, testimonials the host never gave).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Final

from charlotte.offline.bands import build_section, palette_of
from charlotte.offline.batch import Batch
from charlotte.offline.sections import KIND_NAMES

__all__ = ["KIND_TITLES", "section_batch"]

#: Each kind a person may add and what the reply calls it: the first of the words a person
#: calls it by (``sections.KIND_NAMES``), "FAQ" in capitals.
KIND_TITLES: Final[Mapping[str, str]] = MappingProxyType(
    {kind: "FAQ" if kind == "faq" else names[0] for kind, names in KIND_NAMES.items()}
)


def section_batch(
    kind: str, brief: str, facts: object, *, index: int, taken_ids: Collection[str]
) -> Batch | None:
    """The batch adding a ``kind`` section (its ids clear of ``taken_ids``), or None."""
    table = {str(k): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    return build_section(
        kind, brief, table, palette_of(brief, table), index=index, taken_ids=taken_ids
    )
