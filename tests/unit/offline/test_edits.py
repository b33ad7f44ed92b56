"""Requests against a page: targets resolved on the page as it is, ops that say only what is known."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from charlotte.offline.edits import Context, Edit, Refusal, section_of
from charlotte.offline.intents import edit_for, read_requests
from charlotte.offline.requests import (
    AddSection,
    ChangeFact,
    MoveSection,
    RemoveSection,
    SetText,
    Target,
)
from charlotte.page.model import empty_doc
from charlotte.page.session import PageSession
from charlotte.sections.additions import section_batch
from charlotte.sections.fact_changes import phone_runs
from charlotte.sections.page_view import PageView

CONTEXT = Context("Crumb & Co is a bakery in Leeds.", {"name": "Crumb & Co"})


def _node(node_id: str, kind: str, parent: str | None, **props: Any) -> dict[str, Any]:
    return {"id": node_id, "type": kind, "parent": parent, "props": props, "style": {}}


# A page a person made by hand: no builder ids, its own titles.
HAND_MADE = [
    _node("top", "section", None),
    _node("big", "heading", "top", content="Crumb", level=1),
    _node("specials", "section", None),
    _node("specials-title", "heading", "specials", content="Today's specials", level=2),
    _node("line", "text", "specials", content="Ring 0113 496 0321 to order."),
    _node("times", "section", None),
    _node("times-title", "heading", "times", content="When the doors open", level=2),
    _node("times-text", "text", "times", content="Mon-Fri 8.30-17.30, Sat 9.00-13.00"),
]


def test_phone_runs_are_what_the_checks_read_as_phone_numbers() -> None:
    text = "Call +44 (0)20 7946 0958 or 0113 496 0321; open 8.30-17.30; since 2024-2025."
    assert [text[a:b] for a, b in phone_runs(text)] == ["+44 (0)20 7946 0958", "0113 496 0321"]


def test_targets_on_a_hand_made_page_are_found_by_their_words() -> None:
    page = PageView(HAND_MADE)

    assert page.hero() == "top"
    assert page.section("specials") == "specials"
    assert page.section("opening hours") is None  # no kind words and no such words
    assert page.section("when the doors open") == "times"
    # A title in words a person calls a kind by names that kind (sections.KIND_NAMES).
    named = PageView([*HAND_MADE[:5], {**HAND_MADE[6], "props": {"content": "When we are open"}},
                      *HAND_MADE[5:6], HAND_MADE[7]])  # fmt: skip
    assert named.kind("times") == "hours" and named.section("opening hours") == "times"
    edit = edit_for(SetText(Target("specials", "heading"), "This week"), page, CONTEXT)
    assert isinstance(edit, Edit)
    assert edit.ops == (
        {"t": "set_node_props", "id": "specials-title", "patch": {"content": "This week"}},
    )


def test_a_phone_change_touches_only_the_phone_not_the_opening_hours() -> None:
    edit = edit_for(ChangeFact("phone", "+44 113 496 0999"), PageView(HAND_MADE), CONTEXT)

    assert isinstance(edit, Edit)
    assert edit.ops == (
        {
            "t": "set_node_props",
            "id": "line",
            "patch": {"content": "Ring +44 113 496 0999 to order."},
        },
    )


def test_what_is_not_on_the_page_is_refused_with_a_reason() -> None:
    page = PageView(HAND_MADE)

    for request, words in [
        (RemoveSection("gallery"), "no gallery section"),
        (MoveSection("specials", "above", "pricing"), "no pricing section"),
        (MoveSection("top", "top"), "already at the top"),
        (ChangeFact("email", "hi@crumb.test"), "no e-mail address"),
        (ChangeFact("phone", "call me"), "does not read as a phone number"),
        (AddSection("faq"), "say nothing"),
    ]:
        refused = edit_for(request, page, CONTEXT)
        assert isinstance(refused, Refusal) and words in refused.reason, (request, refused)


def test_a_moved_section_is_placed_by_reordering_every_root() -> None:
    edit = edit_for(
        MoveSection("when the doors open", "above", "specials"), PageView(HAND_MADE), CONTEXT
    )

    assert isinstance(edit, Edit)
    assert edit.ops == ({"t": "reorder_roots", "order": ["top", "times", "specials"]},)


def test_a_moved_section_alone_gets_a_new_key_and_no_other_band_moves() -> None:
    # Three bands with keys: moving the last one under the hero re-keys only it, so the
    # band it passes keeps its key (reorder_roots re-mints every key, moving it too).
    keyed = [{**n, "order": k} for n, k in zip(HAND_MADE, ("a", "", "b", "", "", "c", "", ""), strict=True)]
    keyed = [{k: v for k, v in n.items() if v != ""} for n in keyed]
    page = PageView(keyed)

    edit = edit_for(MoveSection("when the doors open", "top"), page, CONTEXT)

    assert isinstance(edit, Edit)
    assert len(edit.ops) == 1 and edit.ops[0]["t"] == "move_node" and edit.ops[0]["id"] == "times"
    assert "a" < edit.ops[0]["order"] < "b"


def test_a_band_is_found_by_a_word_its_kind_is_fed_from_only_when_that_is_certain() -> None:
    team = [_node("hero", "section", None), _node("hero-h", "heading", "hero", content="Cuts", level=1),
            _node("team", "section", None), _node("team-h", "heading", "team", content="Team", level=2),
            _node("pricing", "section", None), _node("pricing-h", "heading", "pricing", content="Prices", level=2)]  # fmt: skip
    page = PageView(team)

    assert section_of(page, "meet the stylists") == "team"
    assert section_of(page, "the packages") == "pricing"
    assert section_of(page, "the stylists and packages") is None  # not one word
    assert section_of(PageView(HAND_MADE), "the stylists") is None  # no team band
    edit = edit_for(MoveSection("meet the stylists", "bottom"), page, CONTEXT)
    assert isinstance(edit, Edit) and "moved the Team section" in edit.said


def test_an_added_section_gets_ids_clear_of_the_page_and_applies() -> None:
    facts = {"name": "Crumb & Co", "phone": "0113 496 0321", "address": "12 Kirkgate, Leeds"}
    first = section_batch("faq", CONTEXT.brief, facts, index=1, taken_ids=())
    assert first is not None
    taken = set(first.node_ids())

    batch = section_batch("faq", CONTEXT.brief, facts, index=1, taken_ids=taken)

    assert batch is not None and batch.root == f"{first.root}-2"
    ids = [op["node"]["id"] for op in batch.ops if "node" in op]
    assert ids and not set(ids) & taken
    page = PageSession(empty_doc("home"))
    page.apply(list(batch.ops), based_on=0, actor="agent", fill_defaults=True)  # raises if invalid
    assert page.revision > 0
    assert section_batch("pricing", CONTEXT.brief, facts, index=1, taken_ids=()) is None
    assert section_batch("location", CONTEXT.brief, {"name": "x"}, index=1, taken_ids=()) is None


_SECTIONS = ("the specials", "when the doors open", "the hero", "top", "the gallery", "contact")
_PLACES = ("", " at the top", " at the bottom", " above {s}", " below {s}")
_ADDS = ("an FAQ", "a gallery", "a location section", "a call to action", "opening hours")
_QUOTED = ("Crumb", "Ring", "specials", "nothing here")
_PHONES = ("+44 113 496 0999", "0113 496 0999", "12345")
_LOOKS = (
    "use a warmer palette", "make the background dark", "make the background light",
    "change the accent colour to #2a7", "use a serif font", "make it more minimal", "make it bolder",
    "use a darker palette", "use a cooler palette", "use a white background",
)  # fmt: skip
FACTS = {"name": "Crumb", "phone": "0113 496 0321", "address": "1 Kirkgate", "hours": "Mon 9-5"}


@st.composite
def _request(draw: st.DrawFn) -> str:
    """One request in ordinary words, naming the page's sections (or none) and free new words."""
    section, other = draw(st.sampled_from(_SECTIONS)), draw(st.sampled_from(_SECTIONS))
    place = draw(st.sampled_from(_PLACES)).format(s=other)
    words = draw(
        st.text(st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=320)
    )
    part = draw(st.sampled_from(("heading", "text", "button", "title")))
    size = draw(st.sampled_from(("shorter", "longer")))
    return draw(
        st.sampled_from(
            [
                f"add {draw(st.sampled_from(_ADDS))}{place}",
                f"move {section}{place or ' to the top'}",
                f"remove {section}",
                f"change the {part} of {section} to '{words}'",
                f"make the {section} {part} {size}",
                f"change the phone number to {draw(st.sampled_from(_PHONES))}",
                f"change the address to {words}",
                f"change '{draw(st.sampled_from(_QUOTED))}' to '{words}'",
                draw(st.sampled_from(_LOOKS)),
            ]
        )
    )


def _hand_made_page() -> PageSession:
    styled = [{**n, "style": {"base": {"color": "#c2410c"}}} for n in HAND_MADE]
    page = PageSession(empty_doc("home"))
    page.apply(
        [{"t": "insert_node", "node": n} for n in styled],
        based_on=0,
        actor="human",
        fill_defaults=True,
    )
    return page


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_request(), min_size=1, max_size=3))
def test_any_request_gives_ops_the_page_accepts_or_a_reason(messages: list[str]) -> None:
    view = PageView(list(_hand_made_page().doc["nodes"].values()))
    for request in read_requests(". ".join(messages)):
        outcome = edit_for(request, view, Context(CONTEXT.brief, FACTS))
        assert isinstance(outcome, Edit | Refusal)
        if isinstance(outcome, Edit):
            assert outcome.said and 0 < len(outcome.ops) <= 200
            # Each request on a fresh copy of the page: every op is one the page accepts.
            fresh = _hand_made_page()
            fresh.apply(
                list(outcome.ops), based_on=fresh.revision, actor="agent", fill_defaults=True
            )
