"""Services a brief lists without a verb become the services section, and nothing else does."""

from __future__ import annotations

import pytest

from charlotte.sections.brief_lists import bare_offerings
from charlotte.sections.writer import plan_page


@pytest.mark.parametrize(
    ("brief", "items"),
    [
        ("Plumber, Leeds. Boilers, leaks, bathrooms. Gas Safe. Services, prices, contact.",
         ("Boilers", "Leaks", "Bathrooms")),
        ("Ledger Lane Accountants. Self assessment, year-end accounts, VAT, payroll, bookkeeping. "
         "Sections: services, fees, contact.",
         ("Self assessment", "Year-end accounts", "VAT", "Payroll", "Bookkeeping")),
        ("Paws About - group walks (max 4 dogs), solo walks, puppy visits, cat sitting. "
         "I'd like: services, prices, contact.",
         ("Group walks (max 4 dogs)", "Solo walks", "Puppy visits", "Cat sitting")),
        # The list ends where its items stop reading as services.
        ("Petal & Vow - wedding flowers. Bridal bouquets, buttonholes, ceremony arches and table "
         "centrepieces, all seasonal and British-grown where possible.",
         ("Bridal bouquets", "Buttonholes", "Ceremony arches", "Table centrepieces")),
        # "or" joins one service; the last "and" ends the list.
        ("Fresh Start. Regular weekly or fortnightly cleans, deep cleans and oven cleaning. "
         "Please include services and contact.",
         ("Regular weekly or fortnightly cleans", "Deep cleans", "Oven cleaning")),
    ],
)  # fmt: skip
def test_a_bare_list_of_services_is_read_verbatim(brief: str, items: tuple[str, ...]) -> None:
    assert bare_offerings(brief).items == items
    roots = [b.root for b in plan_page(brief, {"phone": "0113 496 0000"}).batches]
    assert {"services", "what-we-offer"} & set(roots)  # the band the brief asks for, else its own


@pytest.mark.parametrize(
    "brief",
    [
        # Qualities, tone words, a person, a place: never services.
        "Paws About. Fully insured, DBS checked, pet first aid trained. Sections: services, contact.",
        "Sugar Bloom Cakes. Pretty, pastel, whimsical. Sections: services, contact.",
        "Kneadwell - sports massage, pregnancy massage, by Carys Evans, in Cardiff. Services please.",
        "Driving instructor in Cardiff, manual and automatic. Sections: lessons and prices, contact.",
        # The look, not services.
        "Second Chapter, a bookshop. Cosy and bookish, old-fashioned serif type, cream background.",
        # Section names are a direction, not services.
        "Plumber in Leeds. Services, prices, contact.",
    ],
)
def test_what_is_not_a_list_of_services_is_never_read_as_one(brief: str) -> None:
    assert bare_offerings(brief).items == ()


def test_the_tail_of_a_list_after_a_verb_is_no_list_of_offerings() -> None:
    # "stool making and green woodwork": "making" is no offer verb here; before, the page
    # showed one card "And green woodwork".
    from charlotte.sections.context import context_of

    brief = "Moss & Mallet is a woodworking school. Weekend courses in spoon carving, stool making and green woodwork."
    assert all(not item.lower().startswith("and ") for item in context_of(brief, {}).offerings.items)


@pytest.mark.parametrize(
    ("brief", "items"),
    [
        ("Kneadwell - sports and deep tissue massage, pregnancy massage, by Carys Evans, a "
         "qualified massage therapist in Cardiff. Treatments, prices, contact please.",
         ("Sports and deep tissue massage", "Pregnancy massage")),
        ("Tidy Tails - full grooms, nail trims, by Sam Lee in Ely. Services please.",
         ("Full grooms", "Nail trims")),
    ],
)  # fmt: skip
def test_two_services_are_a_list_when_the_brief_asks_for_them(
    brief: str, items: tuple[str, ...]
) -> None:
    assert bare_offerings(brief, asked=True).items == items
    assert bare_offerings(brief).items == ()  # not asked: three at least
    roots = [b.root for b in plan_page(brief, {"phone": "0113 496 0000"}).batches]
    assert "services" in roots


@pytest.mark.parametrize(
    "brief",
    [
        "Plumber, Leeds. Services, prices, contact.",  # one word each: a trade and a place
        "Tidy Tails - grooming, by Sam Lee in Ely. Services please.",  # one item
        "Warm, friendly. Sections: services, contact.",
    ],
)
def test_two_words_that_are_no_services_stay_out_even_when_asked(brief: str) -> None:
    assert bare_offerings(brief, asked=True).items == ()
