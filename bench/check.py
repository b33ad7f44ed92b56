"""Benchmark: ``cms_check`` on a hostile session, and how the readers grow with hostile text.

Run with ``.venv/bin/python -m bench.check``; prints the figures as JSON.

The session, on a file SQLite database: a 20,000-character brief of the form
``1 111 111 …`` (a space is a thousands separator: the shape that once made
one ``cms_check`` cost minutes), a 20,000-character fact ``Mon 9-5 Mon 9-5 …``
and a 2,000-node page (100 sections, each a heading and 18 texts) written
with ``cms_apply``. Every text holds 5,000 characters of one of the hostile
shapes of ``tests/support/hostile_text.py``; the page holds two distinct
texts per shape, each repeated on many nodes. Each ``cms_check`` goes through
``PageTools.call`` exactly as the agent makes it (session and draft loaded,
the page validated, the four checks).

- ``check_hostile_ms``: the median ``cms_check`` after the session's first
  one, i.e. what every further check of a turn costs: the brief and facts are
  read once per session, and a text already read is not read again; goal < 100.
- ``check_hostile_first_ms``: the session's first ``cms_check``, reading the
  brief, the facts and every distinct text.
- ``check_hostile_checks_ms``: the ``PageChecks.run`` part of a further check.
- ``check_quality_ms``: ``quality_findings`` alone on the 2,000-node page, each band
  with colours and sizes at every breakpoint (one pass over the nodes per width).
- ``check_read_us_per_char``: the slowest shape's cost of reading fresh text
  (a 20,000-character brief and as much page text), per character: what the
  first check of a page of new texts costs, per character of copy.
- ``check_growth_4x``: the largest time(20,000) / time(5,000) over the shapes
  (linear: 4; the readers were quadratic: 16); goal ≤ 6.
"""

from __future__ import annotations

import itertools
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.support.hostile_text import SHAPES, hostile
from tests.support.units import call_tool, in_unit

from charlotte.checks import PageChecks
from charlotte.checks.quality import quality_findings
from charlotte.drafts.workspace import Workspace
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.storage import SessionStore, create_tables, open_engine, transaction
from charlotte.tools import PageTools, ToolBinding, is_error

SECTIONS = 100
TEXTS_PER_SECTION = 18
TEXT_LENGTH = 5_000
BRIEF_LENGTH = 20_000
CALLS = 7
GROWTH_REPEATS = 3
OPS_PER_APPLY = 200

_salts = itertools.count()


def _texts() -> list[str]:
    """Two distinct 5,000-character texts per hostile shape."""
    return [hostile(shape, TEXT_LENGTH, f" ({copy})") for shape in SHAPES for copy in (1, 2)]


def page_ops() -> list[dict[str, Any]]:
    """The 2,000 nodes as insert_node ops: sections, each a heading and 18 hostile texts."""
    texts = _texts()
    ops: list[dict[str, Any]] = []
    for s in range(SECTIONS):
        ops.append({"t": "insert_node", "node": {"id": f"s{s}", "type": "section", "parent": None}})
        ops.append({"t": "insert_node", "node": {"id": f"s{s}-h", "type": "heading", "parent": f"s{s}",
                                                 "props": {"content": f"Section {s}", "level": 2}}})  # fmt: skip
        for i in range(TEXTS_PER_SECTION):
            words = texts[(s * TEXTS_PER_SECTION + i) % len(texts)]
            ops.append({"t": "insert_node", "node": {"id": f"s{s}-t{i}", "type": "text", "parent": f"s{s}",
                                                     "props": {"content": words}}})  # fmt: skip
    return ops


def _write_page(tools: PageTools, binding: ToolBinding) -> int:
    ops = page_ops()
    revision = 0
    for start in range(0, len(ops), OPS_PER_APPLY):
        result = call_tool(tools, "cms_apply", {"basedOn": revision, "ops": ops[start : start + OPS_PER_APPLY]}, binding)
        if is_error(result):
            raise RuntimeError(f"the benchmark page was refused: {result['error']['code']}")
        revision = result["revision"]
    return len(ops)


def _check(tools: PageTools, binding: ToolBinding) -> float:
    started = time.perf_counter()
    result = call_tool(tools, "cms_check", {}, binding)
    elapsed = time.perf_counter() - started
    if is_error(result) or not isinstance(result.get("findings"), list):
        raise RuntimeError("cms_check failed on the benchmark page")
    return elapsed


def hostile_session() -> dict[str, float]:
    """cms_check figures on the hostile session (first call, then further calls)."""
    with tempfile.TemporaryDirectory() as folder:
        engine = open_engine(f"sqlite:///{Path(folder) / 'check.db'}")
        try:
            create_tables(engine)
            workspace = Workspace(engine)
            tools = PageTools(workspace)
            with transaction(engine) as conn:
                session = SessionStore().create(
                    conn, tenant="bench", page="hostile", created_by="bench",
                    brief=hostile("spaced thousands", BRIEF_LENGTH),
                    facts={"hours": hostile("days and hours", BRIEF_LENGTH)},
                )  # fmt: skip
            binding = ToolBinding.for_session(session.id, session.tenant, session.page)
            nodes = _write_page(tools, binding)
            if nodes != SECTIONS * (TEXTS_PER_SECTION + 2):
                raise RuntimeError(f"the benchmark page has {nodes} nodes")
            first = _check(tools, binding)
            further = [_check(tools, binding) for _ in range(CALLS)]
            doc, _revision = in_unit(workspace, session.id, session.tenant).draft()
            checks = PageChecks(brief=session.brief, facts={"hours": session.facts["hours"]})
            runs = []
            for _ in range(CALLS):
                started = time.perf_counter()
                checks.run(doc)
                runs.append(time.perf_counter() - started)
        finally:
            engine.dispose()
    return {
        "check_hostile_ms": round(statistics.median(further) * 1000, 1),
        "check_hostile_first_ms": round(first * 1000, 1),
        "check_hostile_checks_ms": round(statistics.median(runs) * 1000, 1),
    }


def _fresh_run(shape: str, length: int) -> float:
    """CPU seconds of PageChecks on a fresh brief and page text of ``length`` (no memo helps).

    CPU time, not wall time: a neighbour on a shared machine must not make a ratio.
    """
    salt = f" ~{next(_salts)}"
    doc = {"nodes": {"t": {"id": "t", "type": "text", "parent": None, "order": "V",
                           "props": {"content": hostile(shape, length, salt)}}}}  # fmt: skip
    brief = hostile(shape, length, salt + "b")
    started = time.process_time()
    PageChecks(brief=brief).run(doc)
    return time.process_time() - started


def growth() -> dict[str, float]:
    """The slowest shape per character, and the largest growth from 5,000 to 20,000 characters."""
    per_char = 0.0
    ratio = 0.0
    for shape in SHAPES:
        small = min(_fresh_run(shape, 5_000) for _ in range(GROWTH_REPEATS))
        large = min(_fresh_run(shape, 20_000) for _ in range(GROWTH_REPEATS))
        per_char = max(per_char, large / 40_000)
        ratio = max(ratio, large / small)
    return {"check_read_us_per_char": round(per_char * 1e6, 2), "check_growth_4x": round(ratio, 2)}


def quality_page() -> dict[str, Any]:
    """The benchmark's 2,000 nodes as a page, each band on a dark ground with its own colours at each breakpoint."""
    nodes: dict[str, Any] = {}
    for n, op in enumerate(page_ops()):
        node = {**op["node"], "order": f"{n:06d}", "props": op["node"].get("props", {})}
        node["style"] = (
            {"base": {"background": "#111827", "color": "#f9fafb"}, "md": {"background": "rgb(17 24 39 / 90%)"}}
            if node["type"] == "section"
            else {"base": {"fontSize": {"value": 18, "unit": "px"}}, "lg": {"color": "#e5e7eb"}}
        )
        nodes[node["id"]] = node
    meta = {"title": "Bench", "slug": "/", "scrollMode": "smooth"}
    return {"id": "bench", "seq": 0, "meta": meta, "breakpoints": ["base", "md", "lg"], "nodes": nodes}


def check_quality() -> dict[str, float]:
    """``check_quality_ms``: the median ``quality_findings`` of the 2,000-node page (5,000-character texts)."""
    doc = quality_page()
    assets = InMemoryAssetLibrary()
    runs = []
    for _ in range(CALLS):
        started = time.perf_counter()
        quality_findings(doc, assets=assets)
        runs.append(time.perf_counter() - started)
    return {"check_quality_ms": round(statistics.median(runs) * 1000, 1)}


def run() -> dict[str, float]:
    """Run the benchmark; returns the figures."""
    return {**hostile_session(), **growth(), **check_quality()}


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
