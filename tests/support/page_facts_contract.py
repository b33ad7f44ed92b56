"""A page's facts and what people vouched for outlive a session, on every database.

Session 1 builds a bakery page from its facts (prices, a phone number, hours)
and publishes it. Session 2 on the same page, opened with another brief and no
facts (the builder's start form sends none), is asked to build the page and
then to add an FAQ: every price, phone and hour stays, the checks report none
of them unsupported, and no turn removes what nobody asked it to remove. Also:
a session without facts starts with the page's (``{}`` the same as none), one
with facts replaces them for later sessions, other pages and tenants keep
theirs; the published copy, a person's own edits and an approved change set
are evidence when the facts say otherwise.

A subclass provides ``settings``: a fresh database per test (the offline
builder, the inline queue).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.support.units import call_tool, in_unit

from charlotte import Charlotte, Settings
from charlotte.checks import PageChecks
from charlotte.session import CharlotteSession
from charlotte.tools import ToolBinding
from charlotte.tools.page_tools import fact_texts

FACTS = {
    "name": "Rosa's Bakery",
    "phone": "01603 555 0123",
    "hours": "Mon-Fri 8:00-17:00; Sat 9:00-13:00",
    "prices": "Sourdough loaf: £4.50; Croissant: £2.20",
}
#: What the page shows of the facts, as the rendered HTML spells it.
SHOWN = ("£4.50", "£2.20", "01603 555 0123", "8:00", "17:00", "9:00", "13:00", "Rosa")


class PageFactsContract:
    """What every database must show: facts belong to the page, not to one session."""

    @pytest.fixture
    def settings(self) -> Settings:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    @pytest.fixture
    def app(self, settings: Settings) -> Iterator[Charlotte]:
        charlotte = Charlotte(settings)
        charlotte.migrate()
        yield charlotte
        charlotte.close()

    def open(self, app: Charlotte, brief: str, facts: dict[str, str] | None = None, *,
             page: str = "home", tenant: str = "t", approve: bool = False) -> CharlotteSession:  # fmt: skip
        builder = app.for_user("ann").tenant(tenant).page(page).brief(brief)
        if facts is not None:
            builder = builder.facts(facts)
        return builder.approve_on_save(approve).open()

    def turn(self, handle: CharlotteSession, message: str) -> dict[str, Any]:
        handle.send(message)
        assert handle.wait(timeout=60)
        return handle.messages()[-1]

    def published_bakery(self, app: Charlotte) -> CharlotteSession:
        first = self.open(app, "A landing page for our bakery in Norwich", FACTS)
        assert self.turn(first, "Build the page")["record"]["ready"]
        first.publish(revision=first.draft()["revision"])
        return first

    def unsupported(self, app: Charlotte, handle: CharlotteSession) -> list[dict[str, Any]]:
        """The facts findings of ``cms_check`` on the session's draft."""
        binding = ToolBinding.for_session(handle.id, handle.tenant, handle.status()["page"])
        return call_tool(app.tools, "cms_check", {"checks": ["facts"]}, binding)["findings"]

    def removed(self, handle: CharlotteSession) -> list[Any]:
        events, page = [], handle.events(0, 1_000)
        while page:
            events += page
            page = handle.events(page[-1]["seq"], 1_000)
        return [op for e in events if e["type"] == "tool.called" and e["payload"]["name"] == "cms_apply"
                for op in e["payload"]["arguments"].get("ops", []) if op.get("t") == "remove_node"]  # fmt: skip

    def test_a_second_session_without_facts_keeps_every_price_phone_and_hour(
        self, app: Charlotte
    ) -> None:
        self.published_bakery(app)
        second = self.open(app, "Our bakery page")

        built = self.turn(second, "Build the page")
        faq = self.turn(second, "Add an FAQ section")

        html = second.draft()["html"]
        assert [w for w in SHOWN if w not in html] == []
        assert self.removed(second) == []
        assert "already had content" in built["reply"] and "kept all of it" in built["reply"]
        assert built["record"]["ready"] and "Welcome" not in built["reply"]
        assert faq["record"]["ready"] and "added an FAQ section" in faq["reply"]
        assert self.unsupported(app, second) == []
        status = second.status()
        assert status["facts"] == FACTS
        checks = PageChecks(facts=fact_texts(status["facts"]), brief=status["brief"])
        assert checks.run(in_unit(app.workspace, second.id, "t").draft()[0], only="facts") == []

    def test_other_facts_do_not_unsay_what_the_published_page_shows(self, app: Charlotte) -> None:
        self.published_bakery(app)
        # The host replaces the page's facts: the published copy still backs its own words.
        second = self.open(app, "Our bakery page", {"email": "hello@rosas.test"})

        built = self.turn(second, "Build the page")

        assert [w for w in SHOWN if w not in second.draft()["html"]] == []
        assert self.removed(second) == [] and built["record"]["ready"]
        assert self.unsupported(app, second) == []

    def test_a_turn_never_removes_content_the_checks_do_not_back(self, app: Charlotte) -> None:
        first = self.open(app, "A landing page for our bakery in Norwich", FACTS)
        self.turn(first, "Build the page")  # a draft, never published
        second = self.open(app, "Our bakery page", {"email": "hello@rosas.test"})

        built = self.turn(second, "Build the page")

        assert [w for w in SHOWN if w not in second.draft()["html"]] == []
        assert self.removed(second) == [] and not built["record"]["ready"]
        assert "I changed nothing that was there before" in built["reply"]
        assert "unsupported_price" in built["reply"]

    def test_a_session_opened_without_facts_starts_with_the_pages(self, app: Charlotte) -> None:
        self.open(app, "Bakery", FACTS)
        self.open(app, "Bakery", {"phone": "0117 496 0000"}, page="other")
        self.open(app, "Bakery", {"phone": "0117 496 1111"}, tenant="u")

        assert self.open(app, "Bakery").status()["facts"] == FACTS
        assert self.open(app, "Bakery", {}).status()["facts"] == FACTS  # the start form's none
        replaced = {"phone": "01603 555 9999"}
        self.open(app, "Bakery", replaced)
        assert self.open(app, "Bakery").status()["facts"] == replaced
        assert self.open(app, "Bakery", page="fresh").status()["facts"] == {}
        assert self.open(app, "Bakery", tenant="u").status()["facts"] == {"phone": "0117 496 1111"}

    def test_a_persons_edit_and_an_approved_change_set_are_evidence(self, app: Charlotte) -> None:
        handle = self.open(app, "Bakery", approve=True)
        handle.edit([
            {"t": "insert_node", "node": {"id": "s", "type": "section", "parent": None}},
            {"t": "insert_node", "node": {"id": "said", "type": "text", "parent": "s",
                                          "props": {"content": "Call 01603 555 0123"}}},
        ], 0)  # fmt: skip
        page = handle.status()["page"]
        from charlotte.tools.vouched import read_vouched  # here: the other tests run without it

        with app.units.read(handle.id, "t") as unit:
            vouched = read_vouched(unit.conn, app.workspace.pages, unit.session)
        assert vouched == ("Call 01603 555 0123",)
        assert page == "home"

        ops = [{"t": "insert_node", "node": {"id": "price", "type": "text", "parent": "s",
                                             "props": {"content": "Loaf £4.50"}}}]  # fmt: skip
        in_unit(app.change_sets, handle.id, "t").apply_agent_ops(ops, based_on=2)
        binding = ToolBinding.for_session(handle.id, "t", page)
        before = call_tool(app.tools, "cms_check", {"checks": ["facts"]}, binding)["findings"]
        assert [f["code"] for f in before] == ["unsupported_price"]
        handle.approve()

        later = self.open(app, "Bakery")
        assert self.unsupported(app, later) == []
