"""``POST /sessions/{id}/publish`` behind the quality gate, and the findings ``publish-preview`` answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.app_harness import AppHarness
from tests.support.editing_contract import assert_error

from charlotte.checks.quality import QUALITY_CODES

PAGE: list[dict[str, Any]] = [
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
    {"t": "insert_node", "node": {"id": "title", "type": "heading", "parent": "hero",
                                  "props": {"content": "Rosa's Bakery", "level": 1}}},
    {"t": "insert_node", "node": {"id": "sub", "type": "heading", "parent": "hero",
                                  "props": {"content": "Our breads", "level": 3}}},
    {"t": "insert_node", "node": {"id": "slot", "type": "text", "parent": "hero",
                                  "props": {"content": "Image slot 1: choose a photo"}}},
    {"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"background": "#111827"}},
    {"t": "set_style", "id": "title", "breakpoint": "base", "patch": {"color": "#7c2d12"}},
    {"t": "set_style", "id": "sub", "breakpoint": "base", "patch": {"color": "#ffffff"}},
    {"t": "set_style", "id": "slot", "breakpoint": "base", "patch": {"color": "#ffffff"}},
]  # fmt: skip


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppHarness]:
    harness = AppHarness(tmp_path / "gate.db")
    yield harness
    harness.close()


def _session(app: AppHarness) -> str:
    sid = app.open()
    revision = app.call("GET", f"/sessions/{sid}").json["session"]["revision"]
    edited = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": revision, "ops": PAGE})
    assert edited.status == 200, edited.json
    return sid


def test_publish_is_refused_with_the_findings_until_the_person_overrides_them(app: AppHarness) -> None:
    sid = _session(app)
    preview = app.call("GET", f"/sessions/{sid}/publish-preview").json["preview"]
    found = [(f["node"], f["code"], f["severity"]) for f in preview["findings"]]
    # Errors first; the heading skip is a warning and never holds the page back.
    assert found[:2] == [("title", "low_contrast", "error"), ("slot", "placeholder", "error")]
    assert ("sub", "heading_skip", "warning") in found

    refused = assert_error(app.call("POST", f"/sessions/{sid}/publish"), 409, "quality_gate")
    assert refused["codes"] == ["low_contrast", "placeholder"]
    assert [(f["node"], f["code"]) for f in refused["findings"]] == [
        ("title", "low_contrast"), ("slot", "placeholder")
    ]
    assert all(set(f) == {"code", "node", "severity", "message"} for f in refused["findings"])
    half = app.call("POST", f"/sessions/{sid}/publish", {"override": ["placeholder"]})
    assert_error(half, 409, "quality_gate")
    assert app.call("GET", f"/sessions/{sid}/published").status == 404

    done = app.call("POST", f"/sessions/{sid}/publish", {"override": ["placeholder", "low_contrast"]})
    assert done.status == 200, done.json
    events = app.call("GET", f"/sessions/{sid}/events").json["events"]
    published = [e for e in events if e["type"] == "page.published"]
    assert published[-1]["payload"]["overridden"] == ["low_contrast", "placeholder"]


@pytest.mark.parametrize(
    "override",
    ["placeholder", ["no_such_code"], [3], list(QUALITY_CODES) * 2, {"placeholder": True}],
)
def test_an_override_is_at_most_20_known_quality_codes(app: AppHarness, override: Any) -> None:
    sid = _session(app)
    answer = app.call("POST", f"/sessions/{sid}/publish", {"override": override})
    assert answer.status in (400, 422), answer.json
    assert answer.json["error"]["code"] == "invalid_request"
    assert answer.json["error"].get("field") == "override"
