"""The published page on the host's own Django pages: ``{% load charlotte %}`` and the ready view.

The test project serves ``/`` with ``views.published_page`` and its own
template (``templates/site/page.html``, the tags given the view's ``page``),
``/standalone/`` with the ready view alone, ``/pages/<page>/`` with the key
from the URL and ``/tags/`` from a host view whose template names the page by
key. The tenant is the project's resolver (the ``X-Tenant`` header): each test
publishes in a tenant of its own.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.template import Context, Template
from django.test import Client, override_settings
from tests.django_project.support import user_with
from tests.support.hosted_pages import DESCRIPTION, publish_sample

from charlotte.contrib.django.instance import close_charlotte, get_charlotte

SITE_PAGES = ("/", "/standalone/", "/pages/home/", "/tags/")


@pytest.fixture
def tenant() -> str:
    return f"site-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def rebuilt() -> Iterator[None]:
    """The process's Charlotte built again from the settings a test overrides, then as before."""
    close_charlotte()
    yield
    close_charlotte()


def _client(tenant: str) -> Client:
    return Client(headers={"X-Tenant": tenant})


def test_nothing_published_is_a_404_or_nothing_as_the_setting_says(tenant: str) -> None:
    visitor = _client(tenant)
    for path in SITE_PAGES:
        assert visitor.get(path).status_code == 404, path
    with override_settings(CHARLOTTE_PUBLISHED_MISSING="empty"):
        empty = visitor.get("/tags/")
        assert empty.status_code == 200
        text = empty.content.decode()
        assert '<html lang="en">' in text and "cms-page" not in text and "<style" not in text
        assert "<main></main>" in text
        # The ready view has nothing to serve whatever the tags do.
        assert visitor.get("/").status_code == 404
    with override_settings(CHARLOTTE_PUBLISHED_MISSING="blank"), pytest.raises(ImproperlyConfigured):
        visitor.get("/tags/")


def test_the_host_template_carries_the_page_its_head_and_an_etag_with_a_304(tenant: str) -> None:
    revision = publish_sample(get_charlotte(), tenant, user=user_with("all"))
    page = get_charlotte().published_page(tenant, "home")
    assert page is not None and page.revision == revision
    visitor = _client(tenant)
    answer = visitor.get("/")
    assert answer.status_code == 200 and answer["Content-Type"] == "text/html; charset=utf-8"
    text = answer.content.decode()
    assert text.startswith('<!DOCTYPE html>\n<html lang="pt-PT">')
    assert page.head in text and f"<style data-charlotte-page>{page.css}</style>" in text
    assert f'<meta name="description" content="{DESCRIPTION}">' in text
    assert page.html in text and "the host&#x27;s own header" not in text and "the host's own header" in text
    assert text.index("<style data-charlotte-page>") < text.index("</head>") < text.index(page.html)
    assert answer["Cache-Control"] == "no-cache" and answer["ETag"].startswith('"')
    again = visitor.get("/", headers={"If-None-Match": answer["ETag"]})
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == answer["ETag"]
    assert visitor.get("/", headers={"If-None-Match": '"other"'}).status_code == 200

    tags = visitor.get("/tags/").content.decode()
    assert '<html lang="pt-PT">' in tags and page.head in tags and f"<main>{page.html}</main>" in tags


def test_the_ready_view_serves_the_standalone_document_with_the_pages_etag(tenant: str) -> None:
    publish_sample(get_charlotte(), tenant, user=user_with("all"))
    found = get_charlotte().published_document(tenant, "home")
    assert found is not None
    page, document = found
    visitor = _client(tenant)
    for path in ("/standalone/", "/pages/home/"):
        answer = visitor.get(path)
        assert answer.status_code == 200 and answer.content.decode() == document
        assert answer["ETag"] == page.etag
        for sent in (page.etag, f"W/{page.etag}", "*"):
            assert visitor.get(path, headers={"If-None-Match": sent}).status_code == 304
    assert visitor.head("/standalone/").status_code == 200
    assert visitor.post("/standalone/").status_code == 405
    # Another key, a key of another shape, another tenant: nothing there.
    assert visitor.get("/pages/about/").status_code == 404
    assert visitor.get("/pages/-home/").status_code == 404
    assert _client(f"{tenant}-other").get("/standalone/").status_code == 404


def test_a_publish_changes_what_the_site_serves_and_its_etag(tenant: str) -> None:
    user = user_with("all")
    publish_sample(get_charlotte(), tenant, user=user)
    visitor = _client(tenant)
    first = visitor.get("/")
    plain = visitor.get("/standalone/")
    handle = get_charlotte().for_user(user).tenant(tenant).page("home").brief("More").open()
    draft = handle.draft()
    edited = handle.edit([{"t": "set_meta", "patch": {"title": "Rosa's Bakery, Lisbon"}}], based_on=draft["revision"])
    handle.publish(revision=edited["revision"])
    second = visitor.get("/", headers={"If-None-Match": first["ETag"]})
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert "<title>Rosa&#39;s Bakery, Lisbon</title>" in second.content.decode()
    assert visitor.get("/standalone/", headers={"If-None-Match": plain["ETag"]}).status_code == 200


@pytest.mark.usefixtures("rebuilt")
def test_the_hosts_authorizer_decides_who_reads_the_page(tenant: str) -> None:
    publish_sample(get_charlotte(), tenant, user=user_with("all"))
    with override_settings(CHARLOTTE_AUTHORIZER="tests.django_project.host.staff_only"):
        close_charlotte()
        visitor = _client(tenant)
        for path in SITE_PAGES:
            assert visitor.get(path).status_code == 403, path
        with override_settings(CHARLOTTE_PUBLISHED_MISSING="empty"):
            assert visitor.get("/tags/").status_code == 403  # a no is not "nothing published"
        staff = user_with()
        staff.is_staff = True
        staff.save()
        visitor.force_login(staff)
        assert visitor.get("/").status_code == 200


def test_the_tags_need_the_request_and_take_a_published_page(tenant: str) -> None:
    template = Template('{% load charlotte %}{% charlotte_page "home" %}')
    with pytest.raises(ImproperlyConfigured, match="need the request"):
        template.render(Context({}))
    publish_sample(get_charlotte(), tenant, user=user_with("all"))
    page = get_charlotte().published_page(tenant, "home")
    assert page is not None
    given = Template("{% load charlotte %}{% charlotte_head page %}|{% charlotte_page page %}")
    rendered = given.render(Context({"page": page}))
    assert rendered == f"{page.head}\n<style data-charlotte-page>{page.css}</style>|{page.html}"

