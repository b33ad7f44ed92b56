"""The Starlette adapter: body limit, content type, host user and tenant, and the live stream.

In-process clients cannot read an endless stream, so stream tests here are
bounded (``?until=`` / ``?limit=``) or drive the ASGI app by hand;
``tests/e2e/test_stream_uvicorn.py`` runs the endless stream on a real server.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.testclient import TestClient
from tests.support.app_harness import AppHarness
from tests.support.sse_client import append_texts, last_seq
from tests.support.waiting import eventually

from charlotte.errors import MESSAGES
from charlotte.http.asgi import create_app
from charlotte.http.sse import heartbeat
from charlotte.page.render import BASE_CSS
from charlotte.runtime.notifier import Notifier

# A stream test that does not get its events fails here instead of hanging.
pytestmark = pytest.mark.timeout(60)

LIMIT = 1024
HEADERS = {"X-User": "ann", "X-Tenant": "acme"}


def _user(request: Request) -> str | None:
    return request.headers.get("x-user")


def _tenant(request: Request) -> str | None:
    return request.headers.get("x-tenant")


@dataclass
class Served:
    """A charlotte, its Starlette app (small body limit, fast heartbeats) and a test client."""

    harness: AppHarness
    notifier: Notifier
    app: Starlette
    client: TestClient

    def open(self, tenant: str = "acme") -> str:
        response = self.client.post(
            "/sessions",
            json={"page": "home", "brief": "A bakery"},
            headers={**HEADERS, "X-Tenant": tenant},
        )
        assert response.status_code == 201, response.text
        session_id: str = response.json()["session"]["id"]
        return session_id

    def append(self, session_id: str, count: int) -> None:
        append_texts(self.harness.charlotte.engine, session_id, count)

    def last_seq(self, session_id: str) -> int:
        return last_seq(self.harness.charlotte.engine, session_id)

    def when_subscribed(self, session_id: str, then: Callable[[], None]) -> threading.Thread:
        """Run ``then`` on a thread as soon as one more stream subscribes to ``session_id``."""
        wanted = self.notifier.subscriber_count(session_id) + 1

        def wait_and_run() -> None:
            eventually(lambda: self.notifier.subscriber_count(session_id) >= wanted)
            then()

        thread = threading.Thread(target=wait_and_run)
        thread.start()
        return thread


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    harness = AppHarness(tmp_path / "asgi.db")
    charlotte = harness.charlotte
    charlotte.resolve_user_using(_user).resolve_tenant_using(_tenant)
    charlotte.authorize_using(lambda user, ability, session: user != "viewer-less" or ability != "view")
    notifier = Notifier(charlotte.engine, interval=0.02)
    app = create_app(charlotte, max_body=LIMIT, heartbeat_seconds=0.05, notifier=notifier)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Served(harness, notifier, app, client)
    notifier.close()
    harness.close()


def assert_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json() == {"error": {"code": code, "message": MESSAGES[code]}}


def sse_events(text: str) -> list[dict[str, Any]]:
    """Parse a text/event-stream body as EventSource does: one dict per dispatched event."""
    found: list[dict[str, Any]] = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in re.split(r"\r\n|\r|\n", block):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if "data" in fields:
            data = json.loads(fields["data"])
            assert fields["id"] == str(data["seq"])
            assert fields["event"] == data["type"]
            found.append(data)
    return found


def seqs(text: str) -> list[int]:
    return [event["seq"] for event in sse_events(text)]


# -- the API through the adapter --------------------------------------------------------


def test_api_routes_answer_through_the_adapter_with_the_hosts_user_and_tenant(served: Served) -> None:
    session_id = served.open()
    response = served.client.get(f"/sessions/{session_id}", headers=HEADERS)
    assert response.status_code == 200
    assert response.json()["session"]["tenant"] == "acme"
    assert_error(served.client.get(f"/sessions/{session_id}", headers={**HEADERS, "X-Tenant": "other"}), 404, "not_found")


def test_a_call_and_a_stream_opening_each_take_the_fewest_trips_to_the_thread_pool(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Under a burst each trip waits its turn behind every other request's: an API call
    # makes one (the host's hooks and the call), a stream two before its first frame
    # (the hooks; the lookup, subscribing and the replay's read).
    from charlotte.http import asgi

    session_id = served.open()
    trips: list[str] = []
    real = asgi.run_in_threadpool

    async def counted(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        trips.append(getattr(function, "__name__", type(function).__name__))
        return await real(function, *args, **kwargs)

    monkeypatch.setattr(asgi, "run_in_threadpool", counted)
    assert served.client.get(f"/sessions/{session_id}", headers=HEADERS).status_code == 200
    assert len(trips) == 1
    trips.clear()
    last = served.last_seq(session_id)
    response = served.client.get(f"/sessions/{session_id}/stream?until={last}", headers=HEADERS)
    assert seqs(response.text) == list(range(1, last + 1))
    assert len(trips) == 2


def test_no_user_is_401_and_no_tenant_is_403(served: Served) -> None:
    session_id = served.open()
    assert_error(served.client.get(f"/sessions/{session_id}", headers={"X-Tenant": "acme"}), 401, "unauthorized")
    assert_error(served.client.get(f"/sessions/{session_id}", headers={"X-User": "ann"}), 403, "forbidden")


def test_openapi_document_is_served(served: Served) -> None:
    response = served.client.get("/openapi.json")
    assert response.status_code == 200
    assert "/sessions/{id}/stream" in response.json()["paths"]


def test_a_body_that_is_not_json_is_415(served: Served) -> None:
    response = served.client.post(
        "/sessions", content=b"page=home", headers={**HEADERS, "Content-Type": "text/plain"}
    )
    assert_error(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "application/merge-patch+json"])
def test_json_media_types_are_accepted(served: Served, content_type: str) -> None:
    body = json.dumps({"page": "home", "brief": "A bakery"}).encode()
    response = served.client.post("/sessions", content=body, headers={**HEADERS, "Content-Type": content_type})
    assert response.status_code == 201, response.text


def test_broken_json_is_400(served: Served) -> None:
    response = served.client.post(
        "/sessions", content=b'{"page": ', headers={**HEADERS, "Content-Type": "application/json"}
    )
    assert_error(response, 400, "invalid_json")


def test_an_empty_post_needs_the_json_content_type_too(served: Served) -> None:
    # A bodiless POST is a CORS simple request: see tests/reliability/test_cross_site.py.
    session_id = served.open()
    assert_error(served.client.post(f"/sessions/{session_id}/stop", headers=HEADERS), 415, "unsupported_media_type")
    response = served.client.post(
        f"/sessions/{session_id}/stop", headers={**HEADERS, "Content-Type": "application/json"}
    )
    assert response.status_code == 200, response.text


def test_a_failing_host_callback_is_a_500_without_its_message(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(_request: Request) -> str:
        raise RuntimeError("secret-token-123")

    served.harness.charlotte.resolve_user_using(broken)
    with caplog.at_level(logging.ERROR):
        response = served.client.get("/sessions/x", headers=HEADERS)
    assert_error(response, 500, "internal")
    assert response.headers["X-Correlation-Id"]
    assert "secret-token-123" not in response.text
    assert "secret-token-123" not in caplog.text


# -- the body limit, driven by hand to count what is read -----------------------------


def _scope(method: str, path: str, headers: dict[str, str]) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": path.partition("?")[2].encode(),
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }


def _drive(app: Starlette, scope: dict[str, Any], receive: Any) -> tuple[int, bytes]:
    status: list[int] = []
    body = bytearray()

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])
        elif message["type"] == "http.response.body":
            body.extend(message.get("body", b""))

    asyncio.run(app(scope, receive, send))
    return status[0], bytes(body)


def test_a_declared_length_over_the_limit_is_413_before_any_body_is_read(served: Served) -> None:
    reads: list[int] = []

    async def receive() -> dict[str, Any]:
        reads.append(1)
        return {"type": "http.request", "body": b"{}", "more_body": True}

    headers = {**HEADERS, "Content-Type": "application/json", "Content-Length": str(LIMIT + 1)}
    status, body = _drive(served.app, _scope("POST", "/sessions", headers), receive)
    assert status == 413
    assert json.loads(body)["error"]["code"] == "body_too_large"
    assert reads == []


def test_an_undeclared_body_is_cut_off_at_the_first_chunk_past_the_limit(served: Served) -> None:
    reads: list[int] = []

    async def receive() -> dict[str, Any]:
        # Sixteen times the limit: a reader that does not stop early reads it all.
        reads.append(1)
        return {"type": "http.request", "body": b" " * 256, "more_body": len(reads) < 64}

    headers = {**HEADERS, "Content-Type": "application/json"}
    status, body = _drive(served.app, _scope("POST", "/sessions", headers), receive)
    assert status == 413
    assert json.loads(body)["error"]["code"] == "body_too_large"
    assert len(reads) == LIMIT // 256 + 1


def test_a_body_within_the_limit_reaches_the_api(served: Served) -> None:
    payload = json.dumps({"page": "home", "brief": "B" * 900}).encode()
    assert len(payload) <= LIMIT
    response = served.client.post("/sessions", content=payload, headers={**HEADERS, "Content-Type": "application/json"})
    assert response.status_code == 201
    too_big = json.dumps({"page": "home", "brief": "B" * LIMIT}).encode()
    response = served.client.post("/sessions", content=too_big, headers={**HEADERS, "Content-Type": "application/json"})
    assert_error(response, 413, "body_too_large")


# -- the stream -----------------------------------------------------------------------


def test_stream_replays_every_event_with_id_equal_to_seq(served: Served) -> None:
    session_id = served.open()
    served.append(session_id, 5)
    last = served.last_seq(session_id)
    response = served.client.get(f"/sessions/{session_id}/stream?until={last}", headers=HEADERS)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache"
    assert seqs(response.text) == list(range(1, last + 1))
    assert sse_events(response.text)[-1]["payload"] == {"text": "t4"}


def test_stream_resumes_after_last_event_id_and_the_header_wins_over_after(served: Served) -> None:
    session_id = served.open()
    served.append(session_id, 6)
    last = served.last_seq(session_id)
    headers = {**HEADERS, "Last-Event-ID": "3"}
    response = served.client.get(f"/sessions/{session_id}/stream?after=1&until={last}", headers=headers)
    assert seqs(response.text) == list(range(4, last + 1))
    response = served.client.get(f"/sessions/{session_id}/stream?after=5&until={last}", headers=HEADERS)
    assert seqs(response.text) == list(range(6, last + 1))


def test_disconnect_at_n_and_reconnect_with_last_event_id_n_has_no_gap_and_no_duplicate(
    served: Served,
) -> None:
    session_id = served.open()
    served.append(session_id, 8)
    first = served.client.get(f"/sessions/{session_id}/stream?limit=4", headers=HEADERS)
    received = seqs(first.text)
    assert len(received) == 4
    n = received[-1]
    last = served.last_seq(session_id) + 3
    writer = served.when_subscribed(session_id, lambda: served.append(session_id, 3))
    second = served.client.get(
        f"/sessions/{session_id}/stream?until={last}", headers={**HEADERS, "Last-Event-ID": str(n)}
    )
    writer.join()
    received += seqs(second.text)
    assert received == list(range(1, last + 1))


def test_stream_follows_events_committed_after_it_started(served: Served) -> None:
    session_id = served.open()
    start = served.last_seq(session_id)
    writer = served.when_subscribed(session_id, lambda: served.append(session_id, 4))
    response = served.client.get(
        f"/sessions/{session_id}/stream?after={start}&until={start + 4}", headers=HEADERS
    )
    writer.join()
    assert seqs(response.text) == [start + 1, start + 2, start + 3, start + 4]
    # The stream ended and let go of its subscription.
    eventually(lambda: served.notifier.subscriber_count(session_id) == 0)


def test_stream_limit_bounds_the_number_of_events(served: Served) -> None:
    session_id = served.open()
    served.append(session_id, 5)
    response = served.client.get(f"/sessions/{session_id}/stream?limit=2&after=2", headers=HEADERS)
    assert seqs(response.text) == [3, 4]


def test_stream_errors_are_the_apis_coded_json(served: Served) -> None:
    session_id = served.open()
    stream = f"/sessions/{session_id}/stream"
    assert_error(served.client.get(stream, headers={"X-Tenant": "acme"}), 401, "unauthorized")
    assert_error(served.client.get(stream, headers={"X-User": "ann"}), 403, "forbidden")
    assert_error(served.client.get(stream, headers={**HEADERS, "X-Tenant": "other"}), 404, "not_found")
    assert_error(served.client.get("/sessions/nope/stream", headers=HEADERS), 404, "not_found")
    assert_error(served.client.get(stream, headers={**HEADERS, "X-User": "viewer-less"}), 403, "forbidden")
    for bad in ("-1", "x", "1.5", "99999999999"):
        assert_error(served.client.get(stream, headers={**HEADERS, "Last-Event-ID": bad}), 400, "invalid_request")
    for query in ("after=-1", "until=x", "limit=0", "limit=1e3"):
        assert_error(served.client.get(f"{stream}?{query}", headers=HEADERS), 400, "invalid_request")
    assert served.notifier.subscriber_count() == 0


def test_other_methods_on_the_stream_are_405(served: Served) -> None:
    session_id = served.open()
    response = served.client.post(f"/sessions/{session_id}/stream", headers=HEADERS)
    assert response.status_code == 405
    assert response.json() == {
        "error": {"code": "method_not_allowed", "message": MESSAGES["method_not_allowed"], "allow": "GET"}
    }
    assert response.headers["Allow"] == "GET"


def _stream_by_hand(
    served: Served,
    session_id: str,
    on_chunk: Callable[[bytes, asyncio.Event], None],
    scope: dict[str, Any] | None = None,
) -> list[bytes]:
    """Drive the endless stream over raw ASGI; ``on_chunk`` may set the disconnect event."""
    chunks: list[bytes] = []

    async def run() -> None:
        gone = asyncio.Event()

        async def receive() -> dict[str, Any]:
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body" and message.get("body"):
                chunks.append(message["body"])
                on_chunk(message["body"], gone)

        request = scope or _scope("GET", f"/sessions/{session_id}/stream", HEADERS)
        await asyncio.wait_for(served.app(request, receive, send), timeout=20)

    asyncio.run(run())
    return chunks


def test_stream_sends_heartbeats_while_idle_and_stops_when_the_client_goes(served: Served) -> None:
    session_id = served.open()
    last = served.last_seq(session_id)

    def on_chunk(chunk: bytes, gone: asyncio.Event) -> None:
        if chunk.startswith(b":"):
            gone.set()

    chunks = _stream_by_hand(served, session_id, on_chunk)
    assert seqs(b"".join(chunks).decode()) == list(range(1, last + 1))
    assert chunks[-1].startswith(b":")
    assert served.notifier.subscriber_count(session_id) == 0


def test_a_stream_resumed_at_the_newest_seq_waits_instead_of_spinning(served: Served) -> None:
    session_id = served.open()
    last = served.last_seq(session_id)
    chunks: list[bytes] = []

    def on_chunk(chunk: bytes, gone: asyncio.Event) -> None:
        chunks.append(chunk)
        gone.set()

    # A stream that never yields to the event loop would never send its heartbeat.
    scope = _scope("GET", f"/sessions/{session_id}/stream", {**HEADERS, "Last-Event-ID": str(last)})
    _stream_by_hand(served, session_id, on_chunk, scope=scope)
    assert chunks == [heartbeat()]


def test_live_events_reach_a_waiting_stream_then_it_ends_on_disconnect(served: Served) -> None:
    session_id = served.open()
    start = served.last_seq(session_id)
    got: list[int] = []

    def on_chunk(chunk: bytes, gone: asyncio.Event) -> None:
        got.extend(seqs(chunk.decode()))
        if chunk.startswith(b":") and not got[start:]:
            # The first heartbeat: the stream is idle and following; now write.
            threading.Thread(target=served.append, args=(session_id, 2)).start()
        if len(got) >= start + 2:
            gone.set()

    _stream_by_hand(served, session_id, on_chunk)
    assert got == list(range(1, start + 3))
    assert served.notifier.subscriber_count(session_id) == 0


def test_closing_the_notifier_ends_open_streams(served: Served) -> None:
    session_id = served.open()

    def on_chunk(chunk: bytes, gone: asyncio.Event) -> None:
        if chunk.startswith(b":"):
            served.notifier.close()

    chunks = _stream_by_hand(served, session_id, on_chunk)
    assert chunks[-1].startswith(b":")


def test_withdrawn_view_ability_ends_the_stream(served: Served) -> None:
    session_id = served.open()
    allowed = {"view": True}
    served.harness.charlotte.authorize_using(lambda user, ability, session: ability != "view" or allowed["view"])
    beats: list[bytes] = []

    def on_chunk(chunk: bytes, gone: asyncio.Event) -> None:
        if chunk.startswith(b":"):
            beats.append(chunk)
            allowed["view"] = False

    # No disconnect is ever sent: the stream must end on its own.
    _stream_by_hand(served, session_id, on_chunk)
    assert len(beats) == 1
    assert served.notifier.subscriber_count(session_id) == 0


def test_the_builder_page_is_served_with_its_assets_and_a_strict_policy(served: Served) -> None:
    page = served.client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'data-testid="start-button"' in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "default-src 'self'" in policy
    script = served.client.get("/builder.js")
    # Browsers refuse a module script served with any other type.
    assert script.headers["content-type"].startswith("text/javascript")
    assert served.client.get("/builder.css").headers["content-type"].startswith("text/css")
    # The preview's base rules are the published page's, from one source.
    base = served.client.get("/page-base.css")
    assert base.headers["content-type"].startswith("text/css") and base.text == BASE_CSS
    # The page's routes are GET only: anything else is the API's, with its coded errors.
    posted = served.client.post("/", content=b"{}", headers={**HEADERS, "content-type": "application/json"})
    assert_error(posted, 404, "not_found")
    assert_error(served.client.get("/sessions/nope", headers=HEADERS), 404, "not_found")
