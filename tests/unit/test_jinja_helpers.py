"""``charlotte.contrib.jinja``: the published page in a Jinja2 template, sync and async.

A real ``Charlotte`` on SQLite publishes a page; templates read it through the
global ``charlotte_page`` (the tenant a string, the request's through a
callable, or charlotte's own resolver) and place it with the filters.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from jinja2 import Environment
from markupsafe import Markup
from tests.support.published_pages_contract import HERO

from charlotte import Charlotte, Settings
from charlotte.contrib.jinja import charlotte_body, charlotte_head, install

TEMPLATE = """{% set page = charlotte_page(key) %}<html lang="{{ page.lang if page else 'en' }}">
<head>{{ page | charlotte_head }}</head>
<body>{{ page | charlotte_body }}</body></html>"""


@pytest.fixture
def charlotte(tmp_path: Path) -> Iterator[Charlotte]:
    app = Charlotte(Settings(database_url=f"sqlite:///{tmp_path / 'jinja.db'}", queue="inline"))
    app.migrate()
    app.resolve_tenant_using(lambda request: request.tenant)
    yield app
    app.close()


def _publish(app: Charlotte, tenant: str = "acme") -> None:
    handle = app.for_user("ann").tenant(tenant).page("home").brief("A bakery").open()
    handle.edit(HERO, 0)
    handle.publish()


def _render(environment: Environment, key: object = "home", tenant: str = "acme") -> str:
    request = SimpleNamespace(tenant=tenant)
    return environment.from_string(TEMPLATE).render(key=key, request=request)


def test_the_global_reads_the_page_and_the_filters_place_it(charlotte: Charlotte) -> None:
    environment = install(Environment(autoescape=True), charlotte)
    empty = _render(environment)
    assert empty == '<html lang="en">\n<head></head>\n<body></body></html>'
    _publish(charlotte)
    page = charlotte.published_page("acme", "home")
    assert page is not None
    rendered = _render(environment)
    # Nothing escaped twice: the head and body are markup, the stylesheet in one <style>.
    assert rendered == (
        f'<html lang="pt-PT">\n<head>{page.head}\n<style data-charlotte-page>{page.css}</style></head>\n'
        f"<body>{page.html}</body></html>"
    )
    assert "<title>Rosa&#39;s &lt;Bakery&gt;</title>" in rendered
    assert ".cms-page .cms-button" in rendered
    # Another tenant, another key, a value that is no key: nothing.
    assert _render(environment, tenant="globex") == empty
    for key in ("about", "-home", 7, None):
        assert _render(environment, key=key) == empty


def test_the_tenant_is_a_string_a_callable_or_charlottes_resolver(charlotte: Charlotte) -> None:
    _publish(charlotte, tenant="globex")
    fixed = install(Environment(autoescape=True), charlotte, tenant="globex")
    assert 'lang="pt-PT"' in _render(fixed, tenant="nobody")
    called = install(Environment(autoescape=True), charlotte, tenant=lambda request: request.site)
    request = SimpleNamespace(site="globex")
    assert 'lang="pt-PT"' in called.from_string(TEMPLATE).render(key="home", request=request)
    # Charlotte's resolver; no request to resolve a tenant from is a programming error.
    resolved = install(Environment(autoescape=True), charlotte)
    assert 'lang="pt-PT"' in _render(resolved, tenant="globex")
    with pytest.raises(TypeError, match="needs the request"):
        resolved.from_string(TEMPLATE).render(key="home")
    with pytest.raises(TypeError):
        install(Environment(), charlotte, tenant=7)  # type: ignore[arg-type]


def test_the_hosts_authorizer_and_a_missing_tenant_show_nothing(charlotte: Charlotte) -> None:
    _publish(charlotte)
    environment = install(Environment(autoescape=True), charlotte)
    assert 'lang="pt-PT"' in _render(environment)
    charlotte.authorize_using(lambda user, ability, session: ability != "read_published")
    assert _render(environment) == '<html lang="en">\n<head></head>\n<body></body></html>'
    charlotte.authorize_using(lambda user, ability, session: True)
    blank = install(Environment(autoescape=True), charlotte, tenant=lambda request: None)
    assert "cms-page" not in _render(blank)


def test_an_async_environment_reads_in_a_worker_thread(charlotte: Charlotte) -> None:
    _publish(charlotte)
    environment = install(Environment(autoescape=True, enable_async=True), charlotte)
    template = environment.from_string(TEMPLATE)
    rendered = asyncio.run(template.render_async(key="home", request=SimpleNamespace(tenant="acme")))
    assert 'lang="pt-PT"' in rendered and "cms-page" in rendered


def test_the_filters_are_markup_and_empty_for_none(charlotte: Charlotte) -> None:
    assert charlotte_head(None) == Markup("") and charlotte_body(None) == Markup("")
    _publish(charlotte)
    page = charlotte.published_page("acme", "home")
    assert isinstance(charlotte_head(page), Markup) and isinstance(charlotte_body(page), Markup)
    assert str(charlotte_body(page)) == page.html  # type: ignore[union-attr]
