"""The offline builder drives a real Agent whose nine real page tools write to real SQLite."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_ai import Agent, AgentRunResult, RunContext, Tool
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart, ToolReturnPart

from charlotte.checks import PageChecks
from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS
from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.model import empty_doc
from charlotte.page.node_types import ID_PATTERN, MAX_OPS_PER_APPLY
from charlotte.page.session import PageSession
from charlotte.policy import AssetPolicy
from charlotte.runtime.offline import MAX_FAILURES, offline_model
from charlotte.runtime.offline_brief import business_name, is_direction, statements
from charlotte.runtime.offline_copy import plan_page
from charlotte.storage import SessionRecord, SessionStore, transaction
from charlotte.tools import PageTools, ToolBinding, fact_texts, failure

BAKERY = (
    "Crumb & Co is a neighbourhood bakery in Leeds baking sourdough and pastries every morning. "
    "The page should have a menu, about us, opening hours and contact.",
    {
        "name": "Crumb & Co",
        "phone": "0113 496 0321",
        "email": "hello@crumbandco.test",
        "address": "12 Kirkgate, Leeds LS1 6BY",
        "opening_hours": {"Tue-Fri": "08:00-16:00", "Sat": "09:00-14:00"},
        "menu": {"Sourdough loaf": "£4.50", "Cinnamon bun": "£2.80"},
    },
)
DENTIST = (
    "A landing page for Brightsmile Dental, a family dentist in Bristol. "
    "Sections: services, team, opening hours, contact.",
    {
        "phone": "+44 117 496 0123",
        "services": ["Check-ups", "Hygiene", "Whitening"],
        "team": {"Dr Asha Patel": "Principal dentist", "Tom Reed": "Hygienist"},
        "hours": "Mon-Fri 8:30-17:30",
    },
)
SAAS = (
    "Ledgerly is invoicing software for freelancers. Show features and pricing, and a call to action.",
    {
        "product": "Ledgerly",
        "features": {
            "Invoices": "Send invoices in seconds",
            "Reminders": "Automatic payment reminders",
        },
        "pricing": {"Starter": "$9/month", "Pro": "$29/month"},
        "email": "sales@ledgerly.test",
    },
)
# (brief, facts, business name, fact texts the page must show verbatim)
CASES = {
    "bakery": (
        *BAKERY,
        "Crumb & Co",
        ["0113 496 0321", "£4.50", "Tue-Fri: 08:00-16:00", "12 Kirkgate, Leeds LS1 6BY"],
    ),
    "dentist": (
        *DENTIST,
        "Brightsmile Dental",
        ["+44 117 496 0123", "Whitening", "Mon-Fri 8:30-17:30"],
    ),
    "saas": (*SAAS, "Ledgerly", ["$9/month", "$29/month", "sales@ledgerly.test"]),
}

ApplyHook = Callable[[int], None]


@dataclass
class Harness:
    """A workspace, its tools, one session and an agent whose tools call them."""

    ws: Workspace
    tools: PageTools
    session: SessionRecord
    binding: ToolBinding
    calls: list[str]
    before_apply: ApplyHook | None = None

    def agent(self) -> Agent[ToolBinding, str]:
        return Agent(
            offline_model(),
            deps_type=ToolBinding,
            tools=[self._tool(d.name) for d in self.tools.definitions()],
        )

    def _tool(self, name: str) -> Tool[ToolBinding]:
        definition = next(d for d in self.tools.definitions() if d.name == name)

        def run(ctx: RunContext[ToolBinding], **kwargs: Any) -> dict[str, Any]:
            self.calls.append(name)
            if name == "cms_apply" and self.before_apply is not None:
                self.before_apply(self.calls.count("cms_apply"))
            return self.tools.call(name, kwargs, ctx.deps)

        return Tool.from_schema(
            run, name, definition.description, definition.parameters_json_schema, takes_ctx=True
        )

    def run(
        self, prompt: str = "Build the page.", history: list[ModelMessage] | None = None
    ) -> AgentRunResult[str]:
        return asyncio.run(self.agent().run(prompt, deps=self.binding, message_history=history))

    def doc(self) -> dict[str, Any]:
        return self.ws.draft(self.session.id, self.session.tenant)[0]

    def human_edit(self, ops: list[dict[str, Any]]) -> None:
        _doc, revision = self.ws.draft(self.session.id, self.session.tenant)
        self.ws.human_edit(
            self.session.id, self.session.tenant, ops, based_on=revision, user="user-1"
        )


@pytest.fixture
def make(sqlite_engine: sa.Engine) -> Callable[..., Harness]:
    ws = Workspace(sqlite_engine, links=SiteLinks("https://site.test"))
    tools = PageTools(ws)
    count = iter(range(1000))

    def build(brief: str, facts: dict[str, Any], page: str | None = None) -> Harness:
        with transaction(sqlite_engine) as conn:
            session = SessionStore().create(
                conn,
                tenant="tenant-a",
                page=page or f"page-{next(count)}",
                created_by="user-1",
                brief=brief,
                facts=facts,
            )
        binding = ToolBinding.for_session(session.id, session.tenant, session.page)
        return Harness(ws, tools, session, binding, [])

    return build


def _exchanges(messages: list[ModelMessage]) -> list[tuple[str, dict[str, Any], Any]]:
    """(tool name, args, result) in call order, from the message history."""
    calls: dict[str, ToolCallPart] = {}
    out = []
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                calls[part.tool_call_id] = part
            elif isinstance(part, ToolReturnPart):
                call = calls[part.tool_call_id]
                out.append((call.tool_name, call.args_as_dict(), part.content))
    return out


def _copy(doc: dict[str, Any]) -> str:
    words = []
    for node in doc["nodes"].values():
        props = node.get("props", {})
        words += [str(props[k]) for k in ("content", "label") if k in props]
    return "\n".join(words)


def _errors(h: Harness) -> list[dict[str, Any]]:
    result = h.tools.call("cms_check", {}, h.binding)
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
    # A hero with a heading, a subheading and a button; a call to action whose target exists.
    hero = [n for n in doc["nodes"].values() if n.get("parent") == "hero"]
    assert sorted(n["type"] for n in hero) == ["button", "heading", "text"]
    cta = doc["nodes"]["call-to-action-button"]["props"]["href"]
    assert cta.startswith("#") and cta[1:] in doc["nodes"]
    assert all(re.match(ID_PATTERN, node_id) for node_id in doc["nodes"])
    assert doc["meta"]["title"] == name
    assert name in result.output


def test_every_step_is_a_real_tool_call_with_basedon_from_the_previous_result(
    make: Callable[..., Harness],
) -> None:
    h = make(*BAKERY)

    result = h.run()

    exchanges = _exchanges(result.all_messages())
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
    assert [(n, a) for n, a, _ in _exchanges(one.all_messages())] == [
        (n, a) for n, a, _ in _exchanges(two.all_messages())
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
    assert len([n for n in nodes.values() if n["parent"] is None]) == 6
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

    names = [name for name, _, _ in _exchanges(result.all_messages())]
    stale = [
        r
        for name, _, r in _exchanges(result.all_messages())
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


def test_check_findings_are_fixed_before_ready(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)
    h.human_edit(
        [
            {"t": "insert_node", "node": {"id": "promo", "type": "section", "parent": None}},
            {
                "t": "insert_node",
                "node": {
                    "id": "promo-text",
                    "type": "text",
                    "parent": "promo",
                    "props": {"content": "Loaves from £7.99 today only."},
                },
            },
        ]
    )
    assert [f["code"] for f in _errors(h)] == ["unsupported_price"]

    result = h.run()

    exchanges = _exchanges(result.all_messages())
    checks = [r for name, _, r in exchanges if name == "cms_check"]
    assert len(checks) == 2
    assert [f["node"] for f in checks[0]["findings"] if f["severity"] == "error"] == ["promo-text"]
    fix = next(
        a for name, a, _ in exchanges if name == "cms_apply" and a["ops"][0]["t"] == "remove_node"
    )
    assert fix["ops"] == [{"t": "remove_node", "id": "promo-text"}]
    assert "promo-text" not in h.doc()["nodes"] and "promo" in h.doc()["nodes"]
    assert exchanges[-1][0] == "cms_ready" and exchanges[-1][2]["ready"] is True


def test_an_unfixable_page_ends_not_ready_without_looping(make: Callable[..., Harness]) -> None:
    h = make(*BAKERY)
    # Checks that report a page-level error whatever the page: nothing the builder can fix.
    h.tools = PageTools(h.ws, checks_factory=_always_failing)

    result = h.run()

    assert h.calls.count("cms_check") <= 3 and h.calls.count("cms_ready") == 1
    assert "not ready" in result.output


def _always_failing(session: SessionRecord, links: SiteLinks) -> Any:
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


@pytest.mark.parametrize(
    ("brief", "facts", "name"),
    [
        ("Crumb & Co is a bakery.", {}, "Crumb & Co"),
        ("A landing page for Brightsmile Dental, a family dentist.", {}, "Brightsmile Dental"),
        ('We are "The Daily Grind", a café.', {}, "The Daily Grind"),
        ("A page for a bakery.", {}, None),
        ("Anything.", {"business_name": "Fig & Fern"}, "Fig & Fern"),
    ],
)
def test_business_name(brief: str, facts: dict[str, Any], name: str | None) -> None:
    assert business_name(brief, facts) == name


@pytest.mark.parametrize("case", sorted(CASES))
def test_plan_ids_are_unique_and_valid(case: str) -> None:
    brief, facts, _name, _shown = CASES[case]
    ids = [
        op["node"]["id"]
        for b in plan_page(brief, facts).batches
        for op in b.ops
        if op["t"] == "insert_node"
    ]
    assert len(ids) == len(set(ids))
    assert all(re.match(ID_PATTERN, i) for i in ids)


def test_plan_without_brief_or_facts_is_still_a_page() -> None:
    plan = plan_page("", None)
    assert plan.name == "Welcome"
    assert [b.root for b in plan.batches] == ["hero", "call-to-action", "contact"]


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
        for n, _, r in _exchanges(result.all_messages())
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
            return tools.call(name, args, binding)

    h.tools = NoOutline()  # type: ignore[assignment]

    result = h.run()

    assert h.calls.count("cms_outline") == 2
    assert "cms_apply" not in h.calls and "cms_ready" not in h.calls
    assert "not ready" in result.output


_WORDS = st.sampled_from(
    [
        "fresh",
        "bread",
        "Leeds",
        "cakes",
        "friendly",
        "open",
        "daily",
        "local",
        "team",
        "menu",
        "pricing",
        "about us",
        "contact",
        "reviews",
        "faq",
        "opening hours",
        "services",
        "features",
    ]
)
_VALUE = st.one_of(
    st.sampled_from(
        [
            "£4.50",
            "$9/month",
            "Mon-Fri 8:00-17:00",
            "0113 496 0321",
            "hi@shop.test",
            "12 High Street",
            "Seeded rye",
            "Great coffee",
            "since 1998",
            "20% off",
        ]
    ),
    st.text(st.characters(whitelist_categories=("Ll", "Lu")), min_size=1, max_size=30),
)
_FACTS = st.dictionaries(
    st.sampled_from(
        [
            "name",
            "tagline",
            "menu",
            "pricing",
            "team",
            "hours",
            "phone",
            "email",
            "address",
            "about",
            "reviews",
            "faq",
            "services",
            "features",
            "Extra",
        ]
    ),
    st.one_of(
        _VALUE,
        st.lists(_VALUE, max_size=5),
        st.dictionaries(_VALUE, _VALUE, max_size=5),
    ),
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(words=st.lists(_WORDS, max_size=12), facts=_FACTS)
def test_any_plan_is_a_valid_page_whose_checks_report_no_errors(
    words: list[str], facts: dict[str, Any]
) -> None:
    brief = "Oak & Ash is a " + " ".join(words) + "."
    plan = plan_page(brief, facts)
    page = PageSession(empty_doc("home"))
    for batch in plan.batches:
        page.apply(list(batch.ops), based_on=page.revision, actor="agent", fill_defaults=True)
    PageSession(page.doc)  # reloads: the whole document is valid
    AssetPolicy(InMemoryAssetLibrary()).assert_doc(page.doc)
    findings = PageChecks(facts=fact_texts(facts), brief=brief).run(page.doc)
    assert [f for f in findings if f.severity == "error"] == []
    assert not [f for f in findings if f.check == "facts"]


# Briefs that mix description with directions to the builder (sections, tone, calls to visit).
# (brief, facts, directions that must never be copy, offerings the brief names, contact links)
DIRECTED = {
    "sample": (
        SAMPLE_BRIEF,
        dict(SAMPLE_FACTS),
        ["tone", "Warm", "friendly", "invite", "Sections:"],
        ["Sourdough", "Pastel de nata", "Seasonal cakes"],
        {"tel:+351213456789": "+351 21 345 6789", "mailto:hello@rosasbakery.example": None},
    ),
    "dentist": (
        "A landing page for Brightsmile Dental, a family dentist in Bristol offering check-ups, "
        "hygiene visits and teeth whitening. Sections: services, team, contact. "
        "Calm, reassuring tone; encourage people to book a first visit.",
        {
            "phone": "+44 117 496 0123",
            "email": "hello@brightsmile.test",
            "address": "4 Park Row, Bristol BS1 5LJ",
            "team": {"Dr Asha Patel": "Principal dentist"},
        },
        ["tone", "Calm", "reassuring", "encourage", "first visit", "Sections:"],
        ["Check-ups", "Hygiene visits", "Teeth whitening"],
        {"tel:+441174960123": "+44 117 496 0123", "mailto:hello@brightsmile.test": None},
    ),
    "saas": (
        "Ledgerly is invoicing software for freelancers. It offers one-click invoices, automatic "
        "payment reminders and expense reports. Show features and pricing. Keep the tone "
        "confident and concise; invite visitors to start a free trial.",
        {
            "product": "Ledgerly",
            "pricing": {"Starter": "$9/month", "Pro": "$29/month"},
            "email": "sales@ledgerly.test",
            "phone": "+1 415 555 0134",
        },
        ["tone", "confident", "concise", "invite", "free trial", "Show features"],
        ["One-click invoices", "Automatic payment reminders", "Expense reports"],
        {"tel:+14155550134": "+1 415 555 0134", "mailto:sales@ledgerly.test": None},
    ),
}


@pytest.mark.parametrize("case", sorted(DIRECTED))
def test_directions_in_the_brief_never_become_copy(
    make: Callable[..., Harness], case: str
) -> None:
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
def test_contact_facts_are_shown_with_safe_links(
    make: Callable[..., Harness], case: str
) -> None:
    brief, facts, _directions, _offers, links = DIRECTED[case]
    h = make(brief, facts)

    h.run()

    nodes = h.doc()["nodes"]
    hrefs = {
        n["props"]["href"]: n["props"]["content"] for n in nodes.values() if n["type"] == "link"
    }
    for href, words in links.items():
        assert hrefs[href] == (words or href.removeprefix("mailto:"))
    assert all(href.startswith(("tel:+", "mailto:", "#", "https://")) for href in hrefs)
    if "address" in facts:
        assert facts["address"] in _copy(h.doc())


@pytest.mark.parametrize("case", sorted(DIRECTED))
def test_directed_briefs_give_checked_valid_distinct_pages(case: str) -> None:
    brief, facts, _directions, _offers, _links = DIRECTED[case]
    plan = plan_page(brief, facts)
    # The plan as written, with no fix batches: its own copy must pass the checks.
    page = PageSession(empty_doc("home"))
    for batch in plan.batches:
        page.apply(list(batch.ops), based_on=page.revision, actor="agent", fill_defaults=True)

    doc = PageSession(page.doc).doc
    assert all(re.match(ID_PATTERN, node_id) for node_id in doc["nodes"])
    findings = PageChecks(facts=fact_texts(facts), brief=brief).run(doc)
    assert [f for f in findings if f.severity == "error"] == []
    assert [f for f in findings if f.check == "facts"] == []
    assert plan_page(brief, facts) == plan
    others = [plan_page(b, f) for k, (b, f, *_rest) in DIRECTED.items() if k != case]
    assert all(o.batches != plan.batches for o in others)


def test_the_sample_page_reads_like_the_brief() -> None:
    plan = plan_page(SAMPLE_BRIEF, SAMPLE_FACTS)
    texts = {
        op["node"]["id"]: op["node"].get("props", {}).get("content")
        for b in plan.batches
        for op in b.ops
        if op["t"] == "insert_node"
    }
    assert texts["hero-text"] == "A family bakery in Lisbon."
    assert texts["about-us-text"] == (
        "Rosa's Bakery is a family bakery in Lisbon baking sourdough, pastel de nata and "
        "seasonal cakes every morning."
    )
    assert texts["menu-note"] == "Baked every morning."
    # The price only as the facts give it, verbatim.
    assert texts["menu-featured-1-text"] == SAMPLE_FACTS["signature"]
    assert [t for t in texts.values() if t and "4.50" in t] == [SAMPLE_FACTS["signature"]]


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
