"""The published page in Jinja2 templates (FastAPI, Starlette or any Jinja2 host; extra ``fastapi``).

::

    from charlotte.contrib.jinja import install

    install(templates.env, charlotte)     # tenant: charlotte's resolver, a string or fn(request)

then, in a template::

    {% set page = charlotte_page("home") %}
    <html lang="{{ page.lang if page else 'en' }}">
    <head>{{ page | charlotte_head }}</head>
    <body>{{ page | charlotte_body }}</body>

- the global ``charlotte_page(key)``: the ``PublishedPage`` the template's
  ``request`` may read, or None (nothing published under that key, a value
  that is no page key, no tenant, or the host's authorizer refuses
  ``read_published``); in an async environment (``enable_async=True``) the
  read runs in a worker thread;
- the filters ``charlotte_head`` (the head tags and a ``<style>`` with the
  page's stylesheet) and ``charlotte_body`` (the body), each ``Markup``; for
  None each is empty.

The tenant is ``tenant`` when it is a string, ``tenant(request)`` when it is
callable, else ``charlotte.resolve_tenant(request)``; ``request`` is the
template context's ``request`` (Starlette's ``Jinja2Templates`` puts it
there). This module imports Jinja2; nothing else of charlotte does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from charlotte.contrib.hosting import head_markup, readable_page
from charlotte.errors import Refused

if TYPE_CHECKING:
    from charlotte.app import Charlotte
    from charlotte.drafts.published import PublishedPage

__all__ = ["charlotte_body", "charlotte_head", "install"]

#: Where the tenant comes from: a fixed key, ``fn(request)``, or None (charlotte's resolver).
TenantSource = str | Callable[[Any], Any] | None


def install(environment: Environment, charlotte: Charlotte, *, tenant: TenantSource = None) -> Environment:
    """Add ``charlotte_page`` (a global) and ``charlotte_head``/``charlotte_body`` (filters) to ``environment``."""
    if not (tenant is None or isinstance(tenant, str) or callable(tenant)):
        raise TypeError("tenant must be a tenant key, a callable of the request, or None")

    def read(context: Context, page: object) -> PublishedPage | None:
        request = context.get("request")
        if isinstance(tenant, str):
            key: object = tenant
        elif request is None:
            raise TypeError("charlotte_page needs the request in the template's context")
        else:
            key = tenant(request) if tenant is not None else charlotte.resolve_tenant(request)
        try:
            found = readable_page(charlotte, request, key, page)
        except Refused:
            return None  # no tenant, or the host's authorizer said no: nothing to show
        return None if found is None else found[0]

    if environment.is_async:

        @pass_context
        async def charlotte_page(context: Context, page: object) -> PublishedPage | None:
            return await asyncio.to_thread(read, context, page)

        environment.globals["charlotte_page"] = charlotte_page
    else:
        environment.globals["charlotte_page"] = pass_context(read)
    environment.filters["charlotte_head"] = charlotte_head
    environment.filters["charlotte_body"] = charlotte_body
    return environment


def charlotte_head(page: PublishedPage | None) -> Markup:
    """The head tags and a ``<style>`` with the page's stylesheet (empty for None)."""
    return Markup(head_markup(page))  # escaped by the renderer


def charlotte_body(page: PublishedPage | None) -> Markup:
    """The page's body, ``<div class="cms-page" lang="…">…</div>`` (empty for None)."""
    return Markup("" if page is None else page.html)  # rendered and escaped by charlotte
