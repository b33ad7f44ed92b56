"""Benchmark: what a site pays to read a published 1,000-node page (``Charlotte.published_page``).

Run with ``.venv/bin/python -m bench.published``; prints the figures as JSON.

- ``published_page_ms``: p95 of one ``published_page(tenant, page)`` with a warm
  render cache (one primary-key read, the cached render returned); goal ≤ 2 ms.
- ``published_page_first_ms``: the first read of a revision (the row, the
  document loaded and rendered: body, head, stylesheet, standalone document).
- ``published_page_after_publish_ms``: the first read after a new publish (a
  new revision: the cache never serves the old one).
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.replay import build_page
from charlotte import Charlotte, Settings
from charlotte.events import utc_now

READS = 2_000
TENANT, PAGE = "bench", "home"


def _publish(charlotte: Charlotte, doc: dict[str, Any]) -> None:
    # The published copy and its row as Workspace.publish writes them (no session needed).
    workspace = charlotte.workspace
    with charlotte.units.writing() as conn:
        workspace.pages.save_published(conn, TENANT, PAGE, doc)
        workspace.published_pages.record(conn, TENANT, PAGE, doc["seq"], utc_now())


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{Path(folder) / 'published.db'}", queue="inline")
        charlotte = Charlotte(settings)
        try:
            charlotte.migrate()
            doc = build_page()
            doc["seq"] = 1
            _publish(charlotte, doc)
            started = time.perf_counter()
            first = charlotte.published_page(TENANT, PAGE)
            first_seconds = time.perf_counter() - started
            assert first is not None and first.revision == 1
            samples = []
            for _ in range(READS):
                started = time.perf_counter()
                page = charlotte.published_page(TENANT, PAGE)
                samples.append(time.perf_counter() - started)
                assert page is first
            doc["seq"] = 2
            _publish(charlotte, doc)
            started = time.perf_counter()
            after = charlotte.published_page(TENANT, PAGE)
            after_seconds = time.perf_counter() - started
            assert after is not None and after.revision == 2
        finally:
            charlotte.close()
    samples.sort()
    return {
        "published_page_ms": _ms(samples[int(len(samples) * 0.95)]),
        "published_page_p50_ms": _ms(statistics.median(samples)),
        "published_page_first_ms": _ms(first_seconds),
        "published_page_after_publish_ms": _ms(after_seconds),
        "published_page_nodes": len(doc["nodes"]),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
