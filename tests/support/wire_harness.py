"""A real ``Charlotte`` (thread queue, SQLite) on one of the three loopback provider peers.

``WIRES`` names each wire format with its peer, its model string and where
``Settings.model_base_url`` points; ``on_wire`` yields the peer and a
charlotte whose real pydantic-ai provider class talks to it, with retries
and backoffs short enough for tests. ``events`` reads a session's log and
checks every event against the schema and for exception text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from tests.support.loopback_http import PEER_ERROR_TEXT, Peer, serving
from tests.support.waiting import wait_until
from tests.support.wire_anthropic import AnthropicPeer
from tests.support.wire_openai_chat import OpenAIChatPeer
from tests.support.wire_openai_responses import OpenAIResponsesPeer

from charlotte.app import Charlotte
from charlotte.events import schema_errors
from charlotte.session import CharlotteSession
from charlotte.settings import Settings
from charlotte.storage import DatabaseEventLog

WAIT: Final = 20.0
#: What no event, body or log line may hold: the words of a failed model call.
EXCEPTION_WORDS: Final = (
    "Traceback",
    "Error",
    "Exception",
    "Cancelled",
    "Timeout",
    "httpx",
    "openai",
    "anthropic",
    "status_code",
    "Connection refused",
    PEER_ERROR_TEXT,
)
#: The key the tests hand the provider (a secret must not leak either).
TEST_KEY: Final = "sk-loopback-secret-0001"


@dataclass(frozen=True, slots=True)
class Wire:
    """One provider wire format: its peer class, model string, and whether the base URL has ``/v1``."""

    name: str
    peer: type[Peer]
    model: str
    with_v1: bool

    def base_url(self, peer: Peer) -> str:
        return peer.base_url if self.with_v1 else peer.root_url


WIRES: Final = (
    Wire("openai-chat", OpenAIChatPeer, "openai:gpt-loopback", with_v1=True),
    Wire("openai-responses", OpenAIResponsesPeer, "openai-responses:gpt-loopback", with_v1=True),
    Wire("anthropic", AnthropicPeer, "anthropic:claude-loopback", with_v1=False),
)


def settings_for(tmp_path: Path, model: str, base_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": f"sqlite:///{tmp_path / 'wire.db'}",
        "queue": "thread",
        "model": model,
        "model_base_url": base_url,
        "model_api_key": TEST_KEY,
        "model_retry_seconds": 0.05,
        "model_retry_max_seconds": 0.3,
        "heartbeat_seconds": 0.2,
        "heartbeat_timeout_seconds": 30.0,
    }
    values.update(overrides)
    return Settings(**values)


@contextmanager
def on_wire(tmp_path: Path, wire: Wire, **overrides: Any) -> Iterator[tuple[Peer, Charlotte]]:
    """The peer of ``wire`` serving, and a migrated charlotte pointed at it (closed afterwards)."""
    with serving(wire.peer()) as peer:
        charlotte = Charlotte(settings_for(tmp_path, wire.model, wire.base_url(peer), **overrides))
        try:
            charlotte.migrate()
            yield peer, charlotte
        finally:
            charlotte.close()


def open_session(charlotte: Charlotte) -> CharlotteSession:
    return (
        charlotte.for_user("ann")
        .tenant("acme")
        .page("home")
        .brief("A landing page for Rosa's Bakery in Leeds.")
        .approve_on_save(False)
        .open()
    )


def turn_status(charlotte: Charlotte, turn_id: str) -> str | None:
    turn = charlotte.turns.get(turn_id)
    return None if turn is None or turn.active else turn.status


def wait_for_end(charlotte: Charlotte, turn_id: str, timeout: float = WAIT) -> str:
    return wait_until(lambda: turn_status(charlotte, turn_id), timeout, f"turn {turn_id} to end", every=0.02)


def run_turn(
    charlotte: Charlotte, session: CharlotteSession, message: str
) -> tuple[str, str | None]:
    """Send ``message`` and wait: the turn's status and error code."""
    turn = session.send(message)
    status = wait_for_end(charlotte, turn["id"])
    record = charlotte.turns.get(turn["id"])
    assert record is not None
    return status, record.error_code


def clean(text: str) -> list[str]:
    """The exception words (and the test key) ``text`` holds: none, or the test fails."""
    return [word for word in (*EXCEPTION_WORDS, TEST_KEY) if word in text]


def events(charlotte: Charlotte, session: CharlotteSession) -> list[tuple[str, dict[str, Any]]]:
    """Every event of the session: in order, schema-valid, no exception text."""
    read = DatabaseEventLog().read(charlotte.engine, session.id, 0, 1000)
    assert [e.seq for e in read] == list(range(1, len(read) + 1))
    assert [schema_errors(e) for e in read] == [[] for _ in read]
    for event in read:
        text = json.dumps(dict(event.payload))
        assert clean(text) == [], (event.type, text)
    return [(e.type, dict(e.payload)) for e in read]


def of_type(log: list[tuple[str, dict[str, Any]]], kind: str) -> list[dict[str, Any]]:
    return [payload for type_, payload in log if type_ == kind]
