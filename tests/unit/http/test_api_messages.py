"""``GET /sessions/{id}/messages`` and ``CharlotteSession.messages``: the conversation, after a restart too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.app_harness import AppHarness
from tests.support.conversation_model import SeeingModel, recall

from charlotte.errors import Refused
from charlotte.testing import Text


class _Seeing(AppHarness):
    """The app harness with a model that keeps what it was sent."""

    def _model(self) -> SeeingModel:
        self.last = SeeingModel(list(self.script), final_text="Done here.")
        return self.last


@pytest.fixture
def app(tmp_path: Path) -> Iterator[_Seeing]:
    harness = _Seeing(tmp_path / "charlotte.db")
    yield harness
    harness.close()


def _say(app: AppHarness, session_id: str, message: str, reply: str) -> None:
    app.script = [Text(reply)]
    response = app.call("POST", f"/sessions/{session_id}/turns", {"message": message})
    assert response.status == 202, response.json


def test_the_conversation_lists_each_ended_turn_oldest_first(app: _Seeing) -> None:
    sid = app.open()
    app.run_turn(sid)  # a cms_apply, then the final text
    _say(app, sid, "Warmer colours", "Warmed them up.")

    answer = app.call("GET", f"/sessions/{sid}/messages")
    assert answer.status == 200
    first, second = answer.json["turns"]
    assert (first["message"], first["reply"], first["status"]) == (
        "Build it",
        "Done here.",
        "finished",
    )
    assert first["record"]["tools"] == {"cms_apply": 1} and first["record"]["node_ids"] == [
        "hero",
        "title",
    ]
    assert (second["message"], second["reply"]) == ("Warmer colours", "Warmed them up.")
    assert first["seq"] < second["seq"] and answer.json["next_before"] is None
    assert set(first) == {
        "turn_id",
        "seq",
        "status",
        "message",
        "reply",
        "record",
        "asked_at",
        "ended_at",
    }


def test_limit_and_before_page_back_through_the_conversation(app: _Seeing) -> None:
    sid = app.open()
    for n in range(5):
        _say(app, sid, f"message {n}", f"reply {n}")

    page = app.call("GET", f"/sessions/{sid}/messages", query={"limit": "2"}).json
    assert [t["message"] for t in page["turns"]] == ["message 3", "message 4"]
    older = app.call("GET", f"/sessions/{sid}/messages",
                     query={"limit": "2", "before": str(page["next_before"])}).json  # fmt: skip
    assert [t["message"] for t in older["turns"]] == ["message 1", "message 2"]
    rest = app.call(
        "GET", f"/sessions/{sid}/messages", query={"before": str(older["next_before"])}
    ).json
    assert [t["message"] for t in rest["turns"]] == ["message 0"] and rest["next_before"] is None


@pytest.mark.parametrize(
    ("query", "field"),
    [({"limit": "0"}, "limit"), ({"limit": "101"}, "limit"), ({"limit": "x"}, "limit"),
     ({"before": "0"}, "before"), ({"before": "-1"}, "before"), ({"before": "1" * 12}, "before")],
)  # fmt: skip
def test_bounds_are_coded_refusals(app: _Seeing, query: dict[str, str], field: str) -> None:
    sid = app.open()
    answer = app.call("GET", f"/sessions/{sid}/messages", query=query)
    assert answer.status == 400
    assert (
        answer.json["error"]["code"] == "invalid_request" and answer.json["error"]["field"] == field
    )


def test_another_tenant_sees_nothing(app: _Seeing) -> None:
    sid = app.open()
    _say(app, sid, "Private plans", "Kept.")

    answer = app.call("GET", f"/sessions/{sid}/messages", tenant="globex")
    assert answer.status == 404 and "Private" not in str(answer.json)
    assert app.call("GET", "/sessions/nope/messages").status == 404


def test_messages_is_authorised_as_view(app: _Seeing) -> None:
    sid = app.open()
    asked: list[str] = []

    def authorizer(user: object, ability: str, session: object) -> bool:
        asked.append(ability)
        return False

    app.charlotte.authorize_using(authorizer)
    handle = app.charlotte.find(sid, "acme", user="ann")
    assert handle is not None
    with pytest.raises(Refused) as refused:
        handle.messages()
    assert refused.value.code == "forbidden" and asked[-1] == "view"


def test_the_conversation_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "charlotte.db"
    before = _Seeing(path)
    sid = before.open()
    _say(before, sid, "Add a hero for Rosa", "Added it.")
    listed = before.call("GET", f"/sessions/{sid}/messages").json
    before.close()

    after = _Seeing(path)  # a new Charlotte on the same database file
    try:
        assert after.call("GET", f"/sessions/{sid}/messages").json == listed
        _say(after, sid, "Make it warmer", "Warmer.")
        seen = recall(after.last.seen[0])
        assert seen == {"asked": ["Add a hero for Rosa", "Make it warmer"], "said": ["Added it."]}
    finally:
        after.close()
