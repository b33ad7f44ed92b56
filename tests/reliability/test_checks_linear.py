"""Hostile copy through the checks: every reader is linear, and a session's brief is read once.

A brief of the form ``1 111 111 …`` once cost a minute per ``cms_check`` (the
thousands pattern retried the whole chain from each group), and the brief was
read again on every call. Here each hostile shape (``tests/support/hostile_text``)
goes, at full size, through the real ``PageTools.call("cms_check")`` on SQLite:
a 20,000-character brief, a 20,000-character fact, a 20,000-character message
of the person (the largest a turn takes) and a page of four 5,000-character
texts. Then the growth: a full ``PageChecks`` run (a brief, a message of the
person and a page text) at four times the size may cost at most six times as
much (quadratic costs sixteen). Times
are CPU seconds of this process (neighbours on a shared machine do not count)
and the least of several interleaved runs, each on fresh text so no memo helps.
"""

from __future__ import annotations

import gc
import itertools
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Final

import pytest
import sqlalchemy as sa
from tests.support.databases import sqlite_engine_at, unshared_session
from tests.support.hostile_text import SHAPES, hostile
from tests.support.runner_harness import HERO, Harness, apply_step
from tests.support.soak import show
from tests.support.units import call_tool

from charlotte.checks import PageChecks, facts
from charlotte.checks.claims import Reading
from charlotte.checks.quality import quality_findings
from charlotte.drafts.workspace import Workspace
from charlotte.events import utc_now
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.runtime.turns import MAX_MESSAGE
from charlotte.storage import SessionRecord, TurnRecord, TurnStore, create_tables, transaction
from charlotte.testing import Text, ToolCall
from charlotte.tools import PageTools, ToolBinding, is_error

#: CPU seconds one cms_check on a hostile session may take (a linear one takes a fraction).
CHECK_LIMIT: Final = 1.0
#: time(4 n) / time(n) allowed; linear is 4, quadratic 16.
GROWTH_LIMIT: Final = 6.0
#: Below this a measurement is noise: added to the allowed time at 4 n.
NOISE_SECONDS: Final = 0.003
REPEATS: Final = 5

salts = itertools.count()


def fresh(shape: str, length: int) -> str:
    """Hostile text no memo has seen."""
    return hostile(shape, length, f" ~{next(salts)}")


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sa.Engine]:
    engine = sqlite_engine_at(tmp_path_factory.mktemp("checks-linear") / "checks.db")
    create_tables(engine)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def tools(engine: sa.Engine) -> PageTools:
    return PageTools(Workspace(engine))


def page_of(shape: str) -> list[dict[str, Any]]:
    """A section holding four 5,000-character texts of ``shape`` (the longest a text may be)."""
    ops: list[dict[str, Any]] = [{"t": "insert_node", "node": {"id": "s", "type": "section", "parent": None}}]
    for i in range(4):
        node = {"id": f"t{i}", "type": "text", "parent": "s", "props": {"content": fresh(shape, 5_000)}}
        ops.append({"t": "insert_node", "node": node})
    return ops


def said(engine: sa.Engine, session: SessionRecord, message: str) -> None:
    """A finished turn of ``session`` whose message is ``message``."""
    record = TurnRecord(uuid.uuid4().hex, session.id, session.tenant, message, "ann", "finished",
                        False, None, utc_now(), None, None, None)  # fmt: skip
    with transaction(engine) as conn:
        TurnStore().insert(conn, record)


def cpu_seconds(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


checked: dict[str, float] = {}


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(SHAPES))
def test_cms_check_on_a_hostile_session_takes_bounded_time(
    engine: sa.Engine, tools: PageTools, shape: str, request: pytest.FixtureRequest
) -> None:
    session = unshared_session(engine, brief=fresh(shape, 20_000), facts={"notes": fresh(shape, 20_000)})
    said(engine, session, fresh(shape, MAX_MESSAGE))
    binding = ToolBinding.for_session(session.id, session.tenant, session.page)
    applied = call_tool(tools, "cms_apply", {"basedOn": 0, "ops": page_of(shape)}, binding)
    assert not is_error(applied), applied
    results: list[dict[str, Any]] = []
    # The suite's process holds every earlier test's objects: a full collection of them
    # landing in the call (measured once at 1.07 s against 0.49-0.54) is not the check's cost.
    gc.collect()
    seconds = cpu_seconds(lambda: results.append(call_tool(tools, "cms_check", {}, binding)))
    assert not is_error(results[0]), results[0]
    assert isinstance(results[0]["findings"], list)
    checked[shape] = seconds
    show(request, f"cms_check, {shape}: {seconds * 1000:.0f} ms CPU")
    assert seconds < CHECK_LIMIT, f"{shape}: one cms_check took {seconds:.2f} s"


def run_checks(shape: str, length: int) -> float:
    """CPU seconds of a full PageChecks run: a brief, a message of the person and a page text of ``length`` each."""
    doc = {"nodes": {"t": {"id": "t", "type": "text", "parent": None, "order": "V",
                           "props": {"content": fresh(shape, length)}}}}  # fmt: skip
    brief, message = fresh(shape, length), fresh(shape, length)
    return cpu_seconds(lambda: PageChecks(brief=brief, person_said=[message]).run(doc))


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_checks_grow_linearly_with_hostile_text(shape: str, request: pytest.FixtureRequest) -> None:
    small: list[float] = []
    large: list[float] = []
    for _ in range(REPEATS):  # interleaved: a noisy moment slows both sizes alike
        small.append(run_checks(shape, 2_500))
        large.append(run_checks(shape, 10_000))
    at_n, at_4n = min(small), min(large)
    show(request, f"checks, {shape}: {at_n * 1000:.1f} ms at 2,500, {at_4n * 1000:.1f} ms at 10,000")
    assert at_4n <= GROWTH_LIMIT * at_n + NOISE_SECONDS, (
        f"{shape}: {at_4n / max(at_n, 1e-9):.1f} times as long at four times the size"
    )


def test_the_brief_and_facts_are_read_once_per_session(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three checks and a ready in one turn, then a second turn: the brief and each message are read once."""
    reads: Counter[str] = Counter()
    real_read = facts.read

    def counting_read(text: str, *, number_words: bool = False) -> Reading:
        reads[text] += 1
        return real_read(text, number_words=number_words)

    monkeypatch.setattr(facts, "read", counting_read)
    harness = Harness(engine)
    brief = fresh("spaced thousands", 2_000)
    session = harness.open(brief=brief, facts={"phone": "+41 44 123 45 67"})
    check = ToolCall("cms_check", {})
    ready = ToolCall("cms_ready", {"summary": "Built."})
    asked, again = f"Build it, call +41 44 123 45 68 ~{next(salts)}", f"Check again ~{next(salts)}"
    turn = [ToolCall("cms_apply", apply_step(HERO)), check, check, check, ready, Text("Done.")]
    harness.send(session, turn, asked)
    first = harness.models[-1].tool_results
    assert [r.get("ready") for r in first[1:]] == [None, None, None, True], first
    assert reads[brief] == 1
    assert reads["phone: +41 44 123 45 67"] == 1
    assert reads[asked] == 1
    harness.send(session, [check, check, Text("Checked.")], again)
    # The second turn sees the first turn's results (its history) and its own two checks.
    assert len(harness.models[-1].tool_results) == len(first) + 2
    assert reads[brief] == 1, "a second turn with the same brief read it again"
    assert (reads[asked], reads[again]) == (1, 1), "a new message read an earlier one again"


def quality_page(bands: int) -> dict[str, Any]:
    """``bands`` sections on dark grounds, each a heading and 18 texts with colours at every breakpoint."""
    nodes: dict[str, Any] = {}
    for s in range(bands):
        nodes[f"s{s}"] = {"id": f"s{s}", "type": "section", "parent": None, "order": f"{s:06d}", "props": {},
                          "style": {"base": {"background": "#111827", "color": "#f9fafb"},
                                    "md": {"background": "rgb(17 24 39 / 90%)"}}}  # fmt: skip
        nodes[f"s{s}-h"] = {"id": f"s{s}-h", "type": "heading", "parent": f"s{s}", "order": "0",
                            "props": {"content": f"Band {s}", "level": 2 + s % 3}, "style": {}}  # fmt: skip
        for i in range(18):
            nodes[f"s{s}-t{i}"] = {"id": f"s{s}-t{i}", "type": "text", "parent": f"s{s}", "order": f"{i + 1:03d}",
                                   "props": {"content": f"Fresh bread {s} {i}, baked daily."},
                                   "style": {"lg": {"color": "#9ca3af" if i % 2 else "var(--ink)"}}}  # fmt: skip
    meta = {"title": "Home", "slug": "/", "scrollMode": "smooth"}
    return {"id": "home", "seq": 0, "meta": meta, "breakpoints": ["base", "md", "lg"], "nodes": nodes}


@pytest.mark.slow
def test_the_quality_check_grows_linearly_with_the_page(request: pytest.FixtureRequest) -> None:
    assets = InMemoryAssetLibrary()
    small_page, large_page = quality_page(25), quality_page(100)  # 500 and 2,000 nodes
    small: list[float] = []
    large: list[float] = []
    for _ in range(REPEATS):
        small.append(cpu_seconds(lambda: quality_findings(small_page, assets=assets)))
        large.append(cpu_seconds(lambda: quality_findings(large_page, assets=assets)))
    at_n, at_4n = min(small), min(large)
    show(request, f"quality: {at_n * 1000:.1f} ms at 500 nodes, {at_4n * 1000:.1f} ms at 2,000")
    assert at_4n <= GROWTH_LIMIT * at_n + NOISE_SECONDS
    assert at_4n < CHECK_LIMIT
