"""The endless live stream on a real uvicorn server on loopback, read by real HTTP clients.

In-process test clients cannot read an endless stream; here the server runs
in a thread on 127.0.0.1 with a free port and is always shut down. Clients
are ``httpx.AsyncClient`` streams with bounded timeouts.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.requests import Request
from tests.support.sse_client import append_texts, last_seq, read_seqs_until
from tests.support.waiting import eventually

from charlotte.app import Charlotte
from charlotte.http.asgi import create_app
from charlotte.runtime.notifier import Notifier
from charlotte.settings import Settings

pytestmark = pytest.mark.timeout(120)

HEADERS = {"X-User": "ann", "X-Tenant": "acme"}
CLIENTS = 100


@dataclass
class Server:
    """A charlotte served by uvicorn on loopback."""

    charlotte: Charlotte
    notifier: Notifier
    url: str

    def open(self) -> str:
        response = httpx.post(
            f"{self.url}/sessions",
            json={"page": "home", "brief": "A bakery"},
            headers=HEADERS,
            timeout=10,
        )
        assert response.status_code == 201, response.text
        session_id: str = response.json()["session"]["id"]
        return session_id

    def append(self, session_id: str, count: int) -> None:
        append_texts(self.charlotte.engine, session_id, count)

    def last_seq(self, session_id: str) -> int:
        return last_seq(self.charlotte.engine, session_id)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    charlotte = Charlotte(
        Settings(database_url=f"sqlite:///{tmp_path / 'stream.db'}", queue="inline")
    )
    charlotte.migrate()
    charlotte.resolve_user_using(lambda request: _header(request, "x-user"))
    charlotte.resolve_tenant_using(lambda request: _header(request, "x-tenant"))
    notifier = Notifier(charlotte.engine)
    app = create_app(charlotte, notifier=notifier, heartbeat_seconds=1.0)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no ~40 ms wait per kept-alive answer
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=5, limit_concurrency=1000
    )
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        eventually(lambda: uv.started)
        yield Server(charlotte, notifier, f"http://127.0.0.1:{port}")
    finally:
        # Closing the notifier ends open streams, so the shutdown need not wait.
        notifier.close()
        uv.should_exit = True
        thread.join(15)
        sock.close()
        charlotte.close()
    assert not thread.is_alive(), "uvicorn did not shut down"


def _header(request: Any, name: str) -> str | None:
    assert isinstance(request, Request)
    return request.headers.get(name)


def test_reconnect_with_last_event_id_resumes_with_no_gap_and_no_duplicate(server: Server) -> None:
    session_id = server.open()
    server.append(session_id, 2)
    stream = f"{server.url}/sessions/{session_id}/stream"

    async def scenario() -> list[int]:
        timeout = httpx.Timeout(10.0)
        async with httpx.AsyncClient(timeout=timeout) as client:
            start = server.last_seq(session_id)
            n = start + 3
            # Follow live, disconnect at seq N while the writer goes on.
            writer = threading.Thread(
                target=_write_when_subscribed, args=(server, session_id, 6, 1)
            )
            writer.start()
            first = await asyncio.wait_for(read_seqs_until(client, stream, n, HEADERS), 30)
            await asyncio.to_thread(writer.join)
            # The server noticed the client went and let go of its subscription.
            await asyncio.to_thread(eventually, lambda: server.notifier.subscriber_count() == 0)
            final = server.last_seq(session_id)
            assert final == start + 6
            resume = {**HEADERS, "Last-Event-ID": str(first[-1])}
            # Reconnect; two more events arrive live after the replay.
            writer = threading.Thread(
                target=_write_when_subscribed, args=(server, session_id, 2, 1)
            )
            writer.start()
            second_seqs = await asyncio.wait_for(
                read_seqs_until(client, stream, final + 2, resume), 30
            )
            await asyncio.to_thread(writer.join)
            assert first[-1] == n
            return first + second_seqs

    received = asyncio.run(scenario())
    assert received == list(range(1, server.last_seq(session_id) + 1))


def _write_when_subscribed(server: Server, session_id: str, count: int, subscribers: int) -> None:
    eventually(lambda: server.notifier.subscriber_count(session_id) >= subscribers)
    server.append(session_id, count)


def test_a_hundred_clients_on_one_session_all_receive_every_event(server: Server) -> None:
    session_id = server.open()
    start = server.last_seq(session_id)
    events = 20
    last = start + events
    stream = f"{server.url}/sessions/{session_id}/stream?after={start}"

    async def scenario() -> list[list[int]]:
        limits = httpx.Limits(max_connections=CLIENTS + 10, max_keepalive_connections=0)
        async with httpx.AsyncClient(timeout=httpx.Timeout(30.0), limits=limits) as client:
            readers = [
                asyncio.create_task(read_seqs_until(client, stream, last, HEADERS))
                for _ in range(CLIENTS)
            ]
            writer = threading.Thread(
                target=_write_when_subscribed, args=(server, session_id, events, CLIENTS)
            )
            writer.start()
            try:
                return await asyncio.wait_for(asyncio.gather(*readers), 90)
            finally:
                await asyncio.to_thread(writer.join)

    received = asyncio.run(scenario())
    assert len(received) == CLIENTS
    for seqs in received:
        assert seqs == list(range(start + 1, last + 1))
    eventually(lambda: server.notifier.subscriber_count() == 0)
