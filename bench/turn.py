"""Benchmark: a scripted 20-tool-call turn end to end, against a bare pydantic-ai agent.

Run with ``.venv/bin/python -m bench.turn``; prints the figures as JSON.

Charlotte's side is a whole turn through the queue, assembled the way
``tests/support/runner_harness.py`` does it: ``Turns.send`` on an
``InlineQueue`` runs ``TurnRunner`` with ``charlotte.testing.ScriptedModel``
against the real ``PageTools`` and a file SQLite database (claim, heartbeat
thread, the agent, every tool call with its write and event, the stream
recorder, finish). The script makes 20 tool calls, one per model response:
reads, 14 ``cms_apply`` writes building a page, a check and a find.

The baseline is a bare pydantic-ai ``Agent`` offered the same nine tool schemas
as no-op tools, running the same ``ScriptedModel`` script the same way
(``run_stream_events``, every event consumed, one ``asyncio.run`` per turn).

``turn_overhead_ms_per_tool_call`` is (charlotte turn - bare turn) / 20;
``turn_overhead_ratio`` is the charlotte turn's median over the bare one's,
measured alternately in this run; goal ≤ 2.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from pydantic_ai import Agent, RunContext, Tool
from tests.support.runner_harness import apply_step, based_on_last

from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.runtime.guide import build_guide
from charlotte.runtime.modes import ModeRegistry
from charlotte.runtime.queues import InlineQueue
from charlotte.runtime.runner import TurnRunner
from charlotte.runtime.turns import Turns
from charlotte.settings import Settings
from charlotte.storage import SessionStore, create_tables, open_engine, transaction
from charlotte.testing import ScriptedModel, Step, ToolCall
from charlotte.tools import PageTools

TOOL_CALLS = 20
APPLIES = 14
TURNS = 12
WARMUP = 2
TENANT = "bench"


def _apply(n: int) -> Callable[[list[Any]], dict[str, Any]]:
    ops = [
        {"t": "insert_node", "node": {"id": f"s{n}", "type": "section", "parent": None}},
        {"t": "insert_node", "node": {"id": f"h{n}", "type": "heading", "parent": f"s{n}",
                                      "props": {"content": f"Section {n}", "level": 2}}},
    ]  # fmt: skip
    return apply_step(ops)


def script() -> list[Step]:
    """20 tool calls, one per model response: 3 reads, 14 writes, get, check, find."""
    steps: list[Step] = [
        ToolCall("cms_facts", {}),
        ToolCall("cms_types", {}),
        ToolCall("cms_outline", {}),
    ]
    steps += [ToolCall("cms_apply", _apply(n)) for n in range(APPLIES)]
    steps += [ToolCall("cms_get", {}), ToolCall("cms_check", {}), ToolCall("cms_find", {"text": "Section"})]
    assert len(steps) == TOOL_CALLS
    return steps


class _Charlotte:
    """The runner harness: real storage, real tools, the inline queue, the scripted model."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self.settings = Settings(queue="inline")
        self.guide = build_guide(self.settings.brand_rules)
        self.models: list[ScriptedModel] = []
        workspace = Workspace(engine, links=SiteLinks(self.settings.site_origin, self.settings.allowed_origins))
        self.runner = TurnRunner(
            engine=engine,
            settings=self.settings,
            tools=PageTools(workspace),
            turns=Turns(engine, InlineQueue(lambda turn_id: self.runner.run(turn_id))),
            model_factory=self._model,
            guide=lambda: self.guide,
            modes=ModeRegistry(),
        )
        self.sessions = 0

    def _model(self) -> ScriptedModel:
        model = ScriptedModel(script())
        self.models.append(model)
        return model

    def turn(self) -> float:
        """Seconds for one whole turn on a fresh session (the queue runs it inside ``send``)."""
        self.sessions += 1
        with transaction(self.engine) as conn:
            session = SessionStore().create(
                conn, tenant=TENANT, page=f"page-{self.sessions}", created_by="bench",
                brief="A landing page for Rosa's Bakery", facts={"name": "Rosa's Bakery"},
                guide_hash=self.guide.hash,
            )  # fmt: skip
        started = time.perf_counter()
        self.runner.turns.send(session.id, session.tenant, "Build it", "bench")
        elapsed = time.perf_counter() - started
        results = self.models[-1].tool_results
        if len(results) != TOOL_CALLS or based_on_last(results) != 2 * APPLIES:
            raise RuntimeError("the benchmark turn did not make its 20 tool calls")
        return elapsed


def _noop(ctx: RunContext[None], **arguments: Any) -> dict[str, Any]:
    return {}


def _bare_agent(tools: PageTools) -> Agent[None, str]:
    definitions = tools.definitions()
    return Agent(
        instructions="Build the page.",
        output_type=str,
        tools=[
            Tool.from_schema(function=_noop, name=d.name, description=d.description,
                             json_schema=d.parameters_json_schema, takes_ctx=True)
            for d in definitions
        ],
    )  # fmt: skip


def bare_turn(agent: Agent[None, str]) -> float:
    """Seconds for the same script on a bare agent with no-op tools."""
    model = ScriptedModel(script())

    async def go() -> None:
        async with agent.run_stream_events("Build it", model=model) as events:
            async for _event in events:
                pass

    started = time.perf_counter()
    asyncio.run(go())
    elapsed = time.perf_counter() - started
    if len(model.tool_results) != TOOL_CALLS:
        raise RuntimeError("the bare turn did not make its 20 tool calls")
    return elapsed


def run() -> dict[str, Any]:
    """Run the benchmark; returns the figures."""
    with tempfile.TemporaryDirectory() as folder:
        engine = open_engine(f"sqlite:///{Path(folder) / 'turn.db'}")
        try:
            create_tables(engine)
            charlotte = _Charlotte(engine)
            bare = _bare_agent(charlotte.runner.tools)
            ours: list[float] = []
            theirs: list[float] = []
            # Alternate, so a noisy neighbour slows both sides alike.
            for index in range(WARMUP + TURNS):
                mine = charlotte.turn()
                base = bare_turn(bare)
                if index >= WARMUP:
                    ours.append(mine)
                    theirs.append(base)
        finally:
            engine.dispose()
    ours_ms = statistics.median(ours) * 1000
    bare_ms = statistics.median(theirs) * 1000
    return {
        "turn_ms": round(ours_ms, 1),
        "turn_bare_agent_ms": round(bare_ms, 1),
        "turn_ms_per_tool_call": round(ours_ms / TOOL_CALLS, 2),
        "turn_bare_ms_per_tool_call": round(bare_ms / TOOL_CALLS, 2),
        "turn_overhead_ms_per_tool_call": round((ours_ms - bare_ms) / TOOL_CALLS, 2),
        "turn_overhead_ratio": round(ours_ms / bare_ms, 2),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
