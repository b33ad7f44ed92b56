"""The live stream of the Django app under a real ASGI server (uvicorn on loopback), and under WSGI.

The test project's ``asgi.application`` runs in a uvicorn thread on
127.0.0.1 with a free port and is always shut down; clients are httpx streams
with bounded timeouts, signed in with a Django session cookie.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from django.contrib.auth.models import Permission, User
from tests.django_project.support import (
    open_session,
    serve_asgi,
    session_cookie,
    signed_in,
    user_with,
)
from tests.support.sse_client import append_texts, last_seq, read_seqs_until
from tests.support.waiting import eventually

from charlotte.app import Charlotte
from charlotte.contrib.django.instance import get_charlotte

pytestmark = pytest.mark.timeout(120)


@dataclass
class Served:
    url: str
    charlotte: Charlotte

    def append(self, session_id: str, count: int) -> None:
        append_texts(self.charlotte.engine, session_id, count)

    def last_seq(self, session_id: str) -> int:
        return last_seq(self.charlotte.engine, session_id)


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    with serve_asgi() as url:
        yield Served(url, get_charlotte())


def _cookie(user: User) -> dict[str, str]:
    name, value = session_cookie(user)
    return {"Cookie": f"{name}={value}"}


def _write_when_subscribed(served: Served, session_id: str, count: int) -> None:
    eventually(lambda: served.charlotte.notifier.subscriber_count(session_id) >= 1)
    served.append(session_id, count)


def test_the_stream_follows_live_and_resumes_with_last_event_id_without_gap_or_duplicate(
    served: Served,
) -> None:
    user = user_with("all")
    session_id = open_session(signed_in(user))
    served.append(session_id, 2)
    stream = f"{served.url}/builder/sessions/{session_id}/stream"
    cookie = _cookie(user)

    async def scenario() -> list[int]:
        async with httpx.AsyncClient(timeout=httpx.Timeout(10.0)) as client:
            start = served.last_seq(session_id)
            writer = threading.Thread(target=_write_when_subscribed, args=(served, session_id, 6))
            writer.start()
            first = await asyncio.wait_for(read_seqs_until(client, stream, start + 3, cookie), 30)
            await asyncio.to_thread(writer.join)
            # The server saw the client go (Django cancels the response) and let go of it.
            notifier = served.charlotte.notifier
            await asyncio.to_thread(eventually, lambda: notifier.subscriber_count(session_id) == 0)
            final = served.last_seq(session_id)
            writer = threading.Thread(target=_write_when_subscribed, args=(served, session_id, 2))
            writer.start()
            resume = {**cookie, "Last-Event-ID": str(first[-1])}
            second = await asyncio.wait_for(read_seqs_until(client, stream, final + 2, resume), 30)
            await asyncio.to_thread(writer.join)
            return first + second

    received = asyncio.run(scenario())
    assert received == list(range(1, served.last_seq(session_id) + 1))


def test_the_stream_refuses_with_the_apis_json_errors_under_asgi(served: Served) -> None:
    user = user_with("all")
    session_id = open_session(signed_in(user))
    url = f"{served.url}/builder/sessions/{session_id}/stream"
    anonymous = httpx.get(url, timeout=10)
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "unauthorized"
    other_tenant = httpx.get(url, headers={**_cookie(user), "X-Tenant": "globex"}, timeout=10)
    assert other_tenant.status_code == 404 and other_tenant.json()["error"]["code"] == "not_found"
    no_view = httpx.get(url, headers=_cookie(user_with("open", "send")), timeout=10)
    assert no_view.status_code == 403 and no_view.json()["error"]["code"] == "forbidden"
    bad_bound = httpx.get(f"{url}?limit=0", headers=_cookie(user), timeout=10)
    assert bad_bound.status_code == 400 and bad_bound.json()["error"]["code"] == "invalid_request"
    posted = httpx.post(url, headers=_cookie(user), timeout=10)
    assert posted.status_code == 405 and posted.headers["allow"] == "GET"


def test_a_permission_withdrawn_mid_stream_ends_it_at_the_next_heartbeat(served: Served) -> None:
    user = user_with("all")
    session_id = open_session(signed_in(user))
    url = f"{served.url}/builder/sessions/{session_id}/stream"
    cookie = _cookie(user)

    async def scenario() -> float:
        async with (
            httpx.AsyncClient(timeout=httpx.Timeout(10.0)) as client,
            client.stream("GET", url, headers=cookie) as response,
        ):
            assert response.status_code == 200
            lines = response.aiter_lines()
            while (await asyncio.wait_for(anext(lines), 10)) != ": heartbeat":
                pass
            await asyncio.to_thread(_withdraw_view, user)
            withdrawn = time.monotonic()
            async for _line in lines:  # the server ends the stream
                pass
            return time.monotonic() - withdrawn

    ended_after = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert ended_after < 5.0  # heartbeats every 0.5 s (CHARLOTTE_HEARTBEAT_SECONDS)


def _withdraw_view(user: User) -> None:
    user.user_permissions.remove(
        Permission.objects.get(content_type__app_label="charlotte", codename="view_session")
    )


def test_under_wsgi_the_stream_answers_what_is_there_and_the_browser_asks_again() -> None:
    # Django's test client is a WSGI request: no connection can be held open.
    user = user_with("all")
    client = signed_in(user)
    session_id = open_session(client)
    served = Served("", get_charlotte())
    served.append(session_id, 3)
    last = served.last_seq(session_id)
    answer = client.get(f"/builder/sessions/{session_id}/stream", headers={"Last-Event-ID": "1"})
    assert answer.status_code == 200 and answer["Content-Type"] == "text/event-stream"
    text = answer.content.decode()
    assert text.startswith("retry: 2000\n\n")
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == list(range(2, last + 1))
    assert get_charlotte().notifier.subscriber_count(session_id) == 0
