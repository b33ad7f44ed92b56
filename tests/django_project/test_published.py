"""The published page by its key through the Django adapter: JSON and HTML, ETag/304, anyone may read."""

from __future__ import annotations

from django.test import Client
from tests.django_project.support import open_session, post, signed_in, user_with

from charlotte.contrib.django.instance import get_charlotte
from charlotte.errors import MESSAGES


def _published_page(page: str) -> None:
    # A session on ``page`` built and published through the API, by a user holding every permission.
    client = signed_in(user_with("all"))
    session_id = open_session(client)
    if page != "home":
        response = post(client, "/builder/sessions", {"page": page, "brief": "A page for Rosa's Bakery"})
        session_id = response.json()["session"]["id"]
    assert post(client, f"/builder/sessions/{session_id}/turns", {"message": "Build it"}).status_code == 202
    assert post(client, f"/builder/sessions/{session_id}/publish").status_code == 200


def test_anyone_reads_the_published_page_with_its_etag_and_a_304_round_trip() -> None:
    anonymous = Client()
    missing = anonymous.get("/builder/pages/dj-page/published")
    assert missing.status_code == 404
    assert missing.json()["error"] == {"code": "not_found", "message": MESSAGES["not_found"]}
    _published_page("dj-page")

    answer = anonymous.get("/builder/pages/dj-page/published")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert set(body) == {"page", "revision", "published_at", "html", "css", "head", "title", "lang"}
    assert body["html"].startswith('<div class="cms-page" lang="en">')
    assert answer["ETag"].startswith('"') and answer["Cache-Control"] == "no-cache"
    again = anonymous.get("/builder/pages/dj-page/published", headers={"If-None-Match": answer["ETag"]})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == answer["ETag"]

    document = anonymous.get("/builder/pages/dj-page/published.html")
    assert document.status_code == 200
    assert document["Content-Type"] == "text/html; charset=utf-8"
    assert document.content.startswith(b"<!DOCTYPE html>\n<html lang=\"en\">")
    assert document["ETag"] == answer["ETag"]
    unchanged = anonymous.get("/builder/pages/dj-page/published.html", headers={"If-None-Match": answer["ETag"]})
    assert unchanged.status_code == 304 and unchanged.content == b""


def test_a_bad_key_is_invalid_page_key_and_the_instance_reads_the_same_page() -> None:
    response = Client().get("/builder/pages/-nope/published")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_page_key"
    _published_page("dj-same")
    # The test project's tenant is the X-Tenant header, "acme" without one.
    read = get_charlotte().published_page("acme", "dj-same")
    served = Client().get("/builder/pages/dj-same/published")
    assert read is not None and served.json()["revision"] == read.revision
    assert served["ETag"] == read.etag
    elsewhere = Client().get("/builder/pages/dj-same/published", headers={"X-Tenant": "globex"})
    assert elsewhere.status_code == 404 and elsewhere.json()["error"]["code"] == "not_found"
