"""The outside-agent contract (``charlotte.mcp.OutsideTools``), run against every database.

A subclass provides ``app``: a migrated ``AppHarness`` (SQLite in
``tests/unit/mcp``, PostgreSQL in ``tests/integration``). The outside agent
works through the same page tools as the built-in one; these tests hold what
differs: its actor, its writes in a change set a person approves, its notices,
and every refusal (tenant, ability, name, arguments, caps, the turn lock) with
its code and nothing written.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from pydantic_ai.usage import UsageLimits
from tests.support.app_harness import AppHarness

from charlotte.mcp import Caller, OutsideTools, outside_actor
from charlotte.runtime.queues import TurnQueue
from charlotte.runtime.turn_context import TurnContext
from charlotte.runtime.turns import Turns
from charlotte.storage import SessionRecord, TurnRecord

ANN = Caller("ann", "acme", "Claude Desktop")
ACTOR = "agent:Claude-Desktop"
HERO = [
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
    {"t": "insert_node", "node": {"id": "hero-h", "type": "heading", "parent": "hero",
                                  "props": {"content": "Rosa's Bakery", "level": 1}}},
]  # fmt: skip


class _Caps:
    """A host's context factory with caps for outside agents."""

    def __init__(self, calls: int | None = None, per_minute: int | None = None) -> None:
        self.calls, self.per_minute = calls, per_minute

    def for_turn(self, session: SessionRecord, turn: TurnRecord) -> TurnContext | None:
        return None

    def for_outside_agent(self, session: SessionRecord, actor: str) -> TurnContext:
        limits = UsageLimits(tool_calls_limit=self.calls) if self.calls is not None else None
        return TurnContext(usage_limits=limits, calls_per_minute=self.per_minute)


class _Held:
    """A queue that keeps what it is handed: a sent turn stays queued until the test claims it."""

    def enqueue(self, turn_id: str) -> None:
        pass


class OutsideAgentContract:
    """Subclass with an ``app`` fixture (see module docstring)."""

    @pytest.fixture
    def app(self) -> AppHarness:
        raise NotImplementedError

    # -- helpers ---------------------------------------------------------------------

    @staticmethod
    def _outside(app: AppHarness, **options: Any) -> OutsideTools:
        return OutsideTools(app.charlotte, **options)

    @staticmethod
    def _events(app: AppHarness, session_id: str, tenant: str = "acme") -> list[dict[str, Any]]:
        handle = app.charlotte.find(session_id, tenant, user="ann")
        assert handle is not None
        return handle.events(limit=1000)

    def _apply(self, outside: OutsideTools, session_id: str, caller: Caller = ANN) -> dict[str, Any]:
        revision = outside.call(caller, "cms_get", {"session": session_id})["revision"]
        return outside.call(caller, "cms_apply", {"session": session_id, "basedOn": revision, "ops": HERO})

    # -- the rules it works by ------------------------------------------------------

    def test_writes_wait_in_a_change_set_under_the_outside_actor_whatever_the_sessions_setting(
        self, app: AppHarness
    ) -> None:
        session_id = app.open(approve_on_save=False)
        outside = self._outside(app)
        written = self._apply(outside, session_id)
        assert written["applied"] == 2 and written["notices"] == [], written
        handle = app.charlotte.find(session_id, "acme", user="ann")
        assert handle is not None
        assert handle.draft()["page"]["nodes"] == {}  # the draft waits for a person
        change_set = outside.call(ANN, "charlotte_change_set", {"session": session_id})["change_set"]
        assert change_set is not None and change_set["ops"] == 2 and "html" not in change_set
        # The agent reads its own working copy.
        outline = outside.call(ANN, "cms_outline", {"session": session_id})["outline"]
        assert "hero-h" in str(outline)
        writes = [(e["type"], e["actor"]) for e in self._events(app, session_id)[1:]]
        assert writes == [
            ("tool.called", ACTOR), ("tool.result", ACTOR),  # cms_get
            ("tool.called", ACTOR), ("proposal.opened", ACTOR), ("page.changed", ACTOR),
            ("tool.result", ACTOR),  # cms_apply: one transaction, with the write
            ("tool.called", ACTOR), ("tool.result", ACTOR),  # cms_outline
        ]  # fmt: skip
        # A person approves; the agent's next call is told, once.
        assert handle.approve()["status"] == "approved"
        assert sorted(handle.draft()["page"]["nodes"]) == ["hero", "hero-h"]
        told = outside.call(ANN, "cms_get", {"session": session_id})
        assert [n["status"] for n in told["notices"]] == ["approved"]
        assert outside.call(ANN, "cms_get", {"session": session_id})["notices"] == []

    def test_a_host_may_let_a_user_write_directly(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=False)
        outside = self._outside(app, direct_writes=lambda user, session: user == "ann")
        assert self._apply(outside, session_id)["applied"] == 2
        handle = app.charlotte.find(session_id, "acme", user="ann")
        assert handle is not None
        assert sorted(handle.draft()["page"]["nodes"]) == ["hero", "hero-h"]
        changed = [e for e in self._events(app, session_id) if e["type"] == "page.changed"]
        assert [e["actor"] for e in changed] == [ACTOR]

    def test_opening_a_session_asks_the_authorizer_and_makes_an_approve_on_save_session(
        self, app: AppHarness
    ) -> None:
        outside = self._outside(app)
        opened = outside.call(ANN, "charlotte_open_session", {"page": "about", "brief": "Who we are"})
        assert opened["approve_on_save"] is True
        listed = outside.call(ANN, "charlotte_sessions", {"page": "about"})["sessions"]
        assert [s["id"] for s in listed] == [opened["session"]]
        app.charlotte.authorize_using(lambda user, ability, session: ability != "open")
        refused = outside.call(ANN, "charlotte_open_session", {"page": "about", "brief": "Again"})
        assert refused["error"]["code"] == "forbidden"
        assert len(outside.call(ANN, "charlotte_sessions", {"page": "about"})["sessions"]) == 1
        bad = outside.call(ANN, "charlotte_open_session", {"page": "a/b", "brief": "x"})
        assert bad["error"]["code"] == "invalid_page_key"

    # -- refusals: a code, and nothing written -----------------------------------------

    def _nothing_more(self, app: AppHarness, session_id: str, before: int) -> None:
        assert len(self._events(app, session_id)) == before

    def test_another_tenants_session_is_not_found(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=True)
        outside = self._outside(app)
        before = len(self._events(app, session_id))
        other = Caller("ann", "globex", "Claude Desktop")
        for name in ("cms_get", "cms_apply", "charlotte_change_set"):
            arguments: dict[str, Any] = {"session": session_id}
            if name == "cms_apply":
                arguments |= {"basedOn": 0, "ops": HERO}
            assert outside.call(other, name, arguments)["error"]["code"] == "not_found"
        assert outside.call(Caller("ann", None, "x"), "cms_get", {"session": session_id})["error"]["code"] == "forbidden"
        assert outside.call(Caller(None, "acme", "x"), "cms_get", {"session": session_id})["error"]["code"] == "unauthorized"
        self._nothing_more(app, session_id, before)

    def test_a_user_without_edit_reads_but_does_not_write(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=True)
        app.charlotte.authorize_using(lambda user, ability, session: ability != "edit")
        outside = self._outside(app)
        assert "page" in outside.call(ANN, "cms_get", {"session": session_id})
        before = len(self._events(app, session_id))
        refused = outside.call(ANN, "cms_apply", {"session": session_id, "basedOn": 0, "ops": HERO})
        assert refused["error"]["code"] == "forbidden"
        self._nothing_more(app, session_id, before)
        assert outside.call(ANN, "charlotte_change_set", {"session": session_id})["change_set"] is None

    def test_no_tool_publishes(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=True)
        outside = self._outside(app)
        assert not [spec.name for spec in outside.specs() if "publish" in spec.name]
        before = len(self._events(app, session_id))
        for name in ("cms_publish", "publish", "charlotte_publish", "cms_apply "):
            result = outside.call(ANN, name, {"session": session_id})
            assert result["error"]["code"] == "unknown_tool", name
        self._nothing_more(app, session_id, before)

    def test_oversized_or_malformed_arguments_are_refused_and_write_nothing(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=True)
        outside = self._outside(app)
        too_many = [{"t": "insert_node", "node": {"id": f"n{i}", "type": "section", "parent": None}}
                    for i in range(201)]  # fmt: skip
        too_long = [{"t": "insert_node", "node": {"id": "h", "type": "heading", "parent": None,
                                                  "props": {"content": "x" * 1_000_000, "level": 1}}}]  # fmt: skip
        for ops in (too_many, too_long):
            result = outside.call(ANN, "cms_apply", {"session": session_id, "basedOn": 0, "ops": ops})
            assert result["error"]["code"] in {"invalid_arguments", "limit_exceeded"}, result
        for arguments in ({"session": "x" * 65}, {}, {"session": session_id, "depth": 999}):
            assert outside.call(ANN, "cms_get", arguments)["error"]["code"] in {"invalid_arguments", "not_found"}
        assert outside.call(ANN, "cms_get", ["not", "an", "object"])["error"]["code"] == "invalid_arguments"
        events = self._events(app, session_id)
        assert not [e for e in events if e["type"] in {"page.changed", "proposal.opened"}]
        assert outside.call(ANN, "charlotte_change_set", {"session": session_id})["change_set"] is None

    def test_a_call_past_the_hosts_caps_is_refused_and_leaves_no_trace(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=True)
        app.charlotte.context_using(_Caps(calls=3))
        outside = self._outside(app)
        for _ in range(3):
            assert "page" in outside.call(ANN, "cms_get", {"session": session_id})
        before = len(self._events(app, session_id))
        assert outside.call(ANN, "cms_get", {"session": session_id})["error"]["code"] == "usage_limit"
        self._nothing_more(app, session_id, before)
        # The caps count per outside agent: another client on the same session has its own.
        other = Caller("ann", "acme", "Cursor")
        assert "page" in outside.call(other, "cms_get", {"session": session_id})

    def test_a_call_past_the_rate_limit_is_refused(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=True)
        app.charlotte.context_using(_Caps(per_minute=2))
        outside = self._outside(app)
        assert "page" in outside.call(ANN, "cms_get", {"session": session_id})
        assert "outline" in outside.call(ANN, "cms_outline", {"session": session_id})
        before = len(self._events(app, session_id))
        refused = outside.call(ANN, "cms_apply", {"session": session_id, "basedOn": 0, "ops": HERO})
        assert refused["error"]["code"] == "rate_limited"
        self._nothing_more(app, session_id, before)

    def test_a_write_while_a_turn_holds_the_session_is_busy_and_reads_go_on(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=True)
        queue: TurnQueue = _Held()
        turns = Turns(app.charlotte.engine, queue)
        turn = turns.send(session_id, "acme", "Build the page", "ann")
        outside = self._outside(app)
        for step in ("queued", "running"):
            before = len(self._events(app, session_id))
            refused = outside.call(ANN, "cms_apply", {"session": session_id, "basedOn": 0, "ops": HERO})
            assert refused["error"]["code"] == "busy", step
            self._nothing_more(app, session_id, before)
            assert "page" in outside.call(ANN, "cms_get", {"session": session_id})
            if step == "queued":
                assert turns.claim(turn.id) is not None
        assert turns.finish(turn.id, ready=False)
        assert self._apply(outside, session_id)["applied"] == 2

    def test_an_outside_agent_and_turns_racing_on_a_session_never_interleave(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=False)
        outside = self._outside(app, direct_writes=lambda user, session: True)  # its writes hit the draft
        turns = Turns(app.charlotte.engine, _Held())
        answers: list[str] = []

        def agent() -> None:
            for i in range(15):
                revision = outside.call(ANN, "cms_get", {"session": session_id})["revision"]
                op = {"t": "insert_node", "node": {"id": f"o{i}", "type": "section", "parent": None}}
                result = outside.call(ANN, "cms_apply", {"session": session_id, "basedOn": revision, "ops": [op]})
                answers.append(result["error"]["code"] if "error" in result else "applied")

        racer = threading.Thread(target=agent)
        racer.start()
        while racer.is_alive():
            try:
                turn = turns.send(session_id, "acme", "Build", "ann")
            except Exception:
                continue  # busy: never, the agent holds no turn; a locked SQLite file: try again
            assert turns.claim(turn.id) is not None
            assert turns.finish(turn.id, ready=False)
        racer.join()
        assert set(answers) <= {"applied", "busy", "stale_revision"} and "applied" in answers
        holding = False
        for event in self._events(app, session_id):
            if event["type"] == "turn.queued":
                holding = True
            elif event["type"] in {"turn.finished", "turn.stopped", "run.failed"}:
                holding = False
            elif event["type"] == "page.changed" and event["actor"] == ACTOR:
                assert not holding, event  # an outside write inside a turn's hold of the session

    def test_no_exception_text_reaches_a_result(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=True)

        def leaky(user: object, ability: str, session: object) -> bool:
            raise RuntimeError("secret-token-4711 in the host's authorizer")

        before = len(self._events(app, session_id))
        app.charlotte.authorize_using(leaky)
        outside = self._outside(app)
        for name, arguments in (
            ("cms_get", {"session": session_id}),
            ("charlotte_open_session", {"page": "home", "brief": "x"}),
            ("charlotte_change_set", {"session": session_id}),
        ):
            result = outside.call(ANN, name, arguments)
            assert result["error"]["code"] == "internal" and "secret" not in str(result), result
        app.charlotte.authorize_using(lambda user, ability, session: True)
        self._nothing_more(app, session_id, before)

    # -- attribution ------------------------------------------------------------------

    def test_the_actor_is_bounded_and_sanitised(self, app: AppHarness) -> None:
        session_id = app.open(approve_on_save=True)
        outside = self._outside(app)
        forged = Caller("ann", "acme", "Evil\nagent\u202e <b>" + "x" * 500)
        assert "page" in outside.call(forged, "cms_get", {"session": session_id})
        actor = self._events(app, session_id)[-1]["actor"]
        assert actor == outside_actor(forged.client)
        assert actor.startswith("agent:Evil-agent-b-x") and len(actor) <= len("agent:") + 64
        assert all(c.isalnum() or c in ":._-" for c in actor)

    def test_a_person_cannot_pose_as_an_outside_agent(self, app: AppHarness) -> None:
        response = app.call("POST", "/sessions", {"page": "home", "brief": "x"}, user="agent:Claude")
        assert response.status == 400 and response.json["error"]["code"] == "invalid_request"
