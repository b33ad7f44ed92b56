"""``CharlotteSession``: every method re-reads the stored session and checks its own ability."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from tests.support.app_harness import WRITE_HERO, AppHarness

from charlotte.access import ABILITIES, actor_of
from charlotte.errors import Refused
from charlotte.session import CharlotteSession
from charlotte.storage import SessionRecord, SessionStore, transaction

#: Each method with the ability it needs and a call that would succeed.
CALLS: list[tuple[str, str, Callable[[CharlotteSession], Any]]] = [
    ("status", "view", lambda h: h.status()),
    ("events", "view", lambda h: h.events()),
    ("draft", "view", lambda h: h.draft()),
    ("change_set", "view", lambda h: h.change_set()),
    ("published", "view", lambda h: h.published()),
    ("send", "send", lambda h: h.send("Build it")),
    ("stop", "stop", lambda h: h.stop()),
    ("edit", "edit", lambda h: h.edit([], 0)),
    ("approve", "approve", lambda h: h.approve()),
    ("reject", "approve", lambda h: h.reject()),
    ("publish", "publish", lambda h: h.publish()),
    ("history", "view", lambda h: h.history()),
    ("publish_preview", "view", lambda h: h.publish_preview()),
    ("undo_turn", "edit", lambda h: h.undo_turn(h.messages()[-1]["turn_id"])),
    ("restore", "edit", lambda h: h.restore(0, h.status()["revision"])),
    ("reset", "edit", lambda h: h.reset(h.status()["revision"])),
    ("reject_nodes", "approve", lambda h: h.reject_nodes(["hero"])),
]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppHarness]:
    harness = AppHarness(tmp_path / "handle.db", script=list(WRITE_HERO))
    yield harness
    harness.close()


def _gated(app: AppHarness, user: object = "ann") -> CharlotteSession:
    """An approve_on_save session whose agent has written two ops into an open change set."""
    handle = app.charlotte.for_user(user).tenant("acme").page("home").brief("Bakery").approve_on_save(True).open()
    handle.send("Build it")
    assert handle.change_set() is not None
    return handle


def test_the_table_covers_every_ability_but_open() -> None:
    # open: before a session exists; read_published: a published page, not a session's.
    assert {ability for _name, ability, _call in CALLS} == set(ABILITIES) - {"open", "read_published"}


@pytest.mark.parametrize(("name", "ability", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_each_method_needs_its_ability(app: AppHarness, name: str, ability: str, call: Any) -> None:
    handle = _gated(app)
    asked: list[tuple[Any, str, Any]] = []

    def deny(user: Any, wanted: str, session: Any) -> bool:
        asked.append((user, wanted, session))
        return wanted != ability

    app.charlotte.authorize_using(deny)
    with pytest.raises(Refused) as refused:
        call(handle)
    assert refused.value.code == "forbidden"
    assert asked[-1][:2] == ("ann", ability)
    assert isinstance(asked[-1][2], SessionRecord) and asked[-1][2].id == handle.id


@pytest.mark.parametrize(("name", "ability", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_each_method_works_when_allowed(app: AppHarness, name: str, ability: str, call: Any) -> None:
    handle = _gated(app)
    if name == "reject":
        assert call(handle)["status"] == "rejected"
    elif name == "edit":
        # The draft is still at 0: the agent's ops wait in the change set.
        assert handle.edit([], 0) == {"revision": 0, "applied": 0, "node_ids": []}
    elif name == "send":
        app.script = []
        assert call(handle)["status"] == "finished"
    elif name in ("publish", "reset"):
        # An empty page is never published: the change set's page first.
        handle.approve()
        if name == "reset":
            handle.publish()
        call(handle)
    else:
        call(handle)


@pytest.mark.parametrize(("name", "ability", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_no_method_reaches_another_tenants_session(app: AppHarness, name: str, ability: str, call: Any) -> None:
    handle = _gated(app)
    stranger = CharlotteSession(app.charlotte, handle.id, "globex", "ann")
    with pytest.raises(Refused) as refused:
        call(stranger)
    assert refused.value.code == "not_found"


def test_no_user_is_unauthorized(app: AppHarness) -> None:
    handle = _gated(app)
    anonymous = app.charlotte.find(handle.id, "acme")
    assert anonymous is not None
    with pytest.raises(Refused) as refused:
        anonymous.status()
    assert refused.value.code == "unauthorized"


def test_the_authorizer_sees_the_stored_session_as_it_is_now(app: AppHarness) -> None:
    handle = app.charlotte.for_user("ann").tenant("acme").page("home").brief("Bakery").open()
    seen: list[SessionRecord] = []

    def record(user: Any, ability: str, session: Any) -> bool:
        seen.append(session)
        return True

    app.charlotte.authorize_using(record)
    handle.status()
    # Another writer changes the stored session; the held handle sees it on its next call.
    with transaction(app.charlotte.engine) as conn:
        SessionStore().update(conn, handle.id, "acme", status="running")
    assert handle.status()["status"] == "running"
    assert [s.status for s in seen] == ["idle", "running"]
    with pytest.raises(Refused) as refused:
        handle.send("again")
    assert refused.value.code == "busy"
    assert handle.stop() == {"stop_requested": True, "status": "stopping"}
    assert handle.status()["stop_requested"] is True


def test_writes_record_the_users_id_as_actor(app: AppHarness) -> None:
    class User:
        id = 42

    handle = app.charlotte.for_user(User()).tenant("acme").page("home").brief("Bakery").open()
    app.script = []
    section = {"id": "s", "type": "section", "parent": None}
    assert handle.edit([{"t": "insert_node", "node": section}], 0)["revision"] == 1
    assert handle.publish() == {"revision": 1}
    actors = {e["type"]: e["actor"] for e in handle.events(0, 1000)}
    assert actors["session.opened"] == actors["page.changed"] == actors["page.published"] == "42"


def test_events_bounds(app: AppHarness) -> None:
    handle = app.charlotte.for_user("ann").tenant("acme").page("home").brief("Bakery").open()
    assert len(handle.events(0, 1)) == 1 and len(handle.events(0, 1000)) == 1
    assert handle.events(after=1) == []
    for after, limit in ((-1, 10), (0, 0), (0, 1001), ("0", 10), (0, True)):
        with pytest.raises(Refused) as refused:
            handle.events(after, limit)  # type: ignore[arg-type]
        assert refused.value.code == "invalid_request"


def test_approve_and_published(app: AppHarness) -> None:
    handle = _gated(app)
    assert handle.published() is None
    resolution = handle.approve()
    assert resolution["status"] == "approved" and resolution["revision"] == 2
    assert handle.change_set() is None
    assert handle.publish() == {"revision": 2}
    published = handle.published()
    assert published is not None and published["revision"] == 2 and "<h1>" in published["html"]
    with pytest.raises(Refused) as refused:
        handle.approve()
    assert refused.value.code == "no_open_change_set"


@pytest.mark.parametrize(
    ("user", "actor"),
    [
        ("ann", "ann"),
        ({"id": "bo"}, "bo"),
        ({"id": 7}, "7"),
        (type("U", (), {"id": "cy"})(), "cy"),
        ({"id": UUID("12345678-1234-5678-1234-567812345678")}, "12345678-1234-5678-1234-567812345678"),
    ],
)
def test_actor_of(user: object, actor: str) -> None:
    assert actor_of(user) == actor


@pytest.mark.parametrize("user", [None, "", "agent", {"id": "agent"}, {"name": "x"}, object(), "u" * 256, True])
def test_actor_of_refuses(user: object) -> None:
    with pytest.raises(Refused) as refused:
        actor_of(user)
    assert refused.value.code == "invalid_request"
