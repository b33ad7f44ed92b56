"""charlotte as a Django app (extra ``django``): the API, the live stream and the builder page.

In the host's settings::

    INSTALLED_APPS = [..., "django.contrib.auth", "charlotte.contrib.django"]
    CHARLOTTE = {"database_url": "postgresql+psycopg://app@db/app",
                 "database_schema": "charlotte"}       # the fields of charlotte.Settings

and in its URLconf ``path("builder/", include("charlotte.contrib.django.urls"))``.
The user is ``request.user``; the tenant comes from ``CHARLOTTE_TENANT`` (a
dotted path to ``fn(request) -> str``; default: the one tenant ``"default"``);
each ability is a Django permission (``charlotte.open_session`` …, see
``permissions.py``) unless ``CHARLOTTE_AUTHORIZER`` names
``fn(user, ability, session) -> bool``; ``CHARLOTTE_FACTORY`` may name
``fn(settings) -> Charlotte`` for a host's own assets, page repository, modes
or per-turn caps. ``manage.py charlotte_migrate`` creates charlotte's tables,
``manage.py charlotte_worker`` runs a Celery worker of the same instance.
``docs/django.md`` has the details (CSRF, the stream under ASGI and WSGI).

A site serves what was published with ``{% load charlotte %}``
(``charlotte_head``, ``charlotte_page``) and the ready view
``views.published_page`` (``docs/hosting.md``).

This package imports Django; nothing else of charlotte does.
"""

from __future__ import annotations
