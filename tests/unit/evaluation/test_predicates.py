"""Each predicate of the vocabulary, true and false, on small hand-made documents."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.evaluation.predicates import Turn, judge, problem_of, sections_of


def _node(node_id: str, kind: str, parent: str | None, order: str, **props: Any) -> dict[str, Any]:
    return {
        "id": node_id,
        "type": kind,
        "parent": parent,
        "order": order,
        "props": props,
        "style": {},
    }


def _doc(*nodes: dict[str, Any]) -> dict[str, Any]:
    return {
        "meta": {"title": "t"},
        "theme": {"name": "default"},
        "nodes": {n["id"]: n for n in nodes},
    }


def _styled(node: dict[str, Any], **base: Any) -> dict[str, Any]:
    return {**node, "style": {"base": base}}


HERO = [
    _node("hero", "section", None, "a"),
    _node("hero-heading", "heading", "hero", "a", content="Clay and Kiln Studio", level=1),
    _node("hero-text", "text", "hero", "b", content="Pottery classes in Leeds."),
]
SERVICES = [
    _node("services", "section", None, "b"),
    _node("services-heading", "heading", "services", "a", content="Services", level=2),
    _node("services-grid", "grid", "services", "b"),
    *[_node(f"card-{n}", "card", "services-grid", str(n)) for n in range(3)],
]
# A section named only by its heading (as a model that picks its own ids writes it).
PRICING = [
    _node("band-3", "section", None, "c"),
    _node("band-3-heading", "heading", "band-3", "a", content="Our prices", level=2),
    _node("band-3-text", "text", "band-3", "b", content="Wheel course £180. Call 0113 496 0123."),
]
PAGE = _doc(*HERO, *SERVICES, *PRICING)


def _judge(predicate: dict[str, Any], doc: dict[str, Any] = PAGE, **turn: Any) -> bool:
    assert problem_of(predicate) is None
    return judge(predicate, Turn(doc, turn.pop("before", doc), **turn)).passed


def test_sections_are_named_by_id_or_by_their_heading() -> None:
    assert sections_of(PAGE) == [("hero", "hero"), ("services", "services"), ("band-3", "pricing")]


def test_section_and_no_section() -> None:
    assert _judge({"section": "pricing"}) and not _judge({"section": "faq"})
    assert _judge({"no_section": "faq"}) and not _judge({"no_section": "services"})
    assert _judge({"section": "band-3"})  # an exact id names a section too


def test_text_contains_and_text_absent() -> None:
    hero_heading = {"within": "hero", "type": "heading"}
    assert _judge({"text_contains": {**hero_heading, "words": ["clay", "Kiln"]}})
    assert not _judge(
        {"text_contains": {**hero_heading, "words": ["Leeds"]}}
    )  # in the text, not the heading
    assert _judge({"text_contains": {"within": "hero", "words": ["Leeds"]}})
    assert _judge({"text_absent": {"words": ["0161"]}})
    assert not _judge({"text_absent": {"words": ["0113 496"]}})


def test_text_contains_reads_a_row_as_one_line_but_never_a_band_or_a_typed_node() -> None:
    rows = [
        _node("prices", "section", None, "d"),
        _node("prices-heading", "heading", "prices", "a", content="Prices", level=2),
        _node("prices-list", "stack", "prices", "b"),
        _node("row-1", "stack", "prices-list", "a"),
        _node("row-1-name", "text", "row-1", "a", content="A-level tutoring"),
        _node("row-1-figure", "text", "row-1", "b", content="£45 an hour"),
        _node("row-2", "stack", "prices-list", "b"),
        _node("row-2-name", "text", "row-2", "a", content="GCSE tutoring"),
        _node("row-2-figure", "text", "row-2", "b", content="£38 an hour"),
    ]
    doc = _doc(*HERO, *rows)
    assert _judge({"text_contains": {"words": ["A-level", "£45"]}}, doc)
    assert _judge({"text_contains": {"within": "prices", "words": ["GCSE", "£38"]}}, doc)
    assert not _judge({"text_contains": {"words": ["A-level", "£38"]}}, doc)  # two rows, not one
    assert not _judge({"text_contains": {"type": "text", "words": ["A-level", "£45"]}}, doc)
    # A band's heading and text are not one line.
    assert not _judge({"text_contains": {"within": "hero", "words": ["Studio", "Leeds"]}}, doc)


def test_order() -> None:
    assert _judge({"order": ["hero", "services", "pricing"]})
    assert not _judge({"order": ["pricing", "services"]})
    assert not _judge({"order": ["faq", "services"]})  # absent: not in order


def test_count() -> None:
    assert _judge({"count": {"type": "card", "within": "services", "min": 3}})
    assert not _judge({"count": {"type": "card", "within": "services", "min": 4}})
    assert not _judge({"count": {"type": "card", "min": 1, "max": 2}})


def test_max_words_shorter_and_longer() -> None:
    hero_heading = {"within": "hero", "type": "heading"}
    assert _judge({"max_words": {**hero_heading, "n": 4}})
    assert not _judge({"max_words": {**hero_heading, "n": 3}})
    short = _doc(
        *[n if n["id"] != "hero-heading" else {**n, "props": {"content": "Clay"}} for n in HERO]
    )
    assert _judge({"shorter": hero_heading}, short, before=PAGE)
    assert not _judge({"shorter": hero_heading}, PAGE, before=PAGE)
    assert _judge({"longer": hero_heading}, PAGE, before=short)
    assert not _judge({"longer": hero_heading}, short, before=PAGE)


def test_fact_reads_claims_and_words() -> None:
    assert _judge({"fact": {"phone": "+44 113 496 0123", "price": "£180"}})
    assert not _judge({"fact": {"phone": "0113 496 0999"}})
    assert _judge({"fact": {"address": "pottery classes in  LEEDS"}})  # no claim in it: its words
    assert not _judge({"fact": {"address": "4 Mill Yard"}})


def test_a_fact_split_over_a_row_is_stated_by_the_row() -> None:
    row = _doc(
        _node("hours", "section", None, "a"),
        _node("hours-row", "stack", "hours", "a"),
        _node("hours-row-name", "text", "hours-row", "a", content="Tue-Sun"),
        _node("hours-row-figure", "text", "hours-row", "b", content="7:00-14:00"),
    )
    assert _judge({"fact": {"hours": "Tue-Sun 7:00-14:00"}}, row)
    assert not _judge({"fact": {"hours": "Mon-Sat 7:00-14:00"}}, row)
    assert _judge({"fact": {"team": "Tue-Sun; 7:00-14:00"}}, row)  # a list fact, item by item
    assert _judge({"fact": {"team": "Tue-Sun, 7:00-14:00"}}, row)
    assert not _judge({"fact": {"team": "Tue-Sun; Mia"}}, row)


def test_unchanged_ready_and_reply() -> None:
    moved = _doc(
        *HERO, *SERVICES, *[{**n, "order": "0"} if n["id"] == "band-3" else n for n in PRICING]
    )
    assert _judge({"unchanged": True}) and not _judge({"unchanged": True}, moved, before=PAGE)
    assert _judge({"unchanged": False}, moved, before=PAGE)
    assert _judge({"ready": False}) and not _judge({"ready": False}, ready=True)
    assert _judge(
        {"reply_mentions": ["cannot"]},
        reply="I cannot add a calendar; I can add a contact section.",
    )
    assert not _judge({"reply_mentions": ["cannot"]}, reply="Done!")


def _coloured(hero: str, body: str, font: str = "system-ui, sans-serif") -> dict[str, Any]:
    return _doc(
        _styled(HERO[0], background=hero),
        _styled(HERO[1], fontFamily=font, color="#ffffff"),
        _styled(SERVICES[0], background=body),
        _styled(SERVICES[1], fontFamily=font),
    )


def test_theme() -> None:
    cold, warm = _coloured("#1e3a8a", "#eef2ff"), _coloured("#7c2d12", "#fff7ed")
    dark = _coloured("#111827", "#1f2937")
    assert _judge({"theme": {"dark": True}}, dark) and not _judge({"theme": {"dark": True}}, cold)
    assert _judge({"theme": {"warmer": True}}, warm, before=cold)
    assert not _judge({"theme": {"warmer": True}}, cold, before=warm)
    assert _judge({"theme": {"hue": "blue", "within": "hero"}}, cold)
    assert not _judge({"theme": {"hue": "blue", "within": "hero"}}, warm)
    # Minimal: light bands below the hero (the hero may stay bold).
    assert _judge({"theme": {"minimal": True}}, _coloured("#ffffff", "#f9fafb"))
    assert _judge({"theme": {"minimal": True}}, _coloured("#111111", "#ffffff"))
    assert not _judge({"theme": {"minimal": True}}, _coloured("#ffffff", "#1e3a8a"))
    serif = _coloured("#fff", "#fff", font="Georgia, Times New Roman, serif")
    assert _judge({"theme": {"serif": True}}, serif) and not _judge(
        {"theme": {"serif": True}}, cold
    )


@pytest.mark.parametrize(
    ("predicate", "problem"),
    [
        ({"sectoin": "faq"}, "unknown predicate 'sectoin'"),
        ({"section": "faq", "order": ["a", "b"]}, "a predicate is an object with one key"),
        ({"section": ""}, "section must name a section kind or id"),
        ({"order": ["faq"]}, "order must list 2+ sections"),
        (
            {"text_contains": {"within": "hero"}},
            "text_contains words must be a non-empty list of strings",
        ),
        ({"count": {"type": "card", "min": -1}}, "count min must be a whole number ≥ 0"),
        (
            {"max_words": {"within": "hero", "n": 2, "colour": "red"}},
            "max_words unknown field 'colour'",
        ),
        (
            {"theme": {"hue": "beige"}},
            "theme hue must be one of blue, green, orange, pink, purple, red, teal, yellow",
        ),
        ({"fact": {"phone": 7}}, "fact must be an object of non-empty strings"),
        ({"unchanged": "yes"}, "unchanged must be true or false"),
    ],
)
def test_a_bad_predicate_is_one_line(predicate: dict[str, Any], problem: str) -> None:
    assert problem_of(predicate) == problem


def test_a_quote_fact_is_shown_in_its_own_marks_with_who_said_it_apart() -> None:
    card = [
        _node("reviews", "section", None, "d"),
        _node("reviews-card", "card", "reviews", "a"),
        _node("reviews-text", "text", "reviews-card", "a", content="“Came home to a spotless house”"),
        _node("reviews-by", "text", "reviews-card", "b", content="Nadia"),
    ]
    doc = _doc(*HERO, *card)
    assert _judge({"fact": {"reviews": '"Came home to a spotless house" - Nadia'}}, doc)
    assert not _judge({"fact": {"reviews": '"Came home to a spotless house" - Sam'}}, doc)
    assert not _judge({"fact": {"reviews": '"Came home to a clean house" - Nadia'}}, doc)


def test_a_fact_listed_on_lines_of_its_own_or_in_single_quotes_is_read_item_by_item() -> None:
    grid = [
        _node("reviews", "section", None, "d"),
        _node("r1", "card", "reviews", "a"),
        _node("r1-text", "text", "r1", "a", content="“So gentle with my kids”"),
        _node("r1-by", "text", "r1", "b", content="Imran"),
        _node("areas", "section", None, "e"),
        *[_node(f"area-{n}", "text", "areas", str(n), content=a) for n, a in enumerate(("Oadby", "Wigston"))],
    ]
    doc = _doc(*HERO, *grid)
    assert _judge({"fact": {"reviews": "'So gentle with my kids' - Imran"}}, doc)
    assert _judge({"fact": {"areas": "• Oadby\n• Wigston"}}, doc)
    assert not _judge({"fact": {"areas": "• Oadby\n• Syston"}}, doc)
    assert not _judge({"fact": {"reviews": "'So gentle with my kids' - Sam"}}, doc)
