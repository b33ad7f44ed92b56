"""The colour and the typeface a brief names are the page's."""

from __future__ import annotations

import pytest

from charlotte.sections.bands import scheme_of
from charlotte.sections.colours import NAMED_COLOURS, contrast


@pytest.mark.parametrize(
    ("brief", "hero"),
    [
        ("Big Bun Bus. Fun and bold - loads of bright orange, nothing boring.", "orange"),
        ("Greenthumb Gardens. Earthy, natural feel, greens and browns.", "green"),
        ("Ledger Lane Accountants. Serious; navy and white, a clean sans-serif font.", "navy"),
        ("DJ Kez. Fun and bold!! Purple and neon vibes.", "purple"),
        ("Thread & Thimble, alterations in Leeds. Friendly, neat, a bit of lavender.", "lavender"),
    ],
)
def test_the_colour_a_brief_names_is_the_heros(brief: str, hero: str) -> None:
    scheme = scheme_of(brief, {})
    assert scheme.hero == NAMED_COLOURS[hero]
    assert contrast(scheme.on_hero, scheme.hero) >= 4.5
    assert contrast(scheme.accent, "#ffffff") >= 4.5


def test_a_colour_refused_or_named_for_the_accent_is_not_the_heros() -> None:
    plain = scheme_of("Rose Bakery is a bakery in Lisbon.", {})
    assert scheme_of("Rose Bakery is a bakery in Lisbon. No pink please.", {}).hero == plain.hero
    accent = scheme_of("Rose Bakery is a bakery in Lisbon. One green accent.", {})
    assert accent.hero == plain.hero and accent.accent != plain.accent


def test_the_typeface_a_brief_names_outranks_its_tone() -> None:
    # "clean" reads as minimal, which sets serif headings: the named typeface wins.
    sans = scheme_of("Ledger Lane. Clean and modern, a sans-serif font.", {})
    assert sans.heading_font.endswith("sans-serif") and sans.font.endswith("sans-serif")
    serif = scheme_of("Petal & Vow, a florist. With a classic serif typeface.", {})
    assert serif.heading_font.endswith(", serif")


def test_a_colour_word_naming_a_thing_is_not_the_look() -> None:
    # Found trying a woodworking school: "green woodwork" painted the hero green.
    plain = scheme_of("Moss & Mallet is a woodworking school.", {})
    assert scheme_of("Moss & Mallet is a woodworking school. Courses in green woodwork.", {}).hero == plain.hero
    assert scheme_of("Rose Bakery on Green Lane.", {}).hero == scheme_of("Rose Bakery.", {}).hero
    assert scheme_of("Mill Soaps. We sell lavender bags.", {}).hero == scheme_of("Mill Soaps.", {}).hero
