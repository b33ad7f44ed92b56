"""The issue's case end to end: "Change the phone number to +44 113 496 0999" is doable and passes the checks.

A real ``Charlotte`` (SQLite, the inline queue) plays scripted turns through
the real tools: the person's message backs the new number; without it, or when
only the agent's own reply gave the number, the same edit is flagged.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from charlotte import Charlotte, Settings
from charlotte.session import CharlotteSession
from charlotte.testing import ScriptedModel, Step, Text, ToolCall

OLD_PHONE = "+44 113 496 0456"
NEW_PHONE = "+44 113 496 0999"

PAGE = [
    {"t": "insert_node", "node": {"id": "s", "type": "section", "parent": None}},
    {"t": "insert_node", "node": {"id": "h", "type": "heading", "parent": "s",
                                  "props": {"content": "Harbour Dental", "level": 1}}},
    {"t": "insert_node", "node": {"id": "call", "type": "text", "parent": "s",
                                  "props": {"content": f"Call us on {OLD_PHONE}."}}},
]  # fmt: skip


def build_page(reply: str = "Built the page.") -> list[Step]:
    return [
        ToolCall("cms_apply", {"basedOn": 0, "ops": PAGE}),
        ToolCall("cms_ready", {"summary": "Built."}),
        Text(reply),
    ]


def change_phone() -> list[Step]:
    """What the agent does for the phone change: one edit, a check, ready."""
    edit = {"t": "set_node_props", "id": "call", "patch": {"content": f"Call us on {NEW_PHONE}."}}
    return [
        ToolCall("cms_outline", {}),
        ToolCall("cms_apply", lambda results: {"basedOn": results[-1]["revision"], "ops": [edit]}),
        ToolCall("cms_check", {}),
        ToolCall("cms_ready", {"summary": "Changed the phone number."}),
        Text("Done."),
    ]


class App:
    """A Charlotte whose model plays the next script of ``scripts`` each turn."""

    def __init__(self, path: Path) -> None:
        self.scripts: list[list[Step]] = []
        self.models: list[ScriptedModel] = []
        settings = Settings(database_url=f"sqlite:///{path}", queue="inline")
        self.charlotte = Charlotte(settings, model_factory=self._model)
        self.charlotte.migrate()

    def _model(self) -> ScriptedModel:
        model = ScriptedModel(self.scripts.pop(0))
        self.models.append(model)
        return model

    def open(self) -> CharlotteSession:
        return (
            self.charlotte.for_user("ann").tenant("harbour").page("home")
            .brief("Harbour Dental, a family practice in Leeds.")
            .facts({"phone": OLD_PHONE}).approve_on_save(False).open()
        )  # fmt: skip

    def turn(self, handle: CharlotteSession, message: str, script: list[Step]) -> dict[str, Any]:
        """Send ``message`` with ``script`` playing; the turn's ``turn.finished`` payload."""
        self.scripts.append(script)
        sent = handle.send(message)
        assert sent["status"] == "finished", sent
        finished = [e for e in handle.events(0, 1_000) if e["type"] == "turn.finished"]
        payload: dict[str, Any] = finished[-1]["payload"]
        return payload

    def results(self) -> dict[str, Any]:
        """The last turn's tool results by tool name (the last of each)."""
        return {r["name"]: r["result"] for r in self._named(self.models[-1])}

    @staticmethod
    def _named(model: ScriptedModel) -> list[dict[str, Any]]:
        names = [s.name for s in model.steps if isinstance(s, ToolCall)]
        # This run's results are the last ones the model saw (earlier turns' may come before).
        seen = model.tool_results[-len(names) :]
        return [{"name": n, "result": r} for n, r in zip(names, seen, strict=True)]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    made = App(tmp_path / "person-said.db")
    yield made
    made.charlotte.close()


def test_the_person_asks_for_a_new_phone_number_and_the_page_is_ready(app: App) -> None:
    handle = app.open()
    assert app.turn(handle, "Build the page", build_page())["ready"] is True

    finished = app.turn(handle, f"Change the phone number to {NEW_PHONE}", change_phone())

    results = app.results()
    assert results["cms_apply"].get("isError") is not True, results["cms_apply"]
    assert [f for f in results["cms_check"]["findings"] if f["severity"] == "error"] == []
    assert results["cms_ready"]["ready"] is True
    assert finished["ready"] is True
    assert NEW_PHONE in handle.draft()["page"]["nodes"]["call"]["props"]["content"]


def test_the_same_edit_without_the_persons_words_is_flagged(app: App) -> None:
    handle = app.open()
    app.turn(handle, "Build the page", build_page())

    finished = app.turn(handle, "Tidy up the contact line", change_phone())

    results = app.results()
    codes = [
        (f["node"], f["code"]) for f in results["cms_check"]["findings"] if f["severity"] == "error"
    ]
    assert codes == [("call", "unsupported_phone")]
    assert results["cms_ready"]["error"]["code"] == "checks_failing"
    assert finished["ready"] is False


def test_a_number_only_the_agent_gave_is_not_the_persons_word(app: App) -> None:
    handle = app.open()
    app.turn(handle, "Build the page", build_page(f"Should the page say {NEW_PHONE} instead?"))

    finished = app.turn(handle, "Yes, use that number", change_phone())

    results = app.results()
    assert ("call", "unsupported_phone") in [
        (f["node"], f["code"]) for f in results["cms_check"]["findings"]
    ]
    assert finished["ready"] is False
