"""The README's Django section, executed as written, in a Django project of its own.

Its settings snippet goes into a new project's ``settings.py`` (after the
lines every project has), its URLconf is the project's ``urls.py``, and its
``manage.py`` commands run as written in that folder. A driver process then
signs a person in, opens a session, runs a turn on the thread queue,
publishes, and checks that a signed-out visitor is refused. A subprocess:
this test process's Django is configured with the test project's settings.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"

#: What every Django project's settings hold besides what the README shows.
PREAMBLE = """
SECRET_KEY = "readme-example"
ALLOWED_HOSTS = ["testserver"]
USE_TZ = True
ROOT_URLCONF = "urls"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "django.sqlite3"}}
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": ["templates"],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
}]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
"""

MANAGE = """
import sys
from django.core.management import execute_from_command_line
execute_from_command_line(sys.argv)
"""

DRIVER = """
import os, time
os.environ["DJANGO_SETTINGS_MODULE"] = "settings"
import django
django.setup()
from django.contrib.auth.models import Permission, User
from django.test import Client
from charlotte.contrib.django.instance import close_charlotte

user = User.objects.create_user("ann", password="x")
user.user_permissions.set(Permission.objects.filter(content_type__app_label="charlotte"))
client = Client()
client.force_login(user)
opened = client.post("/builder/sessions", {"page": "home",
                     "brief": "A landing page for Rosa's Bakery: menu and contact.",
                     "facts": {"name": "Rosa's Bakery"}}, content_type="application/json")
assert opened.status_code == 201, opened.content
sid = opened.json()["session"]["id"]
sent = client.post(f"/builder/sessions/{sid}/turns", {"message": "Build it"},
                   content_type="application/json")
assert sent.status_code == 202, sent.content
deadline = time.monotonic() + 60
types = []
while time.monotonic() < deadline and "turn.finished" not in types:
    types = [e["type"] for e in client.get(f"/builder/sessions/{sid}/events").json()["events"]]
    time.sleep(0.05)
assert "turn.finished" in types, types
draft = client.get(f"/builder/sessions/{sid}/draft").json()
assert "Rosa" in draft["html"]
published = client.post(f"/builder/sessions/{sid}/publish", {"revision": draft["revision"]},
                        content_type="application/json")
assert published.status_code == 200, published.content
assert Client().get(f"/builder/sessions/{sid}/draft").status_code == 401
assert Client().get("/builder/").status_code == 302
assert client.get("/builder/").status_code == 200
close_charlotte()
print("readme example ok")
"""


SITE_DRIVER = """
import os
os.environ["DJANGO_SETTINGS_MODULE"] = "settings"
import django
django.setup()
from django.contrib.auth.models import Permission, User
from django.test import Client
from charlotte.contrib.django.instance import close_charlotte, get_charlotte
from tests.support.hosted_pages import publish_sample

visitor = Client()
assert visitor.get("/").status_code == 404 and visitor.get("/about/").status_code == 404
user = User.objects.create_user("ann", password="x")
user.user_permissions.set(Permission.objects.filter(content_type__app_label="charlotte"))
charlotte = get_charlotte()
for key in ("home", "about"):
    publish_sample(charlotte, "default", key, user=user)
home, document = charlotte.published_document("default", "home")
answer = visitor.get("/")
assert answer.status_code == 200 and answer.content.decode() == document, answer.content
assert answer["ETag"] == home.etag
assert visitor.get("/", headers={"If-None-Match": home.etag}).status_code == 304
about = charlotte.published_page("default", "about")
text = visitor.get("/about/").content.decode()
assert text.startswith('<!DOCTYPE html>\\n<html lang="pt-PT">'), text[:80]
assert about.head in text and about.css in text and about.html in text
assert "<header>Rosa's Bakery</header>" in text
close_charlotte()
print("readme site ok")
"""


def _block(name: str, language: str) -> str:
    text = README.read_text(encoding="utf-8")
    found = re.search(
        rf"<!-- readme-snippet: {name} -->\n```{language}\n(.*?)```", text, re.S
    )
    assert found is not None, f"the README lost its {name} block"
    return found.group(1)


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    # The folder first (its settings and urls), then whatever finds charlotte here.
    env["PYTHONPATH"] = os.pathsep.join([str(folder), *filter(None, [env.get("PYTHONPATH")])])
    return env


@pytest.mark.timeout(180)
def test_the_readme_django_section_runs(tmp_path: Path) -> None:
    (tmp_path / "settings.py").write_text(PREAMBLE + _block("django-settings", "python"))
    (tmp_path / "urls.py").write_text(_block("django-urls", "python"))
    (tmp_path / "manage.py").write_text(MANAGE)
    env = {**_env(tmp_path), "DJANGO_SETTINGS_MODULE": "settings"}
    commands = [
        line.split("#", 1)[0].strip() for line in _block("django-commands", "sh").splitlines()
    ]
    assert commands and all(c.startswith("python manage.py ") for c in commands if c)
    for command in filter(None, commands):
        argv = [sys.executable, *shlex.split(command)[1:]]
        done = subprocess.run(
            argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, f"{command}:\n{done.stdout}{done.stderr}"
    assert (tmp_path / "charlotte.db").exists()  # charlotte's own database, beside Django's
    driver = subprocess.run(
        [sys.executable, "-c", DRIVER], cwd=tmp_path, env=_env(tmp_path),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert driver.returncode == 0, driver.stdout + driver.stderr
    assert driver.stdout.strip().endswith("readme example ok")


@pytest.mark.timeout(180)
def test_the_readme_site_urls_and_template_serve_the_published_pages(tmp_path: Path) -> None:
    (tmp_path / "settings.py").write_text(PREAMBLE + _block("django-settings", "python"))
    (tmp_path / "urls.py").write_text(_block("django-site-urls", "python"))
    (tmp_path / "templates" / "site").mkdir(parents=True)
    (tmp_path / "templates" / "site" / "page.html").write_text(_block("django-site-template", "html"))
    env = {**_env(tmp_path), "DJANGO_SETTINGS_MODULE": "settings"}
    for command in ("migrate", "charlotte_migrate"):
        done = subprocess.run(
            [sys.executable, "-c", MANAGE, command], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
    # The driver imports the tests' own sample page: the repository root on its path too.
    env = _env(tmp_path)
    env["PYTHONPATH"] += os.pathsep + str(README.parent)
    driver = subprocess.run(
        [sys.executable, "-c", SITE_DRIVER], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=150,
    )  # fmt: skip
    assert driver.returncode == 0, driver.stdout + driver.stderr
    assert driver.stdout.strip().endswith("readme site ok")
