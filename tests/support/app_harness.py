"""A real ``Charlotte`` on a temp SQLite file with a scripted model, and its ``Api``.

Turns run inline (``queue="inline"``): ``send`` returns when the turn ended.
``script`` is what the next turn's model plays; it only emits tool calls, the
real tools run them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.runner_harness import HERO, apply_step

from charlotte.app import Charlotte
from charlotte.http.api import JSON_REQUEST, Api, Envelope, Response
from charlotte.page.assets import AssetLibrary
from charlotte.settings import Settings
from charlotte.testing import ScriptedModel, Step, ToolCall

#: A turn that writes a hero section and a heading through ``cms_apply``.
WRITE_HERO: tuple[Step, ...] = (ToolCall("cms_apply", apply_step(HERO)),)


@dataclass
class AppHarness:
    """One ``Charlotte`` (migrated) and one ``Api`` over it; ``call`` speaks HTTP-shaped."""

    path: Path
    queue: str = "inline"
    script: list[Step] = field(default_factory=list)
    assets: AssetLibrary | None = None
    #: ``Settings.trusted_origins``: sites whose pages may send writes.
    trusted_origins: tuple[str, ...] = ()
    #: Another database than the SQLite file at ``path`` (PostgreSQL: with its schema).
    database_url: str | None = None
    database_schema: str | None = None
    #: The Celery broker of ``queue="celery"``.
    broker_url: str | None = None

    def __post_init__(self) -> None:
        settings = Settings(
            database_url=self.database_url or f"sqlite:///{self.path}",
            database_schema=self.database_schema,
            queue=self.queue,
            broker_url=self.broker_url,
            heartbeat_seconds=0.2,
            trusted_origins=self.trusted_origins,
        )
        self.charlotte = Charlotte(settings, model_factory=self._model, assets=self.assets)
        self.charlotte.migrate()
        self.api = Api(self.charlotte)

    def _model(self) -> ScriptedModel:
        return ScriptedModel(list(self.script))

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        query: Mapping[str, str] | None = None,
        user: object = "ann",
        tenant: str | None = "acme",
        envelope: Envelope = JSON_REQUEST,
    ) -> Response:
        """One request; ``body`` is JSON-encoded unless it is bytes (None: empty); sent as JSON by default."""
        raw = body if isinstance(body, bytes) else b"" if body is None else json.dumps(body).encode()
        return self.api.handle(method, path, query or {}, raw, user, tenant, envelope=envelope)

    def open(self, *, tenant: str = "acme", approve_on_save: bool = False, page: str = "home") -> str:
        """A new session through the API; its id."""
        response = self.call(
            "POST",
            "/sessions",
            {"page": page, "brief": "A landing page for Rosa's Bakery", "approve_on_save": approve_on_save},
            tenant=tenant,
        )
        assert response.status == 201, response.json
        session_id: str = response.json["session"]["id"]
        return session_id

    def run_turn(self, session_id: str, script: tuple[Step, ...] = WRITE_HERO, *, tenant: str = "acme") -> Response:
        """Send a message whose turn plays ``script`` (inline: it has ended on return)."""
        self.script = list(script)
        return self.call("POST", f"/sessions/{session_id}/turns", {"message": "Build it"}, tenant=tenant)

    def close(self) -> None:
        """Close the ``Charlotte``."""
        self.charlotte.close()
