"""The published page in a Django site: what the template tags and the ready view read.

- ``published_for(request, page)``: the ``PublishedPage`` (and its standalone
  document) ``request`` may read, read once per request and page (the head and
  the body of one response come from one revision);
- the tenant is the adapter's (``CHARLOTTE_TENANT``), the user ``request.user``,
  and the host's authorizer is asked for ``read_published`` (a no is Django's
  ``PermissionDenied``, 403; so is a request without a tenant);
- ``CHARLOTTE_PUBLISHED_MISSING``: what a tag does when nothing is published
  under the key: ``"404"`` raises ``Http404`` (the default), ``"empty"``
  renders nothing. The ready view always answers 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import Http404, HttpRequest

from charlotte.contrib.django.instance import get_charlotte
from charlotte.contrib.hosting import readable_page
from charlotte.errors import Refused

if TYPE_CHECKING:
    from charlotte.drafts.published import PublishedPage

__all__ = ["MISSING_CHOICES", "missing_rule", "published_for"]

#: The values of ``CHARLOTTE_PUBLISHED_MISSING`` (the first is the default).
MISSING_CHOICES: Final = ("404", "empty")
#: Nothing is published under the key (a fixed sentence: Django's 404 page may show it).
NOT_PUBLISHED: Final = "Nothing is published under this page key."
_READ: Final = "_charlotte_published"


def missing_rule() -> str:
    """``CHARLOTTE_PUBLISHED_MISSING`` (``ImproperlyConfigured`` for another value)."""
    value = getattr(django_settings, "CHARLOTTE_PUBLISHED_MISSING", MISSING_CHOICES[0])
    if value not in MISSING_CHOICES:
        raise ImproperlyConfigured('CHARLOTTE_PUBLISHED_MISSING must be "404" or "empty"')
    return str(value)


def published_for(request: HttpRequest, page: object) -> tuple[PublishedPage, str] | None:
    """The page and its standalone document that ``request`` may read; None when nothing is published.

    Raises ``PermissionDenied`` when the request has no tenant or the host's
    authorizer refuses ``read_published``.
    """
    read: dict[object, tuple[PublishedPage, str] | None] = request.__dict__.setdefault(_READ, {})
    if isinstance(page, str) and page in read:
        return read[page]
    charlotte = get_charlotte()
    try:
        found = readable_page(
            charlotte, request, charlotte.resolve_tenant(request), page, document=True
        )
    except Refused:
        raise PermissionDenied from None
    if isinstance(page, str):
        read[page] = found
    return found


def missing() -> None:
    """What a tag does for a page nothing is published under: ``Http404``, or nothing (``"empty"``)."""
    if missing_rule() == "404":
        raise Http404(NOT_PUBLISHED)
