"""``{% load charlotte %}``: the published page in the host's own Django templates.

::

    {% load charlotte %}
    {% charlotte_published "home" as page %}
    <html lang="{{ page.lang }}">
    <head>{% charlotte_head "home" %}</head>
    <body>{% charlotte_page "home" %}</body>

- ``{% charlotte_head key %}``: the head tags (title, description, canonical,
  ``og:*``, robots) and a ``<style>`` with the page's stylesheet;
- ``{% charlotte_page key %}``: the body, ``<div class="cms-page" lang="…">``;
- ``{% charlotte_published key as page %}``: the ``PublishedPage`` itself
  (``page.lang``, ``page.title``, ``page.revision`` …).

Each takes a page key or a ``PublishedPage`` (the ready view's ``page``).
The tenant is the adapter's (``CHARLOTTE_TENANT``), read from the template's
request (render with ``django.shortcuts.render`` or the ``request`` context
processor); a page is read once per request. Nothing published under the
key: ``CHARLOTTE_PUBLISHED_MISSING`` (``"404"`` raises ``Http404``,
``"empty"`` renders nothing); the host's authorizer refusing
``read_published``: ``PermissionDenied``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import template
from django.core.exceptions import ImproperlyConfigured
from django.utils.safestring import SafeString, mark_safe

from charlotte.contrib.django.published import missing, published_for
from charlotte.contrib.hosting import head_markup
from charlotte.drafts.published import PublishedPage

if TYPE_CHECKING:
    from django.template.context import Context

register = template.Library()


def _page(context: Context, page: object) -> PublishedPage | None:
    """``page`` itself when it is a ``PublishedPage``, else the page of that key (see module docstring)."""
    if isinstance(page, PublishedPage):
        return page
    request: Any = getattr(context, "request", None) or context.get("request")
    if request is None:
        raise ImproperlyConfigured(
            "the charlotte template tags need the request: render with django.shortcuts.render"
            " or add the django.template.context_processors.request context processor"
        )
    found = published_for(request, page)
    if found is None:
        missing()
        return None
    return found[0]


def charlotte_published(context: Context, page: object) -> PublishedPage | None:
    """The ``PublishedPage`` (``{% charlotte_published "home" as page %}``), None under ``"empty"``."""
    return _page(context, page)


def charlotte_head(context: Context, page: object) -> SafeString:
    """The page's head tags and its ``<style>`` (nothing under ``"empty"``)."""
    return mark_safe(head_markup(_page(context, page)))  # escaped by the renderer


def charlotte_page(context: Context, page: object) -> SafeString:
    """The page's body (nothing under ``"empty"``)."""
    found = _page(context, page)
    return mark_safe("" if found is None else found.html)  # rendered and escaped by charlotte


# Registered by call (Django ships no type hints: a decorator would untype them).
for _tag in (charlotte_published, charlotte_head, charlotte_page):
    register.simple_tag(_tag, takes_context=True)
