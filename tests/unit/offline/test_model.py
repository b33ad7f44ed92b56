"""The offline builder drives a real Agent whose nine real page tools write to real SQLite."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest
import sqlalchemy as sa
from pydantic_ai.messages import ModelResponse
from tests.support.units import call_tool, in_unit
from tests.unit.offline.agent_harness import Harness, harness_on, tool_exchanges
from tests.unit.sections.briefs import BAKERY, CASES, DENTIST, DIRECTED, SAAS

from charlotte.checks import PageChecks
from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.offline.model import MAX_FAILURES
from charlotte.page.node_types import ID_PATTERN, MAX_OPS_PER_APPLY
from charlotte.page.session import PageSession
from charlotte.sections.writer import plan_page
from charlotte.storage import SessionRecord
from charlotte.tools import PageTools, ToolBinding, failure


@pytest.fixture
def make(sqlite_engine: sa.Engine) -> Callable[..., Harness]:
    ws = Workspace(sqlite_engine, links=SiteLinks("https://site.test"))
    tools = PageTools(ws)
    count = iter(range(1000))

    def build(brief: str, facts: dict[str, Any], page: str | None = None) -> Harness:
        return harness_on(ws, tools, brief, facts, page=page or f"page-{next(count)}")

    return build


def _copy(doc: dict[str, Any]) -> str:
    words = []
    for node in doc["nodes"].values():
        props = node.get("props", {})
        words += [str(props[k]) for k in ("content", "label") if k in props]
    return "\n".join(words)


def _errors(h: Harness) -> list[dict[str, Any]]:
    result = call_tool(h.tools, "cms_check", {}, h.binding)
    return [f for f in result["findings"] if f["severity"] == "error"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_builds_a_valid_checked_page_through_the_tools(
    make: Callable[..., Harness], case: str
) -> None:
    brief, facts, name, shown = CASES[case]
    h = make(brief, facts)

    result = h.run()

    doc = h.doc()
    page = PageSession(doc)  # loads: the stored page is valid
    assert page.revision == doc["seq"] > 0
    headings = [n for n in doc["nodes"].values() if n["type"] == "heading"]
    assert any(n["props"]["content"] == name and n["props"]["level"] == 1 for n in headings)
    copy = _copy(doc)
    for text in shown:
        assert text in copy
    assert _errors(h) == []
    # A hero with a heading, a subheading and a button that calls or writes to the business;
    # no link inside the page (the rendered page has no ids to scroll to).
    hero = [n for n in doc["nodes"].values() if n.get("parent") == "hero"]
    assert sorted(n["type"] for n in hero) == ["button", "heading", "text"]
    assert doc["nodes"]["hero-button"]["props"]["href"].startswith(("tel:", "mailto:"))
    hrefs = [n["props"].get("href") for n in doc["nodes"].values() if "href" in n.get("props", {})]
    assert not [h for h in hrefs if h.startswith("#")]
    assert all(re.match(ID_PATTERN, node_id) for node_id in doc["nodes"])
    assert doc["meta"]["title"] == name
    assert name in result.output


def test_every_step_is_a_real_tool_call_with_basedon_from_the_previous_result(
    make: Callable[..., Harness],
) -> None:
    h = make(*BAKERY)

    result = h.run()

    exchanges = tool_exchanges(result.all_messages())
    names = [name for name, _, _ in exchanges]
    assert names == h.calls  # every call the model made reached the tools
    assert names[:3] == ["cms_facts", "cms_types", "cms_outline"]
    assert names[-4:] == ["cms_check", "cms_find", "cms_get", "cms_ready"]
    applies = [i for i, name in enumerate(names) if name == "cms_apply"]
    assert len(applies) >= 4
    based = [exchanges[i][1]["basedOn"] for i in applies]
    assert based == sorted(set(based)) and based[0] == 0
    for i in applies:
        assert exchanges[i][1]["basedOn"] == exchanges[i - 1][2]["revision"]
        assert "isError" not in exchanges[i][2]
        assert len(exchanges[i][1]["ops"]) <= MAX_OPS_PER_APPLY
    ready = exchanges[-1][2]
    assert ready["ready"] is True and "Crumb & Co" in ready["summary"]
    found = next(r for name, _, r in exchanges if name == "cms_find")
    assert found["total"] >= 3 and f"appears in {found['total']} places" in ready["summary"]
    assert "menu, about us, opening hours" in ready["summary"]
    last = result.all_messages()[-1]
    assert isinstance(last, ModelResponse) and last.finish_reason == "stop"


def test_three_briefs_give_three_different_pages(make: Callable[..., Harness]) -> None:
    docs = []
    for brief, facts, _name, _shown in CASES.values():
        h = make(brief, facts)
        h.run()
        docs.append(h.doc())
    roots = [
        tuple(sorted(n["id"] for n in d["nodes"].values() if n["parent"] is None)) for d in docs
    ]
    assert len(set(roots)) == 3
    backgrounds = {d["nodes"]["hero"]["style"]["base"]["background"] for d in docs}
    assert len(backgrounds) == 3


def test_same_brief_gives_the_same_page_and_the_same_steps(make: Callable[..., Harness]) -> None:
    first, second = make(*DENTIST, page="same"), make(*DENTIST, page="same-too")

    one, two = first.run(), second.run()

    def strip(doc: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in doc.items() if k != "id"}

    assert strip(first.doc()) == strip(second.doc())
    assert [(n, a) for n, a, _ in tool_exchanges(one.all_messages())] == [
        (n, a) for n, a, _ in tool_exchanges(two.all_messages())
    ]


def test_streamed_run_builds_the_same_page(make: Callable[..., Harness]) -> None:
    plain, streamed = make(*SAAS), make(*SAAS)
    plain.run()

    async def stream() -> list[Any]:
        seen = []
        async with streamed.agent().run_stream_events(
            "Build the page.", deps=streamed.binding
        ) as events:
            async for event in events:
                seen.append(event)
        return seen

    events = asyncio.run(stream())

    assert {k: v for k, v in streamed.doc().items() if k != "id"} == {
        k: v for k, v in plain.doc().items() if k != "id"
    }
    assert streamed.calls == plain.calls
    assert type(events[-1]).__name__ == "AgentRunResultEvent"
    assert "Ledgerly" in events[-1].result.output


def test_a_continued_run_does_not_duplicate_nodes(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)
    first = h.run()
    before = h.doc()
    h.calls.clear()

    second = h.run("Please check the page again.", history=first.all_messages())

    assert h.doc()["nodes"] == before["nodes"]
    assert "cms_apply" not in h.calls
    assert h.calls[:3] == ["cms_facts", "cms_types", "cms_outline"] and h.calls[-1] == "cms_ready"
    assert "ready for review" in second.output


def test_a_continued_run_finishes_a_half_built_page(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)
    first = h.run()
    h.human_edit([{"t": "remove_node", "id": "contact"}])
    # A fresh history on the same page: nothing tells it a person removed the contact section.
    second = make(*BAKERY, page=h.session.page)

    second.run()

    nodes = second.doc()["nodes"]
    assert "contact" in nodes and "contact-phone" in nodes
    assert second.calls.count("cms_apply") == 1
    assert len([n for n in nodes.values() if n["parent"] is None]) == len(
        plan_page(*BAKERY).batches
    )
    assert first.output


def test_a_human_edit_between_batches_is_recovered(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)

    def edit(n: int) -> None:
        if n == 2:
            h.human_edit(
                [
                    {
                        "t": "set_node_props",
                        "id": "hero-text",
                        "patch": {"content": "Fresh every day."},
                    }
                ]
            )

    h.before_apply = edit

    result = h.run()

    names = [name for name, _, _ in tool_exchanges(result.all_messages())]
    stale = [
        r
        for name, _, r in tool_exchanges(result.all_messages())
        if name == "cms_apply" and r.get("isError")
    ]
    assert [r["error"]["code"] for r in stale] == ["stale_revision"]
    at = names.index("cms_changes_since")
    assert (
        names[at - 1] == "cms_apply"
        and names[at + 1] == "cms_outline"
        and names[at + 2] == "cms_apply"
    )
    doc = h.doc()
    assert (
        doc["nodes"]["hero-text"]["props"]["content"] == "Fresh every day."
    )  # the person's edit stands
    roots = sorted(n["id"] for n in doc["nodes"].values() if n["parent"] is None)
    assert roots == sorted(b.root for b in plan_page(*BAKERY).batches)
    assert names[-1] == "cms_ready" and _errors(h) == []


def test_a_node_a_person_removed_is_not_put_back(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)

    def edit(n: int) -> None:
        if n == 2:
            h.human_edit([{"t": "remove_node", "id": "hero"}])

    h.before_apply = edit

    h.run()

    nodes = h.doc()["nodes"]
    assert "hero" not in nodes and "menu" in nodes and "contact" in nodes
    assert h.calls[-1] == "cms_ready"


def _without_facts(
    session: SessionRecord, links: SiteLinks, said: Sequence[str], vouched: Sequence[str]
) -> PageChecks:
    """Checks that forget the host's facts: the builder's own prices and phone are unsupported."""
    return PageChecks(brief=session.brief, site_origin=links.site_origin)


def test_check_findings_in_what_the_turn_wrote_are_fixed_before_ready(
    make: Callable[..., Harness],
) -> None:
    h = make(*BAKERY)
    h.tools = PageTools(h.ws, checks_factory=_without_facts)

    result = h.run()

    exchanges = tool_exchanges(result.all_messages())
    checks = [r for name, _, r in exchanges if name == "cms_check"]
    assert len(checks) == 2
    # Errors, and the facts check's warnings too (an opening time nobody gave).
    flagged = {f["node"] for f in checks[0]["findings"] if f["severity"] == "error" or f["check"] == "facts"}
    assert flagged and not [f for f in checks[1]["findings"] if f["severity"] == "error"]
    fix = next(
        a for name, a, _ in exchanges if name == "cms_apply" and a["ops"][0]["t"] == "remove_node"
    )
    assert {op["id"] for op in fix["ops"]} == flagged
    assert not flagged & set(h.doc()["nodes"])
    assert exchanges[-1][0] == "cms_ready" and exchanges[-1][2]["ready"] is True


def test_what_was_on_the_page_is_never_removed_to_pass_the_checks(
    make: Callable[..., Harness],
) -> None:
    h = make(*BAKERY)
    # An earlier agent's words no brief, fact or person backs: the checks report them.
    in_unit(h.ws, h.session.id, h.session.tenant).agent_apply([
        {"t": "insert_node", "node": {"id": "promo", "type": "section", "parent": None}},
        {"t": "insert_node", "node": {"id": "promo-text", "type": "text", "parent": "promo",
                                      "props": {"content": "Loaves from £7.99 today only."}}},
    ], based_on=0)  # fmt: skip
    assert [f["code"] for f in _errors(h)] == ["unsupported_price", "no_h1"]

    result = h.run()

    exchanges = tool_exchanges(result.all_messages())
    removed = [op for n, a, _ in exchanges if n == "cms_apply" for op in a["ops"] if op["t"] == "remove_node"]
    assert removed == []
    assert h.doc()["nodes"]["promo-text"]["props"]["content"] == "Loaves from £7.99 today only."
    assert "ready" not in [r.get("ready") and "ready" for n, _, r in exchanges if n == "cms_ready"]
    assert "not ready yet: the checks report unsupported_price" in result.output
    assert "I changed nothing that was there before" in result.output


def test_a_persons_own_words_are_evidence_and_stay(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)
    h.human_edit([
        {"t": "insert_node", "node": {"id": "promo", "type": "section", "parent": None}},
        {"t": "insert_node", "node": {"id": "promo-text", "type": "text", "parent": "promo",
                                      "props": {"content": "Loaves from £7.99 today only."}}},
    ])  # fmt: skip
    assert [f["code"] for f in _errors(h)] == ["no_h1"]  # the run builds the hero's

    result = h.run()

    assert h.doc()["nodes"]["promo-text"]["props"]["content"] == "Loaves from £7.99 today only."
    assert h.calls[-1] == "cms_ready" and "ready for review" in result.output


def test_an_unfixable_page_ends_not_ready_without_looping(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)
    # Checks that report a page-level error whatever the page: nothing the builder can fix.
    h.tools = PageTools(h.ws, checks_factory=_always_failing)

    result = h.run()

    assert h.calls.count("cms_check") <= 3 and h.calls.count("cms_ready") == 1
    assert "not ready" in result.output


def _always_failing(
    session: SessionRecord, links: SiteLinks, said: Sequence[str], vouched: Sequence[str]
) -> Any:
    class Failing:
        def run(self, doc: object, only: object = None) -> list[Any]:
            from charlotte.checks import Finding

            return [Finding("links", None, "error", "unsafe_link", "The page has a problem.")]

    return Failing()


def test_tools_that_always_fail_end_the_run(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)
    h.binding = ToolBinding(
        h.session.id, h.session.tenant, h.session.page, "charlotte:someone-else"
    )

    result = h.run()

    assert len(h.calls) <= MAX_FAILURES
    assert result.output


def test_a_refused_batch_is_skipped_and_the_rest_is_built(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)
    # A person's node already holds an id the menu batch needs: that batch is refused.
    h.human_edit(
        [
            {"t": "insert_node", "node": {"id": "specials", "type": "section", "parent": None}},
            {
                "t": "insert_node",
                "node": {
                    "id": "menu-heading",
                    "type": "heading",
                    "parent": "specials",
                    "props": {"content": "Specials", "level": 2},
                },
            },
        ]
    )

    result = h.run()

    refused = [
        r["error"]
        for n, _, r in tool_exchanges(result.all_messages())
        if n == "cms_apply" and r.get("isError")
    ]
    assert [e["code"] for e in refused] == ["duplicate_id"]
    nodes = h.doc()["nodes"]
    assert "menu" not in nodes and {"hero", "about-us", "opening-hours", "contact"} <= set(nodes)
    assert h.calls[-1] == "cms_ready" and "ready for review" in result.output


def test_a_page_it_cannot_read_is_never_called_ready(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)
    tools = h.tools

    class NoOutline:
        def definitions(self) -> Any:
            return tools.definitions()

        def call(self, name: str, args: Any, binding: ToolBinding) -> Any:
            if name == "cms_outline":
                return failure("not_found", None)
            return call_tool(tools, name, args, binding)

    h.tools = NoOutline()  # type: ignore[assignment]

    result = h.run()

    assert h.calls.count("cms_outline") == 2
    assert "cms_apply" not in h.calls and "cms_ready" not in h.calls
    assert "not ready" in result.output


@pytest.mark.parametrize("case", sorted(DIRECTED))
def test_directions_in_the_brief_never_become_copy(make: Callable[..., Harness], case: str) -> None:
    brief, facts, directions, _offers, _links = DIRECTED[case]
    h = make(brief, facts)

    h.run()

    copy = _copy(h.doc())
    for words in directions:
        assert words.lower() not in copy.lower()


@pytest.mark.parametrize("case", sorted(DIRECTED))
def test_the_offerings_the_brief_names_are_shown_as_cards(
    make: Callable[..., Harness], case: str
) -> None:
    brief, facts, _directions, offers, _links = DIRECTED[case]
    h = make(brief, facts)

    h.run()

    nodes = h.doc()["nodes"]
    titles = [
        n["props"]["content"]
        for n in nodes.values()
        if n["type"] == "heading" and nodes[n["parent"]]["type"] == "card"
    ]
    for offer in offers:
        assert offer in titles
    assert not [n for n in nodes.values() if "what is on the menu" in str(n.get("props"))]


@pytest.mark.parametrize("case", sorted(DIRECTED))
def test_contact_facts_are_shown_with_safe_links(make: Callable[..., Harness], case: str) -> None:
    brief, facts, _directions, _offers, links = DIRECTED[case]
    h = make(brief, facts)

    h.run()

    nodes = h.doc()["nodes"]
    # Contact values are buttons: a button's link takes the page's colour, a plain link
    # shows the browser's blue.
    shown = {
        (n["props"]["href"], n["props"]["label"])
        for n in nodes.values()
        if n["type"] == "button" and n["parent"] != "hero"
    }
    for href, words in links.items():
        assert (href, words or href.removeprefix("mailto:")) in shown
    hrefs = [n["props"]["href"] for n in nodes.values() if "href" in n.get("props", {})]
    assert all(href.startswith(("tel:+", "mailto:", "https://")) for href in hrefs)
    if "address" in facts:
        assert facts["address"] in _copy(h.doc())


def test_a_section_the_brief_asks_for_and_nothing_fills_is_named_in_the_reply(
    make: Callable[..., Harness],
) -> None:
    brief = (
        "Fern & Moss is a small plant shop in Leeds selling terrariums, kokedama and ferns. "
        "Sections: team, testimonials, contact."
    )
    h = make(brief, {"name": "Fern & Moss", "phone": "0113 496 0321"})

    result = h.run()

    nodes = h.doc()["nodes"]
    assert "team" not in nodes and "what-people-say" not in nodes and "contact" in nodes
    assert h.calls[-1] == "cms_ready"
    assert result.output == (
        "The page for Fern & Moss is ready for review. I left out Team and What people say: "
        "nothing in the brief or the facts says what to put there."
    )
    # Nothing left out: nothing said.
    plain = make("Fern & Moss is a small plant shop in Leeds. Sections: contact.", {"phone": "0113 496 0321"})
    assert plain.run().output == "The page for Fern & Moss is ready for review."


def test_a_gallery_waiting_for_photos_keeps_its_marked_slots_and_is_never_called_ready(
    make: Callable[..., Harness],
) -> None:
    # Before, the fixes removed the slots' labels to get past the placeholder check, and four
    # empty boxes were called ready.
    brief = "Lena Ward photographs weddings in Edinburgh. Sections: gallery, pricing, contact."
    h = make(brief, {"name": "Lena Ward", "phone": "0131 496 0100", "pricing": "Full day £1,600"})

    result = h.run()

    labels = [w for w in _copy(h.doc()).splitlines() if w.startswith("Image slot ")]
    assert len(labels) == 4
    assert {f["code"] for f in _errors(h)} == {"placeholder"}
    assert result.output == (
        "The page for Lena Ward is built, but not ready: 4 photo slots are waiting for photos. "
        "Choose each from the asset library (select a slot in the preview), or remove the "
        "slots; then the page can be marked ready."
    )


def test_the_ready_summary_counts_one_mention_as_one_place() -> None:
    plan = plan_page("Fern & Moss is a small plant shop in Leeds.", {"phone": "0113 496 0321"})
    assert "The name appears in 1 place." in plan.summary(["hero"], 1)
    assert "The name appears in 3 places." in plan.summary(["hero"], 3)
