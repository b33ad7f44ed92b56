"""Pages worth publishing: the brief drives the page, lists are lists, no filler, no dead links."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.unit.sections.briefs import CASES, DIRECTED, LONG, PAGES

from charlotte.checks import Finding, PageChecks
from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS
from charlotte.page.model import empty_doc
from charlotte.page.session import PageSession
from charlotte.sections.writer import plan_page, scheme_of
from charlotte.tools import fact_texts

#: Sentences the builder once wrote on any page, whatever the business.
STOCK = (
    "Learn more about",
    "Get in touch to find out how",
    "Get in touch with",
    "Get started with",
    "Welcome to",
    "Good to have you here",
    "Meet the people behind",
    "Tell us what you think",
    "Send us your questions",
    "See what",
    "Ask us what is on the menu",
    "we will talk you through the options",
    "Get in touch to ask when we are open",
    "Contact us",
)


def _every_brief() -> list[tuple[str, dict[str, Any]]]:
    out = [(SAMPLE_BRIEF, dict(SAMPLE_FACTS)), ("", {})]
    out += [(b, f) for b, f, *_ in CASES.values()]
    out += [(b, f) for b, f, *_ in DIRECTED.values()]
    out += [(b, f) for b, f, *_ in PAGES.values()]
    out.append(LONG[:2])
    return out


def _built(brief: str, facts: dict[str, Any]) -> dict[str, Any]:
    page = PageSession(empty_doc("home"))
    for batch in plan_page(brief, facts).batches:
        page.apply(list(batch.ops), based_on=page.revision, actor="agent", fill_defaults=True)
    return page.doc


def _words(doc: dict[str, Any]) -> list[str]:
    props = [n.get("props", {}) for n in doc["nodes"].values()]
    return [p.get("content") or p.get("label") or "" for p in props]


@pytest.mark.parametrize("case", [*sorted(PAGES), "long"])
def test_every_section_the_brief_names_is_built_with_the_briefs_details(case: str) -> None:
    brief, facts, roots, shown = {**PAGES, "long": LONG}[case]
    doc = _built(brief, facts)
    assert [b.root for b in plan_page(brief, facts).batches] == roots
    assert {n["id"] for n in doc["nodes"].values() if n["parent"] is None} == set(roots)
    words = _words(doc)
    for text in shown:
        assert any(text in w for w in words), text
    findings = PageChecks(facts=fact_texts(facts), brief=brief).run(doc)
    assert [f for f in findings if not _slot(f)] == []


def test_the_tone_words_pick_the_look() -> None:
    looks = {case: scheme_of(brief, facts).look for case, (brief, facts, *_r) in PAGES.items()}
    assert looks == {"bike": "bold", "dentist": "calm", "photographer": "minimal"}
    minimal = _built(*PAGES["photographer"][:2])["nodes"]
    assert minimal["hero"]["style"]["base"]["background"] == "#ffffff"
    assert "serif" in minimal["hero-heading"]["style"]["base"]["fontFamily"]
    # The tone is a direction, never copy.
    assert not [w for w in _words({"nodes": minimal}) if re.search(r"(?i)elegant|minimal", w)]


@pytest.mark.parametrize(
    "prices",
    [
        "Puncture repair £12; Basic service £45; Full service £95",
        "Puncture repair £12, Basic service £45, Full service £95",
        "Puncture repair: £12\nBasic service: £45\nFull service: £95",
    ],
)
def test_a_price_list_is_one_row_per_price(prices: str) -> None:
    brief = "Spoke & Chain is a bike workshop in Bristol. Sections: prices."
    doc = _built(brief, {"prices": prices})
    nodes = doc["nodes"]
    rows = [n for n in nodes.values() if n["parent"] == "pricing-list"]
    assert len(rows) == 3
    figures = [nodes[f"{r['id']}-figure"]["props"]["content"] for r in rows]
    assert figures == ["£12", "£45", "£95"]
    names = [nodes[f"{r['id']}-name"]["props"]["content"] for r in rows]
    assert names == ["Puncture repair", "Basic service", "Full service"]
    assert PageChecks(facts={"prices": prices}, brief=brief).run(doc) == []


@pytest.mark.parametrize(("brief", "facts"), _every_brief())
def test_no_page_says_a_stock_sentence_or_links_inside_itself(
    brief: str, facts: dict[str, Any]
) -> None:
    doc = _built(brief, facts)
    for words in _words(doc):
        for stock in STOCK:
            assert stock.lower() not in words.lower(), (stock, words)
    hrefs = [n["props"]["href"] for n in doc["nodes"].values() if "href" in n.get("props", {})]
    assert all(h.startswith(("tel:", "mailto:")) for h in hrefs), hrefs
    findings = PageChecks(facts=fact_texts(facts), brief=brief).run(doc)
    assert [f for f in findings if (f.severity == "error" or f.check == "facts") and not _slot(f)] == []


def test_a_section_nothing_feeds_is_left_out() -> None:
    brief = "Oak & Ash is a joinery in York. Sections: team, testimonials, FAQ, pricing, contact."
    plan = plan_page(brief, {"phone": "01904 555 0101"})
    assert [b.root for b in plan.batches] == ["hero", "contact"]


@pytest.mark.parametrize(
    "brief",
    [
        "Brindle & Oak is a bicycle repair workshop in Oxford. Sections: repairs with prices, contact.",
        "Brindle & Oak is a bicycle repair workshop in Oxford. Sections: services and their prices, contact.",
    ],
)
def test_pricing_is_not_said_to_be_missing_when_the_services_show_the_prices(brief: str) -> None:
    facts = {"services": "Puncture repair £12; Full service £65", "phone": "01865 555 0142"}
    plan = plan_page(brief, facts)

    assert [b.root for b in plan.batches] == ["hero", "services", "contact"]
    assert plan.left_out == ()


@pytest.mark.parametrize(
    ("brief", "roots"),
    [
        ("Brindle & Oak is a bicycle repair workshop in Oxford. Sections: pricing, services, contact.",
         ["hero", "pricing", "services", "contact"]),
        ("Lingo Loft is a language school in Leeds. Sections: courses, prices, contact.",
         ["hero", "services", "pricing", "contact"]),
    ],
)  # fmt: skip
def test_a_brief_asking_for_prices_apart_gets_them_from_the_priced_services(
    brief: str, roots: list[str]
) -> None:
    # One fact holds what is offered and its prices; the brief asks for two bands: the
    # services band names the items, the pricing band prices them, nothing is left out.
    facts = {"services": "Puncture repair £12; Full service £65", "phone": "01865 555 0142"}
    plan = plan_page(brief, facts)
    assert [b.root for b in plan.batches] == roots
    assert plan.left_out == ()
    words = {
        b.root: [str(op["node"].get("props", {}).get("content")) for op in b.ops if "node" in op]
        for b in plan.batches
    }
    assert "Puncture repair" in words["services"] and "£12" not in words["services"]
    assert "Puncture repair" in words["pricing"] and "£12" in words["pricing"]


def test_what_we_offer_is_the_offerings_the_facts_list_where_the_brief_asks_for_it() -> None:
    brief = "A page for Kettle & Kiln, a pottery studio: a hero, what we offer, opening hours and how to find us"
    facts = {"hours": "Tue-Sun 9:00-17:00", "address": "14 Mill Lane, Bristol",
             "services": "Pottery classes; Open studio; Kiln hire"}  # fmt: skip
    plan = plan_page(brief, facts)
    assert plan.left_out == ()  # the services fill it: nothing is said to be missing
    assert [b.root for b in plan.batches][:3] == ["hero", "services", "opening-hours"]


def test_three_briefs_give_three_visibly_different_pages() -> None:
    docs = {case: _built(*PAGES[case][:2]) for case in PAGES}
    roots = {
        case: tuple(n["id"] for n in d["nodes"].values() if n["parent"] is None)
        for case, d in docs.items()
    }
    assert len(set(roots.values())) == 3
    heroes = {case: d["nodes"]["hero"]["style"]["base"] for case, d in docs.items()}
    assert len({h["background"] for h in heroes.values()}) == 3
    assert len({h["textAlign"] for h in heroes.values()}) == 2
    layouts = {
        case: tuple(sorted({n["type"] for n in d["nodes"].values()})) for case, d in docs.items()
    }
    assert layouts["photographer"] != layouts["bike"]  # the gallery's image slots


@pytest.mark.parametrize("case", sorted(PAGES))
def test_contact_links_wear_the_page_colour_scheme(case: str) -> None:
    brief, facts, *_rest = PAGES[case]
    nodes = _built(brief, facts)["nodes"]
    accent = scheme_of(brief, facts).accent
    links = [n for n in nodes.values() if n["parent"] and n["parent"].startswith("contact-")]
    linked = [n for n in links if n["type"] == "button"]
    assert linked and all(n["style"]["base"]["color"] == accent for n in linked)
    assert not [n for n in nodes.values() if n["type"] == "link"]


@pytest.mark.parametrize("case", sorted(PAGES))
def test_grids_have_two_columns_only_for_short_words(case: str) -> None:
    nodes = _built(*PAGES[case][:2])["nodes"]
    for grid in (n for n in nodes.values() if n["type"] == "grid"):
        if grid["style"]["base"]["columns"] == 2 and not grid["id"].startswith("gallery"):
            inside = [
                n
                for n in nodes.values()
                if nodes.get(n["parent"] or "", {}).get("parent") == grid["id"]
            ]
            longest = max(len(w) for n in inside for w in _words({"nodes": {"n": n}})[0].split())
            assert longest <= 12, grid["id"]


@pytest.mark.parametrize(
    ("brief", "title"),
    [
        (
            "Stillwater Yoga is a yoga studio offering vinyasa, yin yoga and beginners' courses. "
            "Sections: classes, contact.",
            "Classes",
        ),
        (
            "Brightsmile Dental is a dentist offering check-ups and whitening. Sections: treatments.",
            "Treatments",
        ),
        ("Fixit is a workshop repairing bikes and scooters. Sections: services.", "Services"),
    ],
)
def test_a_section_is_titled_as_the_brief_calls_it(brief: str, title: str) -> None:
    services = next(b for b in plan_page(brief, {}).batches if b.root == "services")
    assert services.ops[1]["node"]["props"] == {"content": title, "level": 2}


def _slot(finding: Finding) -> bool:
    """A gallery's image slot, left for a person to fill: a placeholder until they do."""
    return finding.code == "placeholder" and "-slot-" in (finding.node or "")
