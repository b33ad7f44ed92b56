"""Reading a charlotte event stream (``text/event-stream``) from a real server, as a browser would.

Shared by the stream tests of the ASGI app (under uvicorn and in-process) and
of the Django project: ``read_seqs_until`` follows one stream until it has
seen seq ``last``, then disconnects; ``append_texts`` commits the events a
stream then sends, and ``last_seq`` says where a session's log stands.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import sqlalchemy as sa

from charlotte.events import AGENT_ACTOR, EventTypes
from charlotte.storage import DatabaseEventLog, transaction


async def sse_events(response: httpx.Response) -> AsyncIterator[tuple[int, str]]:
    """(seq, data) of each event of an SSE response, as they arrive (comments are skipped)."""
    fields: dict[str, str] = {}
    async for line in response.aiter_lines():
        if line == "":
            if "id" in fields:
                yield int(fields["id"]), fields["data"]
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value


async def read_seqs_until(
    client: httpx.AsyncClient, url: str, last: int, headers: dict[str, str]
) -> list[int]:
    """The seqs one client receives from the stream at ``url`` until seq ``last`` (then it disconnects)."""
    got: list[int] = []
    async with client.stream("GET", url, headers=headers) as response:
        assert response.status_code == 200, await response.aread()
        assert response.headers["content-type"].startswith("text/event-stream")
        async for seq, _data in sse_events(response):
            got.append(seq)
            if seq >= last:
                break
    return got


def append_texts(engine: sa.Engine, session_id: str, count: int) -> None:
    """Commit ``count`` text events, one transaction each (as a turn records them)."""
    log = DatabaseEventLog()
    for index in range(count):
        with transaction(engine) as conn:
            log.append(
                conn, session_id, EventTypes.TEXT_DELTA, {"text": f"t{index}"}, actor=AGENT_ACTOR
            )


def last_seq(engine: sa.Engine, session_id: str) -> int:
    """The seq of the session's last event (0: none yet)."""
    events = DatabaseEventLog().read(engine, session_id, 0, 10_000)
    return events[-1].seq if events else 0
