"""Settings of the subprocesses ``test_commands.py`` runs: PostgreSQL for both, a Celery queue.

Django's tables and charlotte's share one PostgreSQL database, each in a
schema of its own; the test hands the URLs and schema names in the
environment (only this test module reads it).
"""

from __future__ import annotations

import os

from tests.django_project.settings import *  # noqa: F403

_ENV = os.environ
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _ENV["CHARLOTTE_DJANGO_PG_NAME"],
        "USER": _ENV["CHARLOTTE_DJANGO_PG_USER"],
        "PASSWORD": _ENV.get("CHARLOTTE_DJANGO_PG_PASSWORD", ""),
        "HOST": _ENV["CHARLOTTE_DJANGO_PG_HOST"],
        "PORT": _ENV["CHARLOTTE_DJANGO_PG_PORT"],
        "OPTIONS": {"options": f"-c search_path={_ENV['CHARLOTTE_DJANGO_PG_SCHEMA']}"},
    }
}
CHARLOTTE = {
    "database_url": _ENV["CHARLOTTE_DJANGO_DATABASE_URL"],
    "database_schema": _ENV["CHARLOTTE_DJANGO_SCHEMA"],
    "queue": "celery",
    "broker_url": _ENV["CHARLOTTE_DJANGO_BROKER_URL"],
}
