"""Benchmark: SSE clients of a real server, delay from commit to receipt (goal: p95 ≤ 100 ms).

Run with ``.venv/bin/python -m bench.stream``; prints the figures as JSON.
A real uvicorn server runs ``Charlotte.asgi_app()`` in a child process on a
file SQLite database; events are committed one at a time straight into the
database (as a worker process would, so the server learns of them only
through its notifier's polling), each commit's time noted. Each client notes
when each event arrives; the delay of every (client, event) pair goes into
the percentiles. Two runs:

- ``stream_*``: 100 clients on one session, in this process; 50 events, one
  every 20 ms. ``peak_rss_mb_stream`` is the server process's peak resident
  memory.
- ``stream_*_1000_clients`` (``measure_many``): 1,000 clients spread over 100
  sessions, 10 on each, in client processes of 100 streams (``--clients``;
  one loop reading 1,000 streams would lag and blame the server for it; each
  process's own loop lag is reported, ``stream_client_lag_ms_1000_clients``).
  The commits go round the 100 sessions in turn, one every 4 ms (250 a
  second: each session gets an event every 0.4 s, about what a turn's
  recorder writes while the model streams text, on all 100 sessions at
  once), 20 events per session: 2,000 commits, 20,000 (client, event)
  pairs. Every event must reach all 10 of its session's clients
  (``stream_all_received_1000_clients``). Also reported: the commit rate
  reached, the server's CPU share and peak RSS, the machine's busy share
  and load average.

Everything talks to loopback only; every wait has a deadline; the server and
the client processes are ended on leaving (and on TERM, which unwinds as an
exception).
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
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

#: The 1,000-client run (``measure_many``): sessions, clients on each, events per session.
MANY_SESSIONS = 100
MANY_PER_SESSION = 10
MANY_EVENTS = 20
#: One commit every 4 ms, round the sessions in turn.
MANY_GAP_SECONDS = 0.004
#: Streams per client process.
STREAMS_PER_PROCESS = 100
#: The longest the streams may take to open, and the events to arrive after the last commit (seconds).
OPEN_DEADLINE = 90.0
DRAIN_DEADLINE = 60.0
#: The most streams one run may open (bounded in count).
MAX_STREAMS = 2_000


def _end_with_parent(end: Callable[[], None]) -> None:
    """Call ``end`` should this process's parent go (a benchmark killed outright leaves no child)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        end()

    threading.Thread(target=watch, daemon=True).start()


def raise_fd_limit() -> None:
    """Raise this process's open-file limit to its hard limit (one descriptor per stream)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = 65_536 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def serve(database: str) -> None:
    """The child process: migrate, serve ``asgi_app()`` on a free loopback port, print the port."""
    import uvicorn

    from charlotte.app import Charlotte
    from charlotte.settings import Settings

    raise_fd_limit()
    _end_with_parent(lambda: os.kill(os.getpid(), signal.SIGTERM))
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
        charlotte.asgi_app(), log_level="warning", timeout_graceful_shutdown=5,
        limit_concurrency=4_000, backlog=4_096,
    )  # fmt: skip
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
    client: httpx.AsyncClient,
    url: str,
    last: int,
    ready: asyncio.Event,
    counter: list[int],
    total: int,
    hold: _Hold | None = None,
) -> dict[int, float]:
    """Receipt times by seq for one client, until seq ``last`` (kept open after it with ``hold``)."""
    received: dict[int, float] = {} if hold is None else hold.receipts()
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
        if hold is not None:
            await hold.arrived()
    return received


class _Hold:
    """Streams that stay open once they have every event, until the process ends.

    In the 1,000-client run no client leaves while others still receive: 1,000
    connections closed within the last round of commits would measure a crowd
    leaving at once, not the delivery.
    """

    def __init__(self) -> None:
        self.all_in = asyncio.Event()
        self.received: list[dict[int, float]] = []
        self._left = 0

    def receipts(self) -> dict[int, float]:
        """A new stream's receipts (the caller fills it)."""
        self._left += 1
        self.received.append({})
        return self.received[-1]

    async def arrived(self) -> None:
        """A stream has every event: hold it open."""
        self._left -= 1
        if self._left == 0:
            self.all_in.set()
        await asyncio.Event().wait()


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
def _term_unwinds() -> Iterator[None]:
    """Within: a TERM unwinds like an exception, so every child is ended (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@contextmanager
def served(database: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``serve(database)`` in a child process: the child and its base URL; ended on leaving."""
    root = Path(__file__).resolve().parent.parent
    child = subprocess.Popen(
        [sys.executable, "-m", "bench.stream", "--serve", database],
        stdout=subprocess.PIPE, text=True, cwd=root,
        # This tree's charlotte, not an installed one.
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "src")])},
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


# -- 1,000 clients over 100 sessions ----------------------------------------------------------
# The pieces shared with the load test come from bench.load, imported where
# used: bench.load imports this module.


async def _follow_many(base: str, streams: Sequence[tuple[str, int, int]], seconds: float) -> dict[str, Any]:
    """A client process's streams ``(session id, after, last)``: each one's receipts, and the loop's lag.

    Prints ``{"ready": n}`` once every stream is open (its answer's headers
    came: the server has subscribed it), so that the commits start after;
    returns once every stream has its events (each kept open: ``_Hold``), or
    after ``seconds`` with what came.
    """
    from bench.load import Figures, _loop_lag

    figures = Figures()
    limits = httpx.Limits(max_connections=len(streams) + 10, max_keepalive_connections=0)
    timeout = httpx.Timeout(OPEN_DEADLINE, connect=30.0)
    client = httpx.AsyncClient(timeout=timeout, limits=limits)
    ready, counter, hold = asyncio.Event(), [0], _Hold()
    readers = [
        asyncio.create_task(
            _client(client, f"{base}/sessions/{sid}/stream?after={after}", last, ready, counter, len(streams), hold)
        )
        for sid, after, last in streams
    ]
    await _until(ready, readers, OPEN_DEADLINE, lambda: f"{counter[0]} of {len(streams)} streams opened")
    print(json.dumps({"ready": len(streams)}), flush=True)
    # The lag that matters is while events arrive: measured from here.
    probe = asyncio.create_task(_loop_lag(figures))
    errors: list[str] = []
    try:
        await _until(hold.all_in, readers, seconds, lambda: "not every event came")
    except Exception as error:
        errors.append(type(error).__name__)
    probe.cancel()
    received = [[sid, sorted(got.items())] for (sid, _after, _last), got in zip(streams, hold.received, strict=True)]
    return {"received": received, "client_lag_ms": figures.client_lag_ms, "errors": errors}


async def _until(
    done: asyncio.Event, readers: list[asyncio.Task[dict[int, float]]], seconds: float, what: Callable[[], str]
) -> None:
    """Wait for ``done``; raise the first reader's error should one fail first, ``TimeoutError`` after ``seconds``."""
    waiting = asyncio.create_task(done.wait())
    await asyncio.wait([waiting, *readers], timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    if done.is_set():
        return
    waiting.cancel()
    for reader in readers:
        if reader.done():
            reader.result()
    raise TimeoutError(f"{what()} in {seconds:.0f} s")


def clients(config: dict[str, Any]) -> None:
    """A client child process (``--clients``): its streams' receipts as one JSON line."""
    raise_fd_limit()
    _end_with_parent(lambda: os._exit(1))
    streams = [(sid, after, last) for sid, after, last in config["streams"]]

    async def follow() -> None:
        print(json.dumps(await _follow_many(config["base"], streams, config["seconds"])), flush=True)
        # Every stream stays open until the run ends this process (TERM).
        await asyncio.Event().wait()

    asyncio.run(follow())


def _lines(process: subprocess.Popen[str], index: int, sink: queue.Queue[tuple[int, str]]) -> None:
    """Hand each line ``process`` prints to ``sink``; ``""`` when its output ends."""
    assert process.stdout is not None
    for line in process.stdout:
        sink.put((index, line))
    sink.put((index, ""))


def _write_round(
    database: str, targets: Sequence[str], events: int, gap: float
) -> tuple[dict[tuple[str, int], float], float]:
    """``events`` commits to each of ``targets`` round them in turn, one every ``gap`` seconds.

    Each commit's time by (session id, seq), and the seconds the commits took.
    """
    engine = open_engine(f"sqlite:///{database}")
    log = DatabaseEventLog()
    committed: dict[tuple[str, int], float] = {}
    try:
        began = time.monotonic()
        for number in range(events * len(targets)):
            # Paced by the clock, not by sleeps after each commit: the rate stays the one stated.
            pause = began + number * gap - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            session_id = targets[number % len(targets)]
            with transaction(engine) as conn:
                seq = log.append(conn, session_id, EventTypes.TEXT_DELTA, PAYLOAD, actor=AGENT_ACTOR)
            committed[(session_id, seq)] = time.monotonic()
        return committed, time.monotonic() - began
    finally:
        engine.dispose()


class _Clients:
    """The client processes of one run, ``per_process`` streams each; ended on leaving."""

    def __init__(
        self, base: str, streams: list[tuple[str, int, int]], per_process: int, folder: Path, seconds: float
    ) -> None:
        self.base, self.streams, self.per_process, self.folder = base, streams, per_process, folder
        self.seconds = seconds  # how long the streams may take to get every event, once open
        self.sink: queue.Queue[tuple[int, str]] = queue.Queue()
        self.processes: list[subprocess.Popen[str]] = []

    def __enter__(self) -> _Clients:
        from bench.load import _start

        root = Path(__file__).resolve().parent.parent
        env = {k: v for k, v in os.environ.items() if not k.startswith("CHARLOTTE_")}
        env["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "src")])
        try:
            for index, first in enumerate(range(0, len(self.streams), self.per_process)):
                config = {"base": self.base, "streams": self.streams[first : first + self.per_process],
                          "seconds": self.seconds}  # fmt: skip
                args = [sys.executable, "-m", "bench.stream", "--clients", json.dumps(config)]
                process = _start(args, env, self.folder / f"clients-{index}.log", pipe=True)
                self.processes.append(process)
                threading.Thread(target=_lines, args=(process, index, self.sink), daemon=True).start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        from bench.load import _end

        for process in self.processes:
            _end(process)

    def lines(self, seconds: float) -> dict[int, dict[str, Any]]:
        """The next line of every client process, read as JSON (``seconds`` at most in all)."""
        found: dict[int, dict[str, Any]] = {}
        deadline = time.monotonic() + seconds
        while len(found) < len(self.processes):
            try:
                index, line = self.sink.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"{len(self.processes) - len(found)} client processes silent for {seconds:.0f} s") from None
            if line:
                found[index] = json.loads(line)
            elif index not in found:
                raise RuntimeError(_ended(self.processes[index], self.folder / f"clients-{index}.log"))
        return found


def _ended(process: subprocess.Popen[str], log: Path) -> str:
    """Why a client process's output ended: its exit status and the end of its log."""
    try:
        process.wait(10)
        tail = log.read_text()[-2000:]
    except (OSError, subprocess.TimeoutExpired):
        tail = "(no log)"
    return f"a client process ended ({process.returncode}): {tail}"


def run_many(
    sessions: int, per_session: int, events: int, gap: float, per_process: int
) -> dict[str, Any]:
    """One run of ``measure_many``, raw: the commits' times, each client process's receipts, the server's share."""
    from bench.load import _cpu_seconds, _machine_ticks

    if not 1 <= sessions * per_session <= MAX_STREAMS or events < 1:
        raise ValueError(f"streams must be 1 … {MAX_STREAMS}, events at least 1")
    raise_fd_limit()
    load_average = os.getloadavg()[0]
    with _term_unwinds(), tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "stream.db")
        with served(database) as (server, base):
            opened = []
            with httpx.Client(timeout=30) as client:
                for number in range(sessions):
                    body = {"page": f"page-{number}", "brief": "A bakery"}
                    answer = client.post(f"{base}/sessions", json=body, headers=HEADERS)
                    answer.raise_for_status()
                    opened.append((answer.json()["session"]["id"], answer.json()["session"]["last_seq"]))
            streams = [(sid, start, start + events) for sid, start in opened for _ in range(per_session)]
            writing = events * sessions * gap
            with _Clients(base, streams, per_process, Path(folder), writing + DRAIN_DEADLINE) as clients:
                clients.lines(OPEN_DEADLINE + 30)  # every stream open
                cpu, machine = _cpu_seconds(server.pid), _machine_ticks()
                began = time.monotonic()
                committed, writing = _write_round(database, [sid for sid, _ in opened], events, gap)
                found = clients.lines(DRAIN_DEADLINE + 30)
                seconds = time.monotonic() - began
                machine_after = _machine_ticks()
                return {
                    "committed": committed,
                    "writing_seconds": writing,
                    "found": list(found.values()),
                    "server_cpu_share": (_cpu_seconds(server.pid) - cpu) / seconds,
                    "machine_busy": (machine_after[0] - machine[0]) / max(1, machine_after[1] - machine[1]),
                    "server_peak_rss_mb": _peak_rss_mb(server.pid),
                    "load_average": load_average,
                }


def measure_many(
    sessions: int = MANY_SESSIONS,
    per_session: int = MANY_PER_SESSION,
    events: int = MANY_EVENTS,
    *,
    gap: float = MANY_GAP_SECONDS,
    per_process: int = STREAMS_PER_PROCESS,
) -> dict[str, Any]:
    """``sessions`` times ``per_session`` stream clients; the figures keyed ``…_<N>_clients``."""
    from bench.load import _spread

    raw = run_many(sessions, per_session, events, gap, per_process)
    committed: dict[tuple[str, int], float] = raw["committed"]
    wanted: dict[str, list[int]] = {}
    for sid, seq in sorted(committed):
        wanted.setdefault(sid, []).append(seq)
    delays: list[float] = []
    lag: list[float] = []
    errors: list[str] = []
    complete = True
    for result in raw["found"]:
        lag.extend(result["client_lag_ms"])
        errors.extend(result["errors"])
        for sid, pairs in result["received"]:
            got = dict(pairs)
            complete = complete and sorted(got) == wanted[sid]
            delays.extend((got[seq] - committed[(sid, seq)]) * 1000 for seq in wanted[sid] if seq in got)
    key = f"{sessions * per_session}_clients"

    def shown(fraction: float) -> float | None:
        return round(_percentile(delays, fraction), 1) if delays else None

    return {
        f"stream_sessions_{key}": sessions,
        f"stream_clients_per_session_{key}": per_session,
        f"stream_events_{key}": len(committed),
        f"stream_pairs_{key}": len(delays),
        f"stream_all_received_{key}": complete and not errors,
        f"stream_p50_ms_{key}": shown(0.50),
        f"stream_p95_ms_{key}": shown(0.95),
        f"stream_p99_ms_{key}": shown(0.99),
        f"stream_max_ms_{key}": shown(1.0),
        f"stream_commits_per_s_{key}": round(len(committed) / raw["writing_seconds"], 1),
        f"stream_client_lag_ms_{key}": {**_spread(lag), "max": round(max(lag), 1) if lag else None},
        f"stream_client_errors_{key}": errors,
        f"stream_server_cpu_share_{key}": round(raw["server_cpu_share"], 2),
        f"stream_machine_busy_{key}": round(raw["machine_busy"], 2),
        f"stream_load_average_{key}": round(raw["load_average"], 2),
        f"peak_rss_mb_stream_{key}": raw["server_peak_rss_mb"],
    }


def run() -> dict[str, Any]:
    """The stream figures: 100 clients on one session, then 1,000 over 100 sessions."""
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "stream.db")
        with served(database) as (child, base):
            figures = asyncio.run(_measure(base, database))
            figures["peak_rss_mb_stream"] = _peak_rss_mb(child.pid)
    figures.update(measure_many())
    return figures


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2])
    elif sys.argv[1:2] == ["--clients"]:
        clients(json.loads(sys.argv[2]))
    else:
        # A TERM unwinds like an exception: the server and the client processes are ended.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        if sys.argv[1:2] == ["--many"]:
            print(json.dumps(measure_many(), indent=2))
        else:
            print(json.dumps(run(), indent=2))
