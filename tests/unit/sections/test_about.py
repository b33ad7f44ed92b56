"""The About band says what the brief says about the business or the person behind it, or is left out."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.sections.about import person_of
from charlotte.sections.brief import is_direction, statements
from charlotte.sections.context import context_of
from charlotte.sections.writer import NOTHING_TO_SAY, plan_page

_FACTS = {"phone": "01632 960 123"}


def _texts(brief: str, root: str) -> list[str]:
    plan = plan_page(brief, _FACTS)
    batch = next(b for b in plan.batches if b.root == root)
    words: list[str] = []
    for op in batch.ops:
        props: dict[str, Any] = op.get("node", {}).get("props", {})
        if isinstance(props.get("content"), str):
            words.append(props["content"])
    return words


@pytest.mark.parametrize(
    ("brief", "heading", "says"),
    [
        # The name and a dash: the brief's own sentence, then what else it says of the business.
        ("Hollow Oak Joinery - bespoke kitchens and staircases in Hexham. Every piece is made "
         "in our own workshop. Sections: about us, contact.",
         "About Hollow Oak Joinery",
         "Hollow Oak Joinery - bespoke kitchens and staircases in Hexham. Every piece is made in "
         "our own workshop."),
        # A person's voice: "About me" where the brief calls it so, their words first.
        ("I'm Mina Patel, a counsellor working from a small room in Derby. I work with stress, "
         "low mood and burnout. Soft colours. Sections: about me, contact.",
         "About me",
         "I'm Mina Patel, a counsellor working from a small room in Derby. I work with stress, "
         "low mood and burnout."),
        # A person named as the one at work: their first name, the brief's words without "by".
        ("Brightwater Swim School - baby swimming, adult improvers, by Owen Price, a qualified "
         "swimming teacher in Swansea. Classes, about, contact.",
         "About Owen",
         "Owen Price, a qualified swimming teacher in Swansea."),
    ],
)  # fmt: skip
def test_about_is_the_briefs_own_sentences(brief: str, heading: str, says: str) -> None:
    plan = plan_page(brief, _FACTS)
    assert "about-us" in [b.root for b in plan.batches]
    assert _texts(brief, "about-us") == [heading, says]
    assert not plan.left_out


@pytest.mark.parametrize(
    "brief",
    [
        # Directions only: sections, tone, look.
        "Sections: about us, services, contact. Warm, friendly tone, lots of green.",
        "Modern design, bold colours, a clean feel. Sections: about, contact.",
        "We'd like: about us, prices and contact. Light and airy, lots of white space.",
        # Nothing beyond the hero's line: the About would only repeat it.
        "Tidy Paws - dog grooming in Ely. Sections: about us, contact.",
        "Tidy Paws, a dog groomer in Ely. Sections: about us, contact.",
    ],
)
def test_a_brief_that_says_nothing_more_gets_no_about(brief: str) -> None:
    plan = plan_page(brief, _FACTS)
    assert "about-us" not in [b.root for b in plan.batches]
    assert ("About us", NOTHING_TO_SAY) in plan.left_out or any(
        title.startswith("About") for title, _why in plan.left_out
    )


@pytest.mark.parametrize(
    ("brief", "first"),
    [
        ("I'm Tom, a wedding photographer in Keswick.", "Tom"),
        ("Lantern Studio - I am Dr Ana Silva, a psychologist in Porto.", "Ana"),
        ("Knots & Loops - macramé classes by Jess Hale, a textile artist in Frome.", "Jess"),
        ("My name is Priya and I teach yoga in Hove.", "Priya"),
    ],
)
def test_the_person_behind_a_business_is_read_by_first_name(brief: str, first: str) -> None:
    person = person_of(brief)
    assert person is not None and person.first == first


@pytest.mark.parametrize(
    "brief",
    [
        "I'm based in Leeds and fully insured.",  # no name after "I'm"
        "Run by two chartered physiotherapists in Leith.",  # no one named
        "Made by hand in Whitby.",
        "Cakes by Sugar Bloom.",  # a business, not a person and what they are
        "Sections: about me, contact.",
    ],
)
def test_no_person_where_the_brief_names_none(brief: str) -> None:
    assert person_of(brief) is None


@pytest.mark.parametrize(
    ("clause", "direction"),
    [
        # A style word that names the trade or what a person works with is description.
        ("Greenthumb Gardens - garden design and landscaping in York", False),
        ("I work with anxiety, low mood and grief", False),
        ("Documentary style, no cheesy posing", False),
        # After a tone word, an article or a possessive it still directs the page.
        ("Modern design, lots of white", True),
        ("a calm mood throughout", True),
        ("Our style is bold", True),
        ("Earthy, natural feel, greens and browns", True),
        ("We'd like: treatments, fees, reviews", True),
        ("light and airy, lots of white space", True),
    ],
)
def test_style_words_direct_the_page_unless_they_name_the_work(clause: str, direction: bool) -> None:
    assert is_direction(clause) is direction


def test_the_about_never_carries_a_direction() -> None:
    brief = (
        "Fernleaf Interiors - interior design for small flats in Leith. I'd like it calm. "
        "Modern design, muted colours. Sections: about us, contact."
    )
    ctx = context_of(brief, _FACTS)
    assert ctx.subheading == "Interior design for small flats in Leith."
    assert ctx.about == "Fernleaf Interiors - interior design for small flats in Leith."
    assert statements(brief) == ["Fernleaf Interiors - interior design for small flats in Leith."]
