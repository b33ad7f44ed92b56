"""The client's reducer, renderer and stylesheet on the pages charlotte builds.

The demo's page and every evaluation case's page are built by a real
``Charlotte`` (SQLite, inline queue, the offline model) from their brief,
facts and messages. One Node process then replays the ops of every
``cms_apply`` call those turns made (as the tool calls carried them) with
``reduceAll``, and renders each draft with ``renderHtml`` and ``emitCss``; all
of it must equal the Python reference, and the draft's HTML and CSS as the
session serves them (``GET /draft``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import pytest
from tests.support.node_js import first_difference, module_url, needs_node, run_node

from charlotte import Charlotte, Settings
from charlotte.demo import FIRST_MESSAGE, SAMPLE_BRIEF, SAMPLE_FACTS, SAMPLE_FOLLOW_UP
from charlotte.evaluation.cases import load_default
from charlotte.page.model import empty_doc
from charlotte.page.ops import reduce_all, touched_node_ids

pytestmark = needs_node

RUNNER: Final = """
import { reduceAll, touchedNodeIds } from %s;
import { renderHtml } from %s;
import { emitCss } from %s;
const { batches, drafts } = INPUT;
const replayed = [];
for (const [start, ops] of batches) {
  const { doc, skipped } = reduceAll(start, ops);
  replayed.push({ doc, skipped, touched: touchedNodeIds(ops) });
}
console.log(JSON.stringify({
  replayed,
  html: drafts.map((doc) => renderHtml(doc)),
  css: drafts.map((doc) => emitCss(doc)),
}));
"""


def _build(charlotte: Charlotte, key: str, brief: str, facts: dict[str, str], messages: list[str]) -> dict[str, Any]:
    session = charlotte.for_user("ann").tenant("acme").page(key).brief(brief).facts(facts).open()
    for message in messages:
        assert session.send(message)["status"] == "finished"
    events = session.events(0, 1000)
    assert len(events) < 1000  # the whole log in one read
    applied = [
        event["payload"]["arguments"]["ops"]
        for event in events
        if event["type"] == "tool.called" and event["payload"]["name"] == "cms_apply"
    ]
    return {"draft": session.draft(), "applied": applied, "key": key}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    path: Path = tmp_path_factory.mktemp("built") / "pages.db"
    with Charlotte(Settings(database_url=f"sqlite:///{path}", queue="inline")) as charlotte:
        charlotte.migrate()
        pages = [_build(charlotte, "demo", SAMPLE_BRIEF, dict(SAMPLE_FACTS), [FIRST_MESSAGE, SAMPLE_FOLLOW_UP])]
        for case in load_default():
            messages = [case.first_message, *(follow.message for follow in case.follow_ups)]
            pages.append(_build(charlotte, case.id, case.brief, dict(case.facts), messages))
    return pages


def test_built_pages_replay_render_and_style_the_same(built: list[dict[str, Any]]) -> None:
    batches: list[tuple[Any, list[Any]]] = []
    for page in built:
        doc = empty_doc(page["key"])
        for ops in page["applied"]:
            batches.append((doc, ops))
            doc = reduce_all(doc, ops)[0]
    drafts = [page["draft"]["page"] for page in built]
    script = RUNNER % tuple(f'"{module_url(name)}"' for name in ("ops", "render", "css"))
    found = run_node(script, {"batches": batches, "drafts": drafts})

    expected = []
    for start, ops in batches:
        doc, skipped = reduce_all(start, ops)
        expected.append({"doc": doc, "skipped": [list(s) for s in skipped], "touched": list(touched_node_ids(ops))})
    assert found["replayed"] == expected, first_difference(found["replayed"], expected, batches)
    served_html = [page["draft"]["html"] for page in built]
    served_css = [page["draft"]["css"] for page in built]
    assert found["html"] == served_html, first_difference(found["html"], served_html, drafts)
    assert found["css"] == served_css, first_difference(found["css"], served_css, drafts)
    # Real pages, with sections and styles, many batches each.
    assert len(built) == 1 + len(load_default()) and len(batches) > 2 * len(built)
    assert all(len(doc["nodes"]) > 10 and css for doc, css in zip(drafts, served_css, strict=True))
