"""The person's words as evidence, through storage and the tools, on every database.

``TurnStore.messages_of`` reads the messages of one session's turns (any
status, this tenant only, the newest ``limit``, oldest first), and
``cms_check`` and ``cms_ready`` take them as evidence next to the brief and the
facts. A subclass provides ``engine`` (tables created; may be shared by the
module, so every test opens its own session).
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import unshared_session
from tests.support.units import call_tool

from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.events import utc_now
from charlotte.storage import SessionRecord, TurnRecord, TurnStore, read_connection, transaction
from charlotte.tools import PageTools, ToolBinding, is_error

BRIEF = "Harbour Dental, Leeds. Check-up £45."
FACTS = {"phone": "+44 113 496 0456"}
NEW_PHONE = "+44 113 496 0999"
ASKED = f"Change the phone number to {NEW_PHONE}"


def add_turn(
    engine: sa.Engine, session: SessionRecord, message: str, status: str = "finished", *,
    tenant: str | None = None, minutes_ago: int = 0,
) -> None:  # fmt: skip
    """A turn row of ``session`` (in ``tenant``, by default the session's) saying ``message``."""
    created = utc_now() - timedelta(minutes=minutes_ago)
    record = TurnRecord(
        id=uuid.uuid4().hex, session_id=session.id, tenant=tenant or session.tenant,
        message=message, user="ann", status=status, ready=False, error_code=None,
        created_at=created, started_at=None, finished_at=None, heartbeat_at=None,
    )  # fmt: skip
    with transaction(engine) as conn:
        TurnStore().insert(conn, record)


def messages(engine: sa.Engine, session: SessionRecord, limit: int = 200) -> list[str]:
    with read_connection(engine) as conn:
        return TurnStore().messages_of(conn, session.id, session.tenant, limit)


def page(phone: str) -> list[dict[str, Any]]:
    return [
        {"t": "insert_node", "node": {"id": "s", "type": "section", "parent": None}},
        {"t": "insert_node", "node": {"id": "h", "type": "heading", "parent": "s",
                                      "props": {"content": "Harbour Dental", "level": 1}}},
        {"t": "insert_node", "node": {"id": "call", "type": "text", "parent": "s",
                                      "props": {"content": f"Check-up £45. Call {phone}."}}},
    ]  # fmt: skip


class PersonSaidContract:
    """What every database must show: the person's messages, and only theirs, back a fact."""

    @pytest.fixture
    def engine(self) -> sa.Engine:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    @pytest.fixture
    def tools(self, engine: sa.Engine) -> PageTools:
        return PageTools(Workspace(engine, links=SiteLinks("https://harbourdental.test", ())))

    @pytest.fixture
    def session(self, engine: sa.Engine) -> SessionRecord:
        return unshared_session(engine, brief=BRIEF, facts=FACTS)

    def built(self, tools: PageTools, session: SessionRecord, phone: str) -> ToolBinding:
        binding = ToolBinding.for_session(session.id, session.tenant, session.page)
        applied = call_tool(tools, "cms_apply", {"basedOn": 0, "ops": page(phone)}, binding)
        assert not is_error(applied), applied
        return binding

    def facts_codes(self, tools: PageTools, binding: ToolBinding) -> list[str]:
        result = call_tool(tools, "cms_check", {"checks": ["facts"]}, binding)
        assert not is_error(result), result
        return [f["code"] for f in result["findings"]]

    # -- storage ----------------------------------------------------------------

    def test_messages_of_reads_every_turn_of_the_session_oldest_first(
        self, engine: sa.Engine, session: SessionRecord
    ) -> None:
        add_turn(engine, session, "Build it", "finished", minutes_ago=5)
        add_turn(engine, session, "Make it calmer", "failed", minutes_ago=4)
        add_turn(engine, session, "Stop that", "stopped", minutes_ago=3)
        add_turn(engine, session, "Add prices", "running", minutes_ago=2)
        assert messages(engine, session) == [
            "Build it",
            "Make it calmer",
            "Stop that",
            "Add prices",
        ]
        assert messages(engine, session, limit=2) == ["Stop that", "Add prices"]

    def test_messages_of_reads_no_other_session_and_no_other_tenant(
        self, engine: sa.Engine, session: SessionRecord
    ) -> None:
        other = unshared_session(engine, brief=BRIEF, facts=FACTS)
        add_turn(engine, other, "Another session's words")
        add_turn(engine, session, "Words under another tenant", tenant="tenant-elsewhere")
        assert messages(engine, session) == []
        add_turn(engine, session, "Mine", "queued")
        assert messages(engine, session) == ["Mine"]

    # -- the tools ----------------------------------------------------------------

    def test_a_phone_only_on_the_page_is_flagged_and_cms_ready_refused(
        self, tools: PageTools, session: SessionRecord, engine: sa.Engine
    ) -> None:
        binding = self.built(tools, session, NEW_PHONE)
        add_turn(engine, session, "Build the page")
        assert self.facts_codes(tools, binding) == ["unsupported_phone"]
        ready = call_tool(tools, "cms_ready", {"summary": "Done."}, binding)
        assert is_error(ready) and ready["error"]["code"] == "checks_failing"

    def test_the_persons_message_backs_the_phone_they_asked_for(
        self, tools: PageTools, session: SessionRecord, engine: sa.Engine
    ) -> None:
        binding = self.built(tools, session, NEW_PHONE)
        assert self.facts_codes(tools, binding) == ["unsupported_phone"]
        add_turn(engine, session, ASKED, "running")
        assert self.facts_codes(tools, binding) == []
        assert call_tool(tools, "cms_ready", {"summary": "Phone changed."}, binding)["ready"] is True

    @pytest.mark.parametrize("status", ["queued", "failed", "stopped"])
    def test_a_turn_that_never_finished_still_said_it(
        self, tools: PageTools, session: SessionRecord, engine: sa.Engine, status: str
    ) -> None:
        binding = self.built(tools, session, "0113 496 0999")  # the national form of what was asked
        add_turn(engine, session, ASKED, status)
        assert self.facts_codes(tools, binding) == []

    def test_another_sessions_or_tenants_message_backs_nothing(
        self, tools: PageTools, session: SessionRecord, engine: sa.Engine
    ) -> None:
        binding = self.built(tools, session, NEW_PHONE)
        other = unshared_session(engine, brief=BRIEF, facts=FACTS)
        add_turn(engine, other, ASKED)
        add_turn(engine, session, ASKED, tenant="tenant-elsewhere")
        assert self.facts_codes(tools, binding) == ["unsupported_phone"]

    def test_only_the_newest_messages_count(
        self, tools: PageTools, session: SessionRecord, engine: sa.Engine
    ) -> None:
        binding = self.built(tools, session, NEW_PHONE)
        add_turn(engine, session, ASKED, minutes_ago=300)
        for n in range(200):
            add_turn(engine, session, f"Tweak {n}", minutes_ago=200 - n)
        assert self.facts_codes(tools, binding) == ["unsupported_phone"]  # 200 newer messages
