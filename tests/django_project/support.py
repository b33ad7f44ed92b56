"""What the Django tests share: users with charlotte's permissions, JSON requests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth.models import Permission, User
from django.test import Client
from tests.support.asgi_server import serve_app

from charlotte.contrib.django.permissions import PERMISSIONS

BRIEF = "A landing page for Rosa's Bakery: menu and contact."


def user_with(*abilities: str) -> User:
    """A new user holding the permissions of ``abilities`` (``"all"``: every one)."""
    user = User.objects.create_user(f"user-{uuid.uuid4().hex[:10]}", password="x")
    names = PERMISSIONS if abilities == ("all",) else abilities
    codenames = [PERMISSIONS[ability][0] for ability in names]
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="charlotte", codename__in=codenames)
    )
    return user


def signed_in(user: User, *, enforce_csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(user)
    return client


def post(client: Client, path: str, body: Any = None, **headers: str) -> Any:
    """A JSON POST (bodiless ones too, as the API wants)."""
    if body is None:
        # The test client leaves out the type of an empty body; a browser sends it.
        json = "application/json"
        return client.post(path, "", content_type=json, headers=headers, CONTENT_TYPE=json)
    return client.post(path, body, content_type="application/json", headers=headers)


def open_session(client: Client, **headers: str) -> str:
    response = post(client, "/builder/sessions", {"page": "home", "brief": BRIEF}, **headers)
    assert response.status_code == 201, response.content
    session_id: str = response.json()["session"]["id"]
    return session_id


def session_cookie(user: User) -> tuple[str, str]:
    """The name and value of a Django session cookie signing ``user`` in."""
    client = signed_in(user)
    name = django_settings.SESSION_COOKIE_NAME
    return name, client.cookies[name].value


@contextmanager
def serve_asgi() -> Iterator[str]:
    """The test project's ASGI application under uvicorn on loopback: its base URL; always shut down."""
    from tests.django_project.asgi import application

    # Django answers no lifespan messages.
    with serve_app(application, lifespan="off") as url:
        yield url
