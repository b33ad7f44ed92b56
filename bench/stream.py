"""Benchmark: 100 SSE clients on one session, delay from commit to receipt (goal: p95 ≤ 100 ms).

Run with ``.venv/bin/python -m bench.stream``; prints the figures as JSON.
A real uvicorn server runs ``Charlotte.asgi_app()`` in a child process on a
file SQLite database; this process opens 100 streaming HTTP clients on one
session, then commits events one at a time straight into the database (as a
worker process would, so the server learns of them only through its
notifier's polling) and notes each commit's
time. Each client notes when each event arrives; the delay of every
(client, event) pair goes into the percentiles. ``peak_rss_mb_stream`` is
the server process's peak resident memory.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from charlotte.events import AGENT_ACTOR, EventTypes
from charlotte.storage import DatabaseEventLog, open_engine, transaction

CLIENTS = 100
EVENTS = 50
# Between commits: a turn's recorder flushes text every 250 ms; 20 ms is harsher.
GAP_SECONDS = 0.02
HEADERS = {"X-User": "bench", "X-Tenant": "bench"}
PAYLOAD = {"text": "A warm welcome to the bakery on the corner. "}


def serve(database: str) -> None:
    """The child process: migrate, serve ``asgi_app()`` on a free loopback port, print the port."""
    import uvicorn

    from charlotte.app import Charlotte
    from charlotte.settings import Settings

    charlotte = Charlotte(Settings(database_url=f"sqlite:///{database}", queue="inline"))
    charlotte.migrate()
    charlotte.resolve_user_using(lambda request: request.headers.get("x-user"))
    charlotte.resolve_tenant_using(lambda request: request.headers.get("x-tenant"))
    # Each connection inherits TCP_NODELAY (else a response's body waits ~40 ms
    # for the ACK of its headers on a kept-alive connection).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    print(sock.getsockname()[1], flush=True)
    config = uvicorn.Config(
        charlotte.asgi_app(), log_level="warning", timeout_graceful_shutdown=5, limit_concurrency=1000
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        charlotte.close()


def _peak_rss_mb(pid: int) -> float | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


async def _client(
    client: httpx.AsyncClient, url: str, last: int, ready: asyncio.Event, counter: list[int], total: int
) -> dict[int, float]:
    """Receipt times by seq for one client, until seq ``last``."""
    received: dict[int, float] = {}
    async with client.stream("GET", url, headers=HEADERS) as response:
        response.raise_for_status()
        counter[0] += 1
        if counter[0] == total:
            ready.set()
        seq: int | None = None
        async for line in response.aiter_lines():
            if line.startswith("id: "):
                seq = int(line[4:])
            elif line == "" and seq is not None:
                received[seq] = time.monotonic()
                if seq >= last:
                    break
                seq = None
    return received


def _write(database: str, session_id: str, committed: dict[int, float]) -> None:
    engine = open_engine(f"sqlite:///{database}")
    log = DatabaseEventLog()
    try:
        for _ in range(EVENTS):
            with transaction(engine) as conn:
                seq = log.append(conn, session_id, EventTypes.TEXT_DELTA, PAYLOAD, actor=AGENT_ACTOR)
            committed[seq] = time.monotonic()
            time.sleep(GAP_SECONDS)
    finally:
        engine.dispose()


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


async def _measure(base: str, database: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30) as client:
        opened = await client.post(f"{base}/sessions", json={"page": "home", "brief": "A bakery"}, headers=HEADERS)
        opened.raise_for_status()
        session = opened.json()["session"]
        session_id, start = session["id"], session["last_seq"]
    last = start + EVENTS
    url = f"{base}/sessions/{session_id}/stream?after={start}"
    limits = httpx.Limits(max_connections=CLIENTS + 10, max_keepalive_connections=0)
    committed: dict[int, float] = {}
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        ready = asyncio.Event()
        counter = [0]
        readers = [
            asyncio.create_task(_client(client, url, last, ready, counter, CLIENTS)) for _ in range(CLIENTS)
        ]
        await asyncio.wait_for(ready.wait(), 60)
        writer = threading.Thread(target=_write, args=(database, session_id, committed))
        writer.start()
        results = await asyncio.wait_for(asyncio.gather(*readers), 120)
        await asyncio.to_thread(writer.join)
    delays = [
        (received[seq] - committed[seq]) * 1000
        for received in results
        for seq in range(start + 1, last + 1)
        if seq in received
    ]
    complete = all(sorted(received) == list(range(start + 1, last + 1)) for received in results)
    return {
        "stream_clients": CLIENTS,
        "stream_events": EVENTS,
        "stream_all_received": complete,
        "stream_p50_ms": round(_percentile(delays, 0.50), 1),
        "stream_p95_ms": round(_percentile(delays, 0.95), 1),
        "stream_max_ms": round(max(delays), 1),
    }


def until_answering(base: str) -> None:
    """The child prints its port before uvicorn listens: wait (30 s at most) until it answers."""
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"{base}/openapi.json", timeout=5)
            return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@contextmanager
def served(database: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``serve(database)`` in a child process: the child and its base URL; ended on leaving."""
    root = Path(__file__).resolve().parent.parent
    child = subprocess.Popen(
        [sys.executable, "-m", "bench.stream", "--serve", database],
        stdout=subprocess.PIPE, text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
    )  # fmt: skip
    try:
        assert child.stdout is not None
        base = f"http://127.0.0.1:{int(child.stdout.readline())}"
        until_answering(base)
        yield child, base
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()


def run() -> dict[str, Any]:
    """The stream figures: commit-to-receipt p50/p95/max over 100 clients, and the server's peak RSS."""
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "stream.db")
        with served(database) as (child, base):
            figures = asyncio.run(_measure(base, database))
            figures["peak_rss_mb_stream"] = _peak_rss_mb(child.pid)
    return figures


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2])
    else:
        print(json.dumps(run(), indent=2))
