"""The host's hooks the test project names in its settings."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse

from charlotte import Charlotte, InMemoryAssetLibrary, Settings

#: The one asset of the bakery host's library.
BAKERY_ASSETS = {"storefront": "https://cdn.example/storefront.jpg"}


def tenant_of(request: HttpRequest) -> str | None:
    """The tenant is the ``X-Tenant`` header here; a real host reads its own request state."""
    tenant = request.headers.get("X-Tenant", "acme")
    return tenant or None


def staff_only(user: object, ability: str, session: object) -> bool:
    """An authorizer a host names in ``CHARLOTTE_AUTHORIZER``: staff may do everything."""
    return getattr(user, "is_staff", False) is True


def not_a_charlotte(settings: object) -> object:
    """A wrong ``CHARLOTTE_FACTORY``: what it returns is no ``Charlotte``."""
    return settings


def bakery_charlotte(settings: Settings) -> Charlotte:
    """A ``CHARLOTTE_FACTORY``: the host's own asset library (and whatever else it needs)."""
    return Charlotte(settings, assets=InMemoryAssetLibrary(BAKERY_ASSETS))


#: The bearer tokens the test project's MCP clients send: token → username.
TOKENS: dict[str, str] = {}


class BearerTokens:
    """A host's token authentication: ``Authorization: Bearer <token>`` signs its user in for the request.

    MCP clients send no cookies; a host authenticates them its own way, and
    charlotte reads ``request.user`` as for every request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = request.headers.get("Authorization", "")
        name = TOKENS.get(header.removeprefix("Bearer ")) if header.startswith("Bearer ") else None
        if name is not None:
            request.user = get_user_model().objects.get(username=name)
        return self.get_response(request)
