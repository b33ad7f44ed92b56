"""Django for the adapter's tests: configured once per test process, before any test imports it.

One settings module (``tests.django_project.settings``) for the whole folder:
Django's settings and app registry are process-global. Its state folder is
made here and removed at the end; Django's tables are migrated, then
charlotte's (``manage.py charlotte_migrate``).
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

STATE = Path(tempfile.mkdtemp(prefix="charlotte-django-"))
os.environ["CHARLOTTE_DJANGO_TEST_STATE"] = str(STATE)
os.environ["DJANGO_SETTINGS_MODULE"] = "tests.django_project.settings"

import django  # noqa: E402

django.setup()
# The settings are loaded now; the variables go, so that no other test's
# subprocess (a Celery worker looks for DJANGO_SETTINGS_MODULE) takes this
# project for its own. Subprocesses of these tests are handed them.
del os.environ["CHARLOTTE_DJANGO_TEST_STATE"], os.environ["DJANGO_SETTINGS_MODULE"]

from django.core.management import call_command  # noqa: E402

from charlotte.contrib.django.instance import close_charlotte  # noqa: E402

call_command("migrate", verbosity=0, interactive=False)
call_command("charlotte_migrate", stdout=io.StringIO())


@pytest.fixture(scope="session", autouse=True)
def _django_state() -> Iterator[None]:
    yield
    close_charlotte()
    shutil.rmtree(STATE, ignore_errors=True)
