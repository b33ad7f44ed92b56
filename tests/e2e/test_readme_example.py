"""The README's FastAPI embedding example, executed as written."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

README = Path(__file__).resolve().parents[2] / "README.md"


def _example() -> str:
    text = README.read_text(encoding="utf-8")
    block = re.search(
        r"<!-- embed-example:start -->\s*```python\n(.*?)```\s*<!-- embed-example:end -->", text, re.S
    )
    assert block is not None, "the README lost its embedding example"
    return block.group(1)


def test_the_readme_embedding_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".charlotte").mkdir()
    namespace: dict[str, Any] = {"__name__": "readme_example"}
    exec(compile(_example(), "README.md", "exec"), namespace)
    app, charlotte = namespace["app"], namespace["charlotte"]
    try:
        client = TestClient(app)
        ann = {"x-user": "ann", "x-tenant": "acme"}
        editor = {"x-user": "editor-ann", "x-tenant": "acme"}
        assert client.get("/health").json() == {"ok": True}
        assert client.post("/builder/sessions", json={"page": "home", "brief": "x"}).status_code == 401
        opened = client.post(
            "/builder/sessions",
            json={"page": "home", "brief": "A landing page for Rosa's Bakery: menu and contact.",
                  "facts": {"name": "Rosa's Bakery"}},
            headers=ann,
        )
        assert opened.status_code == 201, opened.text
        sid = opened.json()["session"]["id"]
        assert client.post(f"/builder/sessions/{sid}/turns", json={"message": "Build it"},
                           headers=ann).status_code == 202
        deadline = time.monotonic() + 60
        types: list[str] = []
        while time.monotonic() < deadline and "turn.finished" not in types:
            events = client.get(f"/builder/sessions/{sid}/events", headers=ann).json()["events"]
            types = [e["type"] for e in events]
            time.sleep(0.05)
        assert "turn.finished" in types
        draft = client.get(f"/builder/sessions/{sid}/draft", headers=ann).json()
        assert "Rosa" in draft["html"]
        # The host's authorizer: only editors publish; other tenants see nothing.
        # Every POST is sent as JSON; publish names the revision the person reviewed.
        reviewed = {"revision": draft["revision"]}
        assert client.post(f"/builder/sessions/{sid}/publish", json=reviewed, headers=ann).status_code == 403
        assert client.get(f"/builder/sessions/{sid}/draft",
                          headers={"x-user": "ann", "x-tenant": "other"}).status_code == 404
        published = client.post(f"/builder/sessions/{sid}/publish", json=reviewed, headers=editor)
        assert published.status_code == 200, published.text
        assert client.get(f"/builder/sessions/{sid}/published", headers=ann).json()["html"] == draft["html"]
        assert client.get("/builder/openapi.json").json()["openapi"].startswith("3.1")
    finally:
        charlotte.close()
