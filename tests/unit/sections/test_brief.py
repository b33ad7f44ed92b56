"""How the offline builder reads a brief: the business name, and directions kept out of the copy."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.sections.brief import business_name, is_direction, lead_of, offerings_of, statements
from charlotte.sections.context import context_of


@pytest.mark.parametrize(
    ("brief", "facts", "name"),
    [
        ("Crumb & Co is a bakery.", {}, "Crumb & Co"),
        ("A landing page for Brightsmile Dental, a family dentist.", {}, "Brightsmile Dental"),
        ('We are "The Daily Grind", a café.', {}, "The Daily Grind"),
        ("A page for a bakery.", {}, None),
        ("Fernhill Pottery Studio in Bristol: weekly classes.", {}, "Fernhill Pottery Studio"),
        ("Spokes & Sprockets, a bike repair shop in York.", {}, "Spokes & Sprockets"),
        ("Brightsmile Dental \u2013 a family dentist.", {}, "Brightsmile Dental"),
        ("Sections: menu, contact.", {}, None),
        ("Leeds: a bakery.", {}, None),
        ("Anything.", {"business_name": "Fig & Fern"}, "Fig & Fern"),
    ],
)
def test_business_name(brief: str, facts: dict[str, Any], name: str | None) -> None:
    assert business_name(brief, facts) == name


@pytest.mark.parametrize(
    ("clause", "direction"),
    [
        ("Warm, friendly tone; invite people to visit.", True),
        ("Warm and friendly.", True),
        ("Sections: our menu, about us, opening hours and contact.", True),
        ("Keep the copy short.", True),
        ("Please mention the parking.", True),
        ("We bake sourdough every morning.", False),
        ("Open every day since 1998.", False),
        ("A friendly neighbourhood bakery in Leeds.", False),
    ],
)
def test_is_direction(clause: str, direction: bool) -> None:
    assert is_direction(clause) is direction


def test_statements_keep_the_description_and_drop_the_directions() -> None:
    brief = "We bake daily; keep it casual. Family run since 1998. Playful tone."
    assert statements(brief) == ["We bake daily.", "Family run since 1998."]


@pytest.mark.parametrize(
    ("brief", "items", "lead"),
    [
        (
            "A page for Harbour Lane Physiotherapy in Whitby: sports injuries, back pain, home "
            "visits. Sections: treatments, prices, contact. Call to action: book an assessment.",
            ("Sports injuries", "Back pain", "Home visits"),
            "In Whitby: sports injuries, back pain, home visits.",
        ),
        (
            "Spoke & Chain is a bike workshop in Bristol fixing road bikes, e-bikes and kids' bikes.",
            ("Road bikes", "E-bikes", "Kids' bikes"),
            "A bike workshop in Bristol.",
        ),
        (
            "Kowalski Plumbing is a plumber in Cardiff providing boiler repairs and leak repairs.",
            ("Boiler repairs", "Leak repairs"),
            "A plumber in Cardiff.",
        ),
        # A list after a direction is no offering, nor one of figures or of section names.
        (
            "A calm page for Bright Smile Dental in London: services, our team, opening hours "
            "and contact.",
            (),
            "In London.",
        ),
        ("Oak & Ash is a joinery. Sections: services, team, contact.", (), "A joinery."),
        ("Oak & Ash is a joinery. Prices: doors £300, stairs £2,000.", (), "A joinery."),
    ],
)
def test_offerings_the_brief_names(brief: str, items: tuple[str, ...], lead: str) -> None:
    name = business_name(brief, {})
    found = lead_of(brief, {}, name)
    assert found.subheading == lead
    assert offerings_of(brief, found).items == items


POTTERY = (
    "Fernhill Pottery Studio in Bristol: weekly wheel-throwing classes for beginners, open "
    "studio evenings, a class price list and how to book. Calm, earthy tone."
)


def test_a_mixed_colon_list_keeps_the_offerings_and_leaves_the_sections() -> None:
    # "a class price list" names a section, "how to book" is a direction; "for beginners"
    # belongs to the first item, not a tail cutting off the rest of the list.
    lead = lead_of(POTTERY, {}, business_name(POTTERY, {}))
    assert offerings_of(POTTERY, lead).items == (
        "Weekly wheel-throwing classes for beginners",
        "Open studio evenings",
    )


def test_the_pottery_brief_gets_its_classes_on_the_page() -> None:
    from charlotte.sections.writer import plan_page

    plan = plan_page(POTTERY, {"prices": "Taster evening £35; Six-week course £180"})
    services = next(b for b in plan.batches if b.root == "services")
    shown = " ".join(str(op.get("node", {}).get("props", {})) for op in services.ops)
    assert (
        "Weekly wheel-throwing classes for beginners" in shown and "Open studio evenings" in shown
    )


BIKES = (
    "North Loop Cycles in Manchester: fixing road bikes, gravel bikes and e-bikes while you "
    "wait, a clear price list and opening hours. Friendly, no-nonsense."
)


def test_an_offer_verb_in_a_sentence_that_also_names_sections_lists_the_offerings() -> None:
    name = business_name(BIKES, {})
    lead = lead_of(BIKES, {}, name)
    assert offerings_of(BIKES, lead).items == ("Road bikes", "Gravel bikes", "E-bikes")
    # "Friendly, no-nonsense." sets the voice: it is never the hero's line.
    assert lead.subheading is None


@pytest.mark.parametrize(
    ("brief", "items"),
    [
        # "we"/"I" and the verb's plain form; a second verb adds its own list.
        ("Cedar Clinic is a podiatry practice in Perth. We treat heel pain, ingrown toenails "
         "and verrucas, and make custom insoles.",
         ("Heel pain", "Ingrown toenails", "Verrucas", "Custom insoles")),
        ("Lumen Therapies. We offer reflexology, Indian head massage and reiki.",
         ("Reflexology", "Indian head massage", "Reiki")),
        ("Keys by Kim. I teach piano, guitar and ukulele to all ages.",
         ("Piano", "Guitar", "Ukulele")),
        # Only the list's last part holds its "and": "cut and finish" is one service.
        ("Shear Joy salon. We offer cut and finish, blow-dries and highlights.",
         ("Cut and finish", "Blow-dries", "Highlights")),
        ("Ward Physio treats back and neck pain, sports injuries and rehab.",
         ("Back and neck pain", "Sports injuries", "Rehab")),
        # "we do", two verbs for one list, and a list ending where a clause of its own starts.
        ("Satchel - bike couriers in Bristol. we do docs, parcels upto 15kg, legal bundles, lab samples.",
         ("Docs", "Parcels upto 15kg", "Legal bundles", "Lab samples")),
        ("Pendulum & Key. We repair and restore longcase clocks, mantel clocks and barometers, "
         "and we can collect grandfather clocks within 25 miles.",
         ("Longcase clocks", "Mantel clocks", "Barometers")),
    ],
)  # fmt: skip
def test_offerings_after_a_verb_in_the_briefs_words(brief: str, items: tuple[str, ...]) -> None:
    ctx = context_of(brief, {})
    assert offerings_of(brief, ctx.lead).items == items


@pytest.mark.parametrize(
    "brief",
    [
        "Corner Shop. We run a friendly little shop.",  # one thing after a bare verb: no list
        "Happy Paws. We treat every pet like our own.",
        "Happy Paws. I cover Leeds and Bradford.",  # places, not offerings
        "Bridge Physio is a clinic run by two chartered physiotherapists.",
        "Dry Feet. We do our best to be on time.",
        "Ink & Co. We design, print and deliver.",
    ],
)
def test_no_offerings_where_the_verb_lists_none(brief: str) -> None:
    ctx = context_of(brief, {})
    assert offerings_of(brief, ctx.lead).items == ()


def test_what_the_business_is_is_not_an_offer_verb() -> None:
    # Found trying an alterations shop: "repairs shop" cut the hero line to "A little alterations and."
    brief = "Thread & Thimble is a little alterations and repairs shop in Leeds. I do hems, zips and dress fittings."
    ctx = context_of(brief, {})
    assert offerings_of(brief, ctx.lead).items == ("Hems", "Zips", "Dress fittings")
