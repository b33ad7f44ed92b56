"""Benchmark: opening a stream at the end of a long log costs what it costs at a short one.

Run with ``.venv/bin/python -m bench.long_log``; prints the figures as JSON.
A real uvicorn server (``bench.stream.serve``) on a file SQLite database; two
sessions, one with 100 events and one with 100,000 (written straight into the
log, 1,000 per transaction). For each, ``ROUNDS`` times: open
``/sessions/{id}/stream?after=<last seq>`` (a browser coming back at the end
of its log) and time until the response's headers arrive, then append one
event and time until it arrives on that stream. ``long_log_open_ratio`` is the
median open time at 100,000 events ÷ the median at 100 (the goal: ≈ 1); the
commit → receipt medians are reported beside it, and ``GET /events`` after the
last seq the same way.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.stream import HEADERS, PAYLOAD, served
from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent
from charlotte.storage import DatabaseEventLog, open_engine, transaction

SHORT = 100
LONG = 100_000
ROUNDS = 15
CHUNK = 1_000


def _fill(database: str, session_id: str, count: int) -> int:
    """``count`` text deltas appended to the session's log; its last seq."""
    engine = open_engine(f"sqlite:///{database}")
    log = DatabaseEventLog()
    last = 0
    try:
        for start in range(0, count, CHUNK):
            batch = [
                NewEvent(EventTypes.TEXT_DELTA, PAYLOAD, AGENT_ACTOR)
                for _ in range(min(CHUNK, count - start))
            ]
            with transaction(engine) as conn:
                last = log.append_many(conn, session_id, batch)[-1]
    finally:
        engine.dispose()
    return last


def _append_one(database: str, session_id: str) -> float:
    engine = open_engine(f"sqlite:///{database}")
    try:
        with transaction(engine) as conn:
            DatabaseEventLog().append(conn, session_id, EventTypes.TEXT_DELTA, PAYLOAD, actor=AGENT_ACTOR)
        return time.monotonic()
    finally:
        engine.dispose()


async def _round(client: httpx.AsyncClient, base: str, database: str, session_id: str) -> tuple[float, float, float]:
    """(open ms, commit → receipt ms, GET /events ms) for one stream opened at the end."""
    status = (await client.get(f"{base}/sessions/{session_id}", headers=HEADERS)).json()["session"]
    last = status["last_seq"]
    began = time.monotonic()
    events = await client.get(f"{base}/sessions/{session_id}/events", params={"after": last}, headers=HEADERS)
    events_ms = (time.monotonic() - began) * 1000
    assert events.status_code == 200 and events.json()["events"] == []
    began = time.monotonic()
    url = f"{base}/sessions/{session_id}/stream?after={last}"
    async with client.stream("GET", url, headers=HEADERS) as response:
        open_ms = (time.monotonic() - began) * 1000
        response.raise_for_status()
        committed = await asyncio.to_thread(_append_one, database, session_id)
        async for line in response.aiter_lines():
            if line.startswith("id: ") and int(line[4:]) == last + 1:
                return open_ms, (time.monotonic() - committed) * 1000, events_ms
    raise RuntimeError("the stream ended before the new event")


async def _measure(base: str, database: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=60) as client:
        ids = []
        for count in (SHORT, LONG):
            opened = await client.post(f"{base}/sessions", json={"page": f"log-{count}", "brief": "A bakery"},
                                       headers=HEADERS)  # fmt: skip
            opened.raise_for_status()
            session_id = opened.json()["session"]["id"]
            await asyncio.to_thread(_fill, database, session_id, count)
            ids.append(session_id)
        found: dict[int, list[tuple[float, float, float]]] = {SHORT: [], LONG: []}
        for _ in range(ROUNDS):  # interleaved, so that noise falls on both alike
            for count, session_id in zip((SHORT, LONG), ids, strict=True):
                found[count].append(await asyncio.wait_for(_round(client, base, database, session_id), 60))
    med = {count: [statistics.median(r[i] for r in rounds) for i in range(3)] for count, rounds in found.items()}
    return {
        "long_log_events": LONG,
        "long_log_open_ms_100": round(med[SHORT][0], 2),
        "long_log_open_ms_100k": round(med[LONG][0], 2),
        "long_log_open_ratio": round(med[LONG][0] / med[SHORT][0], 2),
        "long_log_delivery_ms_100": round(med[SHORT][1], 1),
        "long_log_delivery_ms_100k": round(med[LONG][1], 1),
        "long_log_events_ms_100": round(med[SHORT][2], 2),
        "long_log_events_ms_100k": round(med[LONG][2], 2),
    }


def run() -> dict[str, Any]:
    """The long-log figures (see the module docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "long.db")
        with served(database) as (_child, base):
            return asyncio.run(_measure(base, database))


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
