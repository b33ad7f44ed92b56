"""The Django project of the adapter's tests: one settings module for the whole folder.

Its state (Django's SQLite database, charlotte's) lives in the folder
``CHARLOTTE_DJANGO_TEST_STATE`` names, which ``conftest.py`` makes and removes;
a worker subprocess inherits it (``worker_settings.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

STATE = Path(os.environ["CHARLOTTE_DJANGO_TEST_STATE"])

SECRET_KEY = "charlotte-tests-only"
DEBUG = False
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
ROOT_URLCONF = "tests.django_project.urls"
LOGIN_URL = "/login/"

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "charlotte.contrib.django",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The host's token authentication for MCP clients (a request without the header is left alone).
    "tests.django_project.host.BearerTokens",
]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(STATE / "django.sqlite3")}
}

# The host's own templates (``templates/site/``) place the published page with charlotte's tags.
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [Path(__file__).resolve().parent / "templates"],
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

CHARLOTTE = {"database_url": f"sqlite:///{STATE / 'charlotte.db'}", "queue": "inline"}
CHARLOTTE_TENANT = "tests.django_project.host.tenant_of"
CHARLOTTE_HEARTBEAT_SECONDS = 0.5
