"""What the template adapters share: the published page a request may read, and its head markup.

The Django template tags and ready view (``contrib/django/``) and the Jinja2
helpers (``contrib/jinja.py``) put a published page into the host's own
template. Both read it the same way: the tenant from the host's request, the
host's authorizer asked for ``read_published`` (as the HTTP routes ask it),
then ``Charlotte.published_page``. Both write the head the same way: the head
tags, then the page's stylesheet in one ``<style>`` element
(``docs/hosting.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from charlotte.access import PAGE_KEY, published_key, valid_tenant
from charlotte.errors import Refused

if TYPE_CHECKING:
    from charlotte.app import Charlotte
    from charlotte.drafts.published import PublishedPage

__all__ = ["head_markup", "readable_page"]


def readable_page(
    charlotte: Charlotte, request: object, tenant: object, page: object, *, document: bool = False
) -> tuple[PublishedPage, str] | None:
    """The published page ``request`` may read, with its standalone document when ``document``.

    None when nothing is published under ``page`` (a value that is no page key
    names nothing either). ``Refused("forbidden")`` when there is no tenant;
    ``Refused("unauthorized")`` (no user) or ``Refused("forbidden")`` when the
    host's authorizer does not allow ``read_published``.
    """
    if not isinstance(page, str) or PAGE_KEY.fullmatch(page) is None:
        return None
    if not valid_tenant(tenant):
        raise Refused("forbidden")
    key = published_key(tenant, page)
    user = charlotte.resolve_user(request)
    if not charlotte.allows(user, "read_published", key):
        raise Refused("unauthorized" if user is None else "forbidden")
    if document:
        return charlotte.published_document(key.tenant, key.page)
    found = charlotte.published_page(key.tenant, key.page)
    return None if found is None else (found, "")


def head_markup(page: PublishedPage | None) -> str:
    """The head tags and a ``<style>`` with the page's stylesheet; "" for no page.

    Safe as markup: every head value is escaped, and the stylesheet holds no
    ``<`` (``PublishedPage.css``), so it cannot close the element.
    """
    if page is None:
        return ""
    return f"{page.head}\n<style data-charlotte-page>{page.css}</style>"
