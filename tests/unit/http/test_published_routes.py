"""``GET /pages/{page}/published`` and ``.html``: through the framework-free ``Api`` and the Starlette app.

Tenant from the host's resolver, ``read_published`` asked of the host's
authorizer (anyone by default), ETag/``If-None-Match`` → 304 without a body,
``Cache-Control`` from the settings, coded 404/400 answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request
from starlette.testclient import TestClient
from tests.support.app_harness import AppHarness
from tests.support.published_pages_contract import HERO

from charlotte.errors import MESSAGES
from charlotte.http.api import Envelope
from charlotte.http.asgi import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppHarness]:
    harness = AppHarness(tmp_path / "published.db")
    yield harness
    harness.close()


def _publish(app: AppHarness, page: str = "home", tenant: str = "acme", ops: list[Any] | None = None) -> int:
    session_id = app.open(page=page, tenant=tenant)
    base = f"/sessions/{session_id}"
    revision = app.call("GET", base, tenant=tenant).json["session"]["revision"]
    edited = app.call("POST", f"{base}/edits", {"basedOn": revision, "ops": ops or HERO}, tenant=tenant)
    assert edited.status == 200, edited.json
    published = app.call("POST", f"{base}/publish", tenant=tenant)
    assert published.status == 200, published.json
    number: int = published.json["revision"]
    return number


def test_nothing_published_is_a_coded_404_and_a_bad_key_a_400(app: AppHarness) -> None:
    for path in ("/pages/home/published", "/pages/home/published.html"):
        missing = app.call("GET", path, user=None)
        assert (missing.status, missing.json) == (404, {"error": {"code": "not_found", "message": MESSAGES["not_found"]}})
        bad = app.call("GET", path.replace("home", "-home"), user=None)
        assert bad.status == 400 and bad.json["error"]["code"] == "invalid_page_key"
        assert app.call("GET", path, user=None, tenant=None).status == 403


def test_the_json_answer_its_etag_and_a_304_round_trip_for_anyone(app: AppHarness) -> None:
    revision = _publish(app)
    answer = app.call("GET", "/pages/home/published", user=None)
    assert answer.status == 200
    assert set(answer.json) == {"page", "revision", "published_at", "html", "css", "head", "title", "lang"}
    assert (answer.json["page"], answer.json["revision"], answer.json["lang"]) == ("home", revision, "pt-PT")
    assert answer.headers == {"ETag": answer.headers["ETag"], "Cache-Control": "no-cache"}
    etag = answer.headers["ETag"]
    for sent in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        again = app.call("GET", "/pages/home/published", user=None, envelope=Envelope(if_none_match=sent))
        assert (again.status, again.json, again.text) == (304, {}, None)
        assert again.headers == answer.headers
    stale = app.call("GET", "/pages/home/published", envelope=Envelope(if_none_match='"other"'))
    assert stale.status == 200 and stale.json == answer.json


def test_a_publish_changes_the_etag_and_the_answer_at_once(app: AppHarness) -> None:
    _publish(app)
    first = app.call("GET", "/pages/home/published.html", user=None)
    assert first.headers["Content-Type"] == "text/html; charset=utf-8" and first.text is not None
    assert first.text.startswith('<!DOCTYPE html>\n<html lang="pt-PT">') and "Visit us" in first.text
    _publish(app, ops=[{"t": "set_node_props", "id": "cta", "patch": {"label": "Come in"}}])
    second = app.call("GET", "/pages/home/published.html", envelope=Envelope(if_none_match=first.headers["ETag"]))
    assert second.status == 200 and second.headers["ETag"] != first.headers["ETag"]
    assert second.text is not None and "Come in" in second.text and "Visit us" not in second.text


def test_another_tenants_page_is_not_found(app: AppHarness) -> None:
    _publish(app, tenant="acme")
    assert app.call("GET", "/pages/home/published", tenant="globex").status == 404
    assert app.call("GET", "/pages/home/published.html", tenant="globex").status == 404


def test_the_hosts_authorizer_decides_with_read_published(app: AppHarness) -> None:
    _publish(app)
    asked: list[tuple[Any, str, Any]] = []

    def staff_only(user: object, ability: str, target: object) -> bool:
        asked.append((user, ability, target))
        return user == "staff"

    app.charlotte.authorize_using(staff_only)
    assert app.call("GET", "/pages/home/published", user=None).json["error"]["code"] == "unauthorized"
    assert app.call("GET", "/pages/home/published", user="ann").status == 403
    assert app.call("GET", "/pages/home/published.html", user="staff").status == 200
    _user, ability, target = asked[-1]
    assert ability == "read_published" and (target.tenant, target.page) == ("acme", "home")


def test_the_cache_control_is_the_hosts_setting(app: AppHarness) -> None:
    _publish(app)
    charlotte = app.charlotte
    charlotte.settings = replace(charlotte.settings, published_cache_control="public, max-age=60")
    assert app.call("GET", "/pages/home/published").headers["Cache-Control"] == "public, max-age=60"


def test_the_starlette_app_serves_both_with_etag_304_and_html(app: AppHarness) -> None:
    _publish(app)

    def tenant(request: Request) -> str | None:
        return request.headers.get("x-tenant")

    app.charlotte.resolve_tenant_using(tenant)
    with TestClient(create_app(app.charlotte)) as client:
        answer = client.get("/pages/home/published", headers={"X-Tenant": "acme"})
        assert answer.status_code == 200 and answer.json()["page"] == "home"
        assert answer.headers["content-type"] == "application/json"
        etag = answer.headers["etag"]
        assert answer.headers["cache-control"] == "no-cache"
        document = client.get("/pages/home/published.html", headers={"X-Tenant": "acme"})
        assert document.status_code == 200 and document.headers["content-type"] == "text/html; charset=utf-8"
        assert document.text.startswith("<!DOCTYPE html>") and document.headers["etag"] == etag
        for path in ("/pages/home/published", "/pages/home/published.html"):
            again = client.get(path, headers={"X-Tenant": "acme", "If-None-Match": etag})
            assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
        missing = client.get("/pages/never/published", headers={"X-Tenant": "acme"})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        elsewhere = client.get("/pages/home/published.html", headers={"X-Tenant": "globex"})
        assert elsewhere.status_code == 404
