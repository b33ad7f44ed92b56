"""Load test of the whole path: N people at once, through the real HTTP API.

``python -m bench.load --sessions N [--backend pg|embedded] [--workers W]``
prints the figures of one run as JSON; ``run()`` (what ``make bench`` calls)
runs the sizes in ``SIZES`` on both backends.

Each person, all N at once: opens a session (every fourth one approve-on-save),
follows its stream and, once the stream has answered (as in the builder),
sends the first turn and two follow-ups (the offline model), waiting for each
to end, makes a hand edit, approves the change set where there is one,
publishes, and checks that the stream's seqs came without a gap. Measured: turns per minute, send → ``turn.started`` and send →
``turn.finished`` (the person's clock at the send, the receipt of the event on
the stream), commit → browser for every stream event (its stored ``at``
against its receipt), the latency of each API route (the stream's: to its
answer's headers), errors (any answer that is not the expected one, any
turn that does not finish: must be 0), seq gaps
(must be 0), the database connections in use (PostgreSQL: sampled from
``pg_stat_activity``), and the peak RSS of each process.

Backends: ``pg``: PostgreSQL (``CHARLOTTE_TEST_DATABASE_URL``, a schema of its
own, dropped at the end) and Celery (``CHARLOTTE_TEST_REDIS_URL``, a Redis
database of its own) with ``W`` worker processes (``charlotte worker
--concurrency 1``); ``embedded``: a SQLite file and the thread queue, what
``charlotte serve`` runs. The server is uvicorn running ``asgi_app()`` in a
child process. Everything talks to loopback only; every wait has a deadline;
every process started is ended in ``finally``.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from contextlib import AsyncExitStack, ExitStack
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from bench.stream import until_answering

ROOT = Path(__file__).resolve().parent.parent
HEADERS = {"X-User": "bench", "X-Tenant": "bench"}
BRIEF = (
    "A landing page for Rosa's Bakery, a family bakery in Lisbon baking sourdough, pastel de nata "
    "and seasonal cakes every morning. Sections: our menu, about us, opening hours and contact."
)
FACTS = {
    "name": "Rosa's Bakery",
    "address": "Rua das Flores 12, Lisbon",
    "phone": "+351 21 345 6789",
    "email": "hello@rosasbakery.example",
    "hours": "Tue-Sun 7:00-15:00",
}
MESSAGES = (
    "Build the first draft of the page from the brief.",
    'Change the headline to "Bread worth the walk"',
    "Add an FAQ section",
)
END_TYPES = frozenset({"turn.finished", "turn.stopped", "run.failed"})
#: The sizes ``make bench`` runs: (backend, sessions).
SIZES = (("pg", 200), ("embedded", 20))
#: The longest one person may take, and the whole run at the largest size (seconds).
PERSON_DEADLINE = 600.0
RUN_DEADLINE = 900.0
#: The most sessions one run may have (the test is bounded in count).
MAX_SESSIONS = 1_000
#: People per client process: a loop too busy to note a receipt would add its own lag.
PEOPLE_PER_CLIENT = 50


# -- the server and the workers (child processes) --------------------------------------------


def serve(config: dict[str, Any]) -> None:
    """The child process: ``asgi_app()`` under uvicorn on a free loopback port (printed first)."""
    import uvicorn

    from charlotte.app import Charlotte
    from charlotte.settings import Settings

    settings = Settings(**config)
    charlotte = Charlotte(settings)
    charlotte.migrate()
    charlotte.resolve_user_using(lambda request: request.headers.get("x-user"))
    charlotte.resolve_tenant_using(lambda request: request.headers.get("x-tenant"))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no ~40 ms wait per kept-alive answer
    sock.bind(("127.0.0.1", 0))
    print(sock.getsockname()[1], flush=True)
    server = uvicorn.Config(
        charlotte.asgi_app(), log_level="warning", timeout_graceful_shutdown=5,
        limit_concurrency=4_000, backlog=4_096,
    )  # fmt: skip
    try:
        uvicorn.Server(server).run(sockets=[sock])
    finally:
        charlotte.close()


def _start(args: list[str], env: dict[str, str], log: Path, *, pipe: bool = False) -> subprocess.Popen[str]:
    """A child in its own process group, its output to ``log`` (stdout piped back with ``pipe``)."""
    with log.open("w") as sink:
        return subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=subprocess.PIPE if pipe else sink,
            stderr=sink, text=True, start_new_session=True,
        )  # fmt: skip


def _end(process: subprocess.Popen[str]) -> None:
    """End ``process`` and its group (a worker's pool too): TERM, then KILL after 20 s."""
    try:
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(20)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)
    finally:
        if process.stdout is not None:
            process.stdout.close()


def _peak_rss_mb(pid: int) -> float:
    """The peak RSS of ``pid`` and its children (a prefork worker's pool), in MB."""
    total = 0.0
    for one in [pid, *descendants(pid)]:
        try:
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            continue
    return round(total, 1)


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` (all its threads) and its live children so far."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for one in [pid, *descendants(pid)]:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all cores so far (``/proc/stat``)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def descendants(pid: int) -> list[int]:
    """Every living process below ``pid`` (from ``/proc``; the load test's CPU and RSS figures, the tests' clean-up checks)."""
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            found.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return [*found, *(g for c in found for g in descendants(c))]


# -- one person ---------------------------------------------------------------------------------


@dataclass
class Figures:
    """What the people of one run measured."""

    started_ms: list[float] = field(default_factory=list)
    finished_ms: list[float] = field(default_factory=list)
    stream_ms: list[float] = field(default_factory=list)
    #: When each of ``stream_ms`` was received (wall clock), for the delay over time.
    stream_at: list[float] = field(default_factory=list)
    routes: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    #: How late the clients' loop woke each time (ms): a late loop delays every receipt it notes.
    client_lag_ms: list[float] = field(default_factory=list)
    gaps: int = 0
    turns: int = 0


class Person:
    """One person's session: its stream read beside the requests it sends."""

    def __init__(self, client: httpx.AsyncClient, base: str, figures: Figures, number: int) -> None:
        self.client, self.base, self.figures, self.number = client, base, figures, number
        self.events: list[tuple[float, dict[str, Any]]] = []
        self.arrived = asyncio.Condition()
        #: Set once the stream has answered (or failed to): the person starts then.
        self.following = asyncio.Event()

    async def call(self, route: str, method: str, path: str, body: Any = None, ok: int = 200) -> Any:
        began = time.perf_counter()
        if method == "POST" and body is None:
            body = {}  # every POST is JSON, an empty one too
        response = await self.client.request(method, self.base + path, json=body, headers=HEADERS)
        self.figures.routes[route].append((time.perf_counter() - began) * 1000)
        if response.status_code != ok:
            code = response.json().get("error", {}).get("code") if response.content else None
            self.figures.errors.append(f"{route}: {response.status_code} {code}")
            return None
        return response.json()

    async def follow(self, session_id: str, after: int) -> None:
        url = f"{self.base}/sessions/{session_id}/stream?after={after}"
        began = time.perf_counter()
        try:
            async with self.client.stream("GET", url, headers=HEADERS, timeout=None) as response:
                # The stream's route latency: the request to its answer's headers.
                self.figures.routes["GET /sessions/{id}/stream"].append((time.perf_counter() - began) * 1000)
                if response.status_code != 200:
                    self.figures.errors.append(f"stream: {response.status_code}")
                    return
                self.following.set()
                await self._read(response)
        finally:
            self.following.set()

    async def _read(self, response: httpx.Response) -> None:
        """Note each event's delay (its stored ``at`` to its receipt) and wake ``until``."""
        data: str | None = None
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                data = line[6:]
            elif line == "" and data is not None:
                received = time.time()
                event = json.loads(data)
                data = None
                stored = datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
                self.figures.stream_ms.append((received - stored) * 1000)
                self.figures.stream_at.append(received)
                async with self.arrived:
                    self.events.append((received, event))
                    self.arrived.notify_all()

    async def until(self, since: int, types: frozenset[str], deadline: float) -> tuple[float, dict[str, Any]]:
        """The first event after index ``since`` of one of ``types`` (receipt time, event)."""
        async with self.arrived:
            while True:
                for received, event in self.events[since:]:
                    if event["type"] in types:
                        return received, event
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"no {sorted(types)} in time")
                await asyncio.wait_for(self.arrived.wait(), remaining)

    async def run(self) -> None:
        deadline = time.monotonic() + PERSON_DEADLINE
        gated = self.number % 4 == 3
        opened = await self.call(
            "POST /sessions", "POST", "/sessions",
            {"page": f"page-{self.number}", "brief": BRIEF, "facts": FACTS, "approve_on_save": gated},
            ok=201,
        )  # fmt: skip
        if opened is None:
            return
        session = opened["session"]
        sid, first = session["id"], session["last_seq"]
        reader = asyncio.create_task(self.follow(sid, first))
        try:
            # As in the builder, the stream is open before the person sends anything: an
            # event committed before the stream answered would come in its replay, and its
            # delay would be the stream's opening, not its delivery (measured on its own).
            await asyncio.wait_for(self.following.wait(), max(0.0, deadline - time.monotonic()))
            if reader.done():
                # The stream failed: a refusal is noted by ``follow``, an exception here.
                if not reader.cancelled() and reader.exception() is not None:
                    self.figures.errors.append(f"stream: {type(reader.exception()).__name__}")
                return
            for message in MESSAGES:
                await self.turn(sid, message, deadline)
            await self.edit_approve_publish(sid, gated)
            # The stream has everything written so far: the last seq the session reports.
            status = await self.call("GET /sessions/{id}", "GET", f"/sessions/{sid}")
            if status is not None:
                last = status["session"]["last_seq"]
                await self.until_seq(last, deadline)
                seqs = [event["seq"] for _, event in self.events]
                if seqs != list(range(first + 1, last + 1)):
                    self.figures.gaps += 1
        except TimeoutError as error:
            self.figures.errors.append(f"person {self.number}: {error}")
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    async def until_seq(self, last: int, deadline: float) -> None:
        async with self.arrived:
            while not self.events or self.events[-1][1]["seq"] < last:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"the stream did not reach seq {last}")
                await asyncio.wait_for(self.arrived.wait(), remaining)

    async def turn(self, sid: str, message: str, deadline: float) -> None:
        since = len(self.events)
        sent = time.time()
        answer = await self.call("POST /sessions/{id}/turns", "POST", f"/sessions/{sid}/turns",
                                 {"message": message}, ok=202)  # fmt: skip
        if answer is None:
            return
        started, _ = await self.until(since, frozenset({"turn.started"}), deadline)
        ended, event = await self.until(since, END_TYPES, deadline)
        self.figures.started_ms.append((started - sent) * 1000)
        self.figures.finished_ms.append((ended - sent) * 1000)
        self.figures.turns += 1
        if event["type"] != "turn.finished":
            self.figures.errors.append(f"turn ended {event['type']} {event['payload'].get('code')}")

    async def edit_approve_publish(self, sid: str, gated: bool) -> None:
        if gated:
            await self.call("POST /change-set/approve", "POST", f"/sessions/{sid}/change-set/approve")
        draft = await self.call("GET /sessions/{id}/draft", "GET", f"/sessions/{sid}/draft")
        if draft is None:
            return
        headings = [n for n in draft["page"]["nodes"].values() if n.get("type") == "heading"]
        if headings:
            ops = [{"t": "set_node_props", "id": headings[0]["id"], "patch": {"content": "Fresh every morning"}}]
            await self.call("POST /sessions/{id}/edits", "POST", f"/sessions/{sid}/edits",
                            {"basedOn": draft["revision"], "ops": ops})  # fmt: skip
        else:
            self.figures.errors.append("the draft has no heading to edit")
        await self.call("POST /sessions/{id}/publish", "POST", f"/sessions/{sid}/publish")


# -- one run ------------------------------------------------------------------------------------


def _percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))], 1)


def _spread(values: list[float]) -> dict[str, float | None]:
    return {"p50": _percentile(values, 0.5), "p95": _percentile(values, 0.95), "p99": _percentile(values, 0.99)}


def _by_tenth(at: list[float], delays: list[float]) -> list[float | None]:
    """The p95 delay in each tenth of the run (by receipt time): where in the run the tail is."""
    if not at:
        return []
    first, last = min(at), max(at)
    width = (last - first) / 10 or 1.0
    tenths: list[list[float]] = [[] for _ in range(10)]
    for when, delay in zip(at, delays, strict=True):
        tenths[min(9, int((when - first) / width))].append(delay)
    return [_percentile(values, 0.95) for values in tenths]


class Connections:
    """The peak number of PostgreSQL connections to the run's database, sampled every 0.25 s."""

    def __init__(self, url: str | None) -> None:
        self.url, self.peak, self._stop = url, 0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Connections:
        if self.url is not None:
            self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def _sample(self) -> None:
        import sqlalchemy as sa

        engine = sa.create_engine(str(self.url), poolclass=sa.pool.NullPool)
        try:
            query = sa.text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()"
            )
            while not self._stop.wait(0.25):
                with engine.connect() as conn:
                    self.peak = max(self.peak, int(conn.execute(query).scalar_one()))
        finally:
            engine.dispose()


def _pg_schema(url: str, name: str, *, drop: bool) -> None:
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
            if not drop:
                conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    finally:
        engine.dispose()


def _redis_database(url: str, number: int) -> str:
    base = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
    return f"{base}/{number}"


async def _loop_lag(figures: Figures) -> None:
    """How late the people's own event loop wakes from a 10 ms sleep: the measuring side's lag."""
    while True:
        began = time.monotonic()
        await asyncio.sleep(0.01)
        figures.client_lag_ms.append((time.monotonic() - began - 0.01) * 1000)


async def _people(base: str, numbers: range, start_at: float) -> tuple[Figures, float]:
    figures = Figures()
    # Each person their own client, as each has their own browser: one pool
    # shared by all scans every connection it holds on each request (httpcore's
    # pool is linear in its connections), and under the opening burst that
    # scan, not the server, held the receipts back.
    limits = httpx.Limits(
        max_connections=4, max_keepalive_connections=2,
        # Below uvicorn's 5 s keep-alive: a connection is never reused as the server closes it.
        keepalive_expiry=2.0,
    )  # fmt: skip
    timeout = httpx.Timeout(60.0, connect=30.0)
    async with AsyncExitStack() as stack:
        people = []
        for number in numbers:
            client = await stack.enter_async_context(httpx.AsyncClient(limits=limits, timeout=timeout))
            people.append(Person(client, base, figures, number))
        await asyncio.sleep(max(0.0, start_at - time.time()))
        began = time.monotonic()
        probe = asyncio.create_task(_loop_lag(figures))
        try:
            done = await asyncio.wait_for(
                asyncio.gather(*(p.run() for p in people), return_exceptions=True), RUN_DEADLINE
            )
        finally:
            probe.cancel()
        seconds = time.monotonic() - began
    figures.errors.extend(f"{type(d).__name__}" for d in done if isinstance(d, BaseException))
    return figures, seconds


def clients(config: dict[str, Any]) -> None:
    """A client child process: its share of the people; their figures as one JSON line."""
    numbers = range(config["first"], config["first"] + config["count"])
    figures, seconds = asyncio.run(_people(config["base"], numbers, config["start_at"]))
    found = {f.name: getattr(figures, f.name) for f in dataclasses.fields(figures)}
    print(json.dumps({**found, "routes": dict(figures.routes), "seconds": seconds}), flush=True)


def _all_people(base: str, sessions: int, env: dict[str, str]) -> tuple[Figures, float]:
    """Every person, ``PEOPLE_PER_CLIENT`` to a client process, all starting at one moment."""
    start_at = time.time() + 1.0 + sessions / 100
    processes = []
    for first in range(0, sessions, PEOPLE_PER_CLIENT):
        config = {"base": base, "first": first, "count": min(PEOPLE_PER_CLIENT, sessions - first),
                  "start_at": start_at}  # fmt: skip
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "bench.load", "--clients", json.dumps(config)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
        ))  # fmt: skip
    figures, seconds = Figures(), 1e-9
    try:
        for process in processes:
            out, _err = process.communicate(timeout=RUN_DEADLINE + 60)
            if process.returncode != 0 or not out.strip():
                figures.errors.append(f"a client process ended with {process.returncode}")
                continue
            found = json.loads(out.strip().splitlines()[-1])
            seconds = max(seconds, found.pop("seconds"))
            for name in ("started_ms", "finished_ms", "stream_ms", "stream_at", "errors", "client_lag_ms"):
                getattr(figures, name).extend(found[name])
            for route, values in found["routes"].items():
                figures.routes[route].extend(values)
            figures.gaps += found["gaps"]
            figures.turns += found["turns"]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait(10)
            if process.stdout is not None:
                process.stdout.close()
    return figures, seconds


def measure(
    sessions: int, backend: str = "embedded", workers: int = 2, *, broker_db: int = 12
) -> dict[str, Any]:
    """One run: ``sessions`` people at once on ``backend``; the figures as JSON-able values.

    ``broker_db``: the Redis database number the run's turns go through (two runs
    at once need two, or one's workers take the other's turns).
    """
    if not 1 <= sessions <= MAX_SESSIONS:
        raise ValueError(f"sessions must be 1 … {MAX_SESSIONS}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHARLOTTE_")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "src")])
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        config: dict[str, Any] = {"model": "offline"}
        pg_url: str | None = None
        if backend == "pg":
            pg_url = os.environ.get("CHARLOTTE_TEST_DATABASE_URL")
            redis = os.environ.get("CHARLOTTE_TEST_REDIS_URL")
            if not pg_url or not redis:
                return {"skipped": "needs CHARLOTTE_TEST_DATABASE_URL and CHARLOTTE_TEST_REDIS_URL"}
            schema = f"charlotte_load_{os.getpid()}"
            _pg_schema(pg_url, schema, drop=False)
            stack.callback(_pg_schema, pg_url, schema, drop=True)
            broker = _redis_database(redis, broker_db)
            config.update(database_url=pg_url, database_schema=schema, queue="celery", broker_url=broker)
            worker_env = {**env, "CHARLOTTE_DATABASE_URL": pg_url, "CHARLOTTE_DATABASE_SCHEMA": schema,
                          "CHARLOTTE_BROKER_URL": broker}  # fmt: skip
        else:
            config.update(database_url=f"sqlite:///{Path(folder) / 'load.db'}", queue="thread")
        server = _start([sys.executable, "-m", "bench.load", "--serve", json.dumps(config)], env,
                        Path(folder) / "server.log", pipe=True)  # fmt: skip
        stack.callback(_end, server)
        assert server.stdout is not None
        port = int(server.stdout.readline() or 0)
        if not port:
            raise RuntimeError("the server did not start: " + (Path(folder) / "server.log").read_text()[-2000:])
        until_answering(f"http://127.0.0.1:{port}")
        pool: list[subprocess.Popen[str]] = []
        if backend == "pg":
            for n in range(workers):
                process = _start(
                    [sys.executable, "-m", "charlotte.cli", "worker", "--concurrency", "1"],
                    worker_env, Path(folder) / f"worker-{n}.log",
                )  # fmt: skip
                stack.callback(_end, process)
                pool.append(process)
            time.sleep(3)  # the workers connect to the broker
        processes = {"server": server, **{f"worker_{n}": p for n, p in enumerate(pool)}}
        cpu_before = {name: _cpu_seconds(p.pid) for name, p in processes.items()}
        machine_before = _machine_ticks()
        with Connections(pg_url) as connections:
            figures, seconds = _all_people(f"http://127.0.0.1:{port}", sessions, env)
        # The share of one core each process used during the run: 1.0 is a saturated process.
        busy = {name: round((_cpu_seconds(p.pid) - cpu_before[name]) / seconds, 2)
                for name, p in processes.items()}  # fmt: skip
        machine_after = _machine_ticks()
        # How busy the whole machine was (every core, every process: the database's too).
        busy["machine"] = round((machine_after[0] - machine_before[0]) / max(1, machine_after[1] - machine_before[1]), 2)
        out: dict[str, Any] = {
            "backend": backend,
            "sessions": sessions,
            "workers": workers if backend == "pg" else 0,
            "seconds": round(seconds, 1),
            "turns": figures.turns,
            "turns_per_minute": round(figures.turns / seconds * 60, 1) if seconds else None,
            "send_to_started_ms": _spread(figures.started_ms),
            "send_to_finished_ms": _spread(figures.finished_ms),
            "stream_ms": _spread(figures.stream_ms),
            "stream_p95_ms_by_tenth": _by_tenth(figures.stream_at, figures.stream_ms),
            "routes_ms": {route: _spread(values) for route, values in sorted(figures.routes.items())},
            "client_lag_ms": {**_spread(figures.client_lag_ms), "max": _percentile(figures.client_lag_ms, 1.0)},
            "errors": len(figures.errors),
            "error_samples": sorted(set(figures.errors))[:10],
            "seq_gaps": figures.gaps,
            "db_connections_peak": connections.peak if pg_url else None,
            "peak_rss_mb": {name: _peak_rss_mb(p.pid) for name, p in processes.items()},
            "cpu_share": busy,
        }  # fmt: skip
    return out


def run() -> dict[str, Any]:
    """``make bench``: each of ``SIZES``; the keys other checks read, and every run's figures."""
    figures: dict[str, Any] = {}
    gap_free = True
    for backend, sessions in SIZES:
        found = measure(sessions, backend)
        figures[f"load_{backend}"] = found
        if "skipped" in found:
            continue
        figures[f"load_{backend}_sessions"] = sessions
        figures[f"load_{backend}_errors"] = found["errors"]
        figures[f"load_{backend}_stream_p95_ms"] = found["stream_ms"]["p95"]
        figures[f"load_{backend}_turns_per_minute"] = found["turns_per_minute"]
        figures[f"load_{backend}_send_to_finished_p95_ms"] = found["send_to_finished_ms"]["p95"]
        gap_free = gap_free and found["seq_gaps"] == 0
    figures["load_gap_free"] = gap_free
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--backend", choices=("pg", "embedded"), default="embedded")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    # A TERM (a timeout, Ctrl-C's sibling) unwinds like an exception: the children are ended.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    print(json.dumps(measure(args.sessions, args.backend, args.workers), indent=2))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(json.loads(sys.argv[2]))
    elif sys.argv[1:2] == ["--clients"]:
        clients(json.loads(sys.argv[2]))
    else:
        main()
