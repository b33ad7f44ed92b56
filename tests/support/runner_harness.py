"""A hand-built test app for turns: real storage, real tools, the inline queue, a scripted model.

Nothing here bypasses PageTools or the Workspace: the scripted model only
emits tool calls, and pydantic-ai runs the real tools through the runner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from pydantic_ai.models import Model
from tests.support.databases import new_session, unique

from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.events import Event
from charlotte.offline.model import offline_model
from charlotte.runtime.guide import build_guide
from charlotte.runtime.modes import ModeRegistry
from charlotte.runtime.queues import InlineQueue
from charlotte.runtime.runner import TurnContextFactory, TurnRunner
from charlotte.runtime.turns import Turns
from charlotte.settings import Settings
from charlotte.storage import DatabaseEventLog, SessionRecord
from charlotte.testing import ScriptedModel, Step
from charlotte.tools import PageTools


@dataclass
class Harness:
    """One engine, one workspace, one runner; ``script`` is what the next turn's model plays."""

    engine: sa.Engine
    settings: Settings = field(default_factory=lambda: Settings(queue="inline", heartbeat_seconds=0.2))
    context_factory: TurnContextFactory | None = None
    script: list[Step] = field(default_factory=list)
    models: list[ScriptedModel] = field(default_factory=list)
    #: Use the real offline builder instead of the script.
    offline: bool = False

    def __post_init__(self) -> None:
        self.guide = build_guide(self.settings.brand_rules)
        self.workspace = Workspace(
            self.engine, links=SiteLinks(self.settings.site_origin, self.settings.allowed_origins)
        )
        self.tools = PageTools(self.workspace)
        self.runner = TurnRunner(
            engine=self.engine,
            settings=self.settings,
            tools=self.tools,
            turns=Turns(self.engine, InlineQueue(lambda turn_id: self.runner.run(turn_id))),
            model_factory=self._model,
            guide=lambda: self.guide,
            modes=ModeRegistry(),
            context_factory=self.context_factory,
        )
        self.turns = self.runner.turns

    def _model(self) -> Model:
        if self.offline:
            return offline_model()
        model = ScriptedModel(list(self.script))
        self.models.append(model)
        return model

    def open(self, *, brief: str = "A landing page for Rosa's Bakery", tenant: str | None = None,
             facts: dict[str, str] | None = None, guide_hash: str | None = None) -> SessionRecord:
        return new_session(
            self.engine,
            tenant or unique("tenant"),
            unique("page"),
            created_by="ann",
            brief=brief,
            facts=facts or {"name": "Rosa's Bakery"},
            guide_hash=self.guide.hash if guide_hash is None else guide_hash,
        )

    def send(self, session: SessionRecord, script: Sequence[Step], message: str = "Build it") -> str:
        """Send a message; the inline queue runs the turn before this returns."""
        self.script = list(script)
        turn = self.turns.send(session.id, session.tenant, message, "ann")
        return turn.id

    def events(self, session: SessionRecord) -> list[Event]:
        return DatabaseEventLog().read(self.engine, session.id, 0, 1000)

    def types(self, session: SessionRecord) -> list[str]:
        return [e.type for e in self.events(session)]


def based_on_last(results: list[Any]) -> int:
    """The revision the previous tool call reported (how a script pins ``basedOn``)."""
    for result in reversed(results):
        if isinstance(result, dict) and isinstance(result.get("revision"), int):
            revision: int = result["revision"]
            return revision
    return 0


def apply_step(ops: list[dict[str, Any]]) -> Callable[[list[Any]], dict[str, Any]]:
    """Arguments for a ``cms_apply`` based on the last revision seen."""
    return lambda results: {"basedOn": based_on_last(results), "ops": ops}


HERO = [
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
    {
        "t": "insert_node",
        "node": {"id": "title", "type": "heading", "parent": "hero",
                 "props": {"content": "Rosa's Bakery", "level": 1}},
    },
]
