"""charlotte as a Django app, through Django's test client: the API, permissions, tenants, CSRF, the page."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Permission, User
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import Client, override_settings
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.django_project.support import BRIEF, open_session, post, signed_in, user_with
from tests.support.celery_harness import refusing_broker

from charlotte.access import ABILITIES
from charlotte.contrib.django.instance import DEFAULT_TENANT, close_charlotte, get_charlotte
from charlotte.contrib.django.permissions import PERMISSIONS, permission_of
from charlotte.errors import MESSAGES, Refused
from charlotte.http.api import error_body


@pytest.fixture
def rebuilt() -> Iterator[None]:
    """The process's Charlotte built again from the settings a test overrides, then as before."""
    close_charlotte()
    yield
    close_charlotte()


def _code(response: Any) -> str:
    code: str = response.json()["error"]["code"]
    assert response.json()["error"]["message"] == MESSAGES[code]
    return code


def test_the_urls_serve_the_api_under_the_prefix_a_turn_through_to_publish() -> None:
    client = signed_in(user_with("all"))
    session_id = open_session(client)
    sent = post(client, f"/builder/sessions/{session_id}/turns", {"message": "Build it"})
    assert sent.status_code == 202, sent.content  # the inline queue ran the turn
    types = [
        e["type"] for e in client.get(f"/builder/sessions/{session_id}/events").json()["events"]
    ]
    assert "turn.finished" in types
    draft = client.get(f"/builder/sessions/{session_id}/draft").json()
    assert "Rosa" in draft["html"]
    published = post(
        client, f"/builder/sessions/{session_id}/publish", {"revision": draft["revision"]}
    )
    assert published.status_code == 200, published.content
    assert client.get(f"/builder/sessions/{session_id}/published").json()["html"] == draft["html"]
    assert client.get("/builder/openapi.json").json()["openapi"].startswith("3.1")
    assert _code(client.get("/builder/no-such-route")) == "not_found"
    wrong_method = client.get(f"/builder/sessions/{session_id}/turns")
    assert wrong_method.status_code == 405 and wrong_method["Allow"] == "POST"


def test_the_user_is_request_user_and_the_api_answers_401_json_to_anyone_signed_out() -> None:
    anonymous = Client()
    for response in (
        post(anonymous, "/builder/sessions", {"page": "home", "brief": BRIEF}),
        anonymous.get("/builder/sessions/whatever/draft"),
    ):
        assert response.status_code == 401
        assert response["Content-Type"] == "application/json"
        assert _code(response) == "unauthorized"
    user = user_with("all")
    client = signed_in(user)
    session_id = open_session(client)
    opened = client.get(f"/builder/sessions/{session_id}/events").json()["events"][0]
    assert opened["actor"] == str(user.pk)  # events record request.user's id


def test_the_page_sends_a_signed_out_visitor_to_the_login_page() -> None:
    response = Client().get("/builder/")
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/builder/"


def test_the_page_and_its_files_are_served_under_the_prefix_with_the_csrf_token() -> None:
    client = signed_in(user_with("all"))
    page = client.get("/builder/")
    assert page.status_code == 200
    html = page.content.decode()
    token = re.search(
        r'<meta name="charlotte-csrf" content="([^"]+)" data-header="X-CSRFTOKEN">', html
    )
    assert token is not None, html[:600]
    assert "script-src 'self'" in page["Content-Security-Policy"]  # no inline script needed
    assert './builder.js"' in html and './builder.css"' in html  # relative: any prefix works
    for name, media in (
        ("builder.js", "text/javascript"),
        ("builder.css", "text/css"),
        ("page-base.css", "text/css"),
        ("js/api.js", "text/javascript"),
        ("js/stream.js", "text/javascript"),
    ):
        asset = client.get(f"/builder/{name}")
        assert asset.status_code == 200 and asset["Content-Type"].startswith(media), name
    assert b"charlotte-csrf" in client.get("/builder/js/api.js").content  # the page sends it back


def test_django_csrf_protects_every_write_and_the_page_token_passes_it() -> None:
    user = user_with("all")
    client = signed_in(user, enforce_csrf=True)
    charlotte = get_charlotte()
    before = _session_count(charlotte)
    refused = post(client, "/builder/sessions", {"page": "home", "brief": BRIEF})
    assert refused.status_code == 403 and _code(refused) == "cross_site"
    assert _session_count(charlotte) == before
    html = client.get("/builder/").content.decode()
    match = re.search(r'name="charlotte-csrf" content="([^"]+)"', html)
    assert match is not None
    session_id = open_session(client, **{"X-CSRFToken": match.group(1)})
    assert client.get(f"/builder/sessions/{session_id}").status_code == 200  # reads need no token
    stop = post(client, f"/builder/sessions/{session_id}/stop")
    assert stop.status_code == 403 and _code(stop) == "cross_site"


def test_the_csrf_check_holds_where_the_project_runs_no_csrf_middleware() -> None:
    without = [m for m in django_settings.MIDDLEWARE if "csrf" not in m.lower()]
    with override_settings(MIDDLEWARE=without):
        client = signed_in(user_with("all"), enforce_csrf=True)
        refused = post(client, "/builder/sessions", {"page": "home", "brief": BRIEF})
        assert refused.status_code == 403 and _code(refused) == "cross_site"
        page = client.get("/builder/")
        assert django_settings.CSRF_COOKIE_NAME in page.cookies  # the page still sets the cookie
        match = re.search(r'name="charlotte-csrf" content="([^"]+)"', page.content.decode())
        assert match is not None
        open_session(client, **{"X-CSRFToken": match.group(1)})


def test_charlottes_own_cross_site_rules_still_apply_after_djangos_check() -> None:
    client = signed_in(user_with("all"))
    as_text = client.post("/builder/sessions", "{}", content_type="text/plain")
    assert as_text.status_code == 415 and _code(as_text) == "unsupported_media_type"
    elsewhere = post(
        client,
        "/builder/sessions",
        {"page": "home", "brief": BRIEF},
        Origin="https://evil.example",
        **{"Sec-Fetch-Site": "cross-site"},
    )
    assert elsewhere.status_code == 403 and _code(elsewhere) == "cross_site"


def test_a_body_over_the_limit_is_413_before_it_is_read() -> None:
    client = signed_in(user_with("all"))
    big = {"page": "home", "brief": "x" * (300 * 1024)}
    response = post(client, "/builder/sessions", big)
    assert response.status_code == 413 and _code(response) == "body_too_large"
    huge = client.post(
        "/builder/sessions", "{}", content_type="application/json", CONTENT_LENGTH="9" * 5000
    )
    assert huge.status_code == 413 and _code(huge) == "body_too_large"
    garbled = client.post(
        "/builder/sessions", "{}", content_type="application/json", CONTENT_LENGTH="12a"
    )
    assert garbled.status_code == 400 and _code(garbled) == "invalid_request"


@pytest.fixture(scope="module")
def owner() -> tuple[Client, str]:
    client = signed_in(user_with("all"))
    return client, open_session(client)


_BODIES = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=10,
    ).map(lambda value: json.dumps(value).encode()),
)


@given(
    body=_BODIES,
    route=st.sampled_from(["sessions", "sessions/{id}/edits", "sessions/{id}/publish"]),
)
@settings(max_examples=60)
def test_any_body_through_django_gets_a_coded_answer_never_a_500(
    owner: tuple[Client, str], body: bytes, route: str
) -> None:
    client, session_id = owner
    path = "/builder/" + route.replace("{id}", session_id)
    answer = client.post(path, body, content_type="application/json")
    assert answer.status_code != 500, answer.content
    if answer.status_code >= 400:
        _code(answer)  # a code with its fixed sentence


def test_the_tenant_comes_from_the_resolver_the_settings_name() -> None:
    client = signed_in(user_with("all"))
    session_id = open_session(client, **{"X-Tenant": "acme"})
    assert (
        client.get(f"/builder/sessions/{session_id}", headers={"X-Tenant": "acme"}).status_code
        == 200
    )
    other = client.get(f"/builder/sessions/{session_id}", headers={"X-Tenant": "globex"})
    assert other.status_code == 404 and _code(other) == "not_found"
    assert client.get(f"/builder/sessions/{session_id}").json()["session"]["tenant"] == "acme"


@pytest.mark.usefixtures("rebuilt")
def test_without_a_tenant_resolver_every_request_is_the_one_default_tenant() -> None:
    with override_settings(CHARLOTTE_TENANT=None):
        client = signed_in(user_with("all"))
        session_id = open_session(client, **{"X-Tenant": "globex"})  # the header means nothing now
        status = client.get(f"/builder/sessions/{session_id}").json()["session"]
        assert status["tenant"] == DEFAULT_TENANT


#: One request per ability, with what it needs (None: the session's id goes in).
_ASKS: dict[str, tuple[str, str, dict[str, Any] | None]] = {
    "open": ("POST", "/builder/sessions", {"page": "home", "brief": BRIEF}),
    "view": ("GET", "/builder/sessions/{id}/draft", None),
    "send": ("POST", "/builder/sessions/{id}/turns", {"message": "Build it"}),
    "stop": ("POST", "/builder/sessions/{id}/stop", None),
    "edit": ("POST", "/builder/sessions/{id}/edits", {"basedOn": 0, "ops": []}),
    "approve": ("POST", "/builder/sessions/{id}/change-set/approve", None),
    "publish": ("POST", "/builder/sessions/{id}/publish", {}),
}


#: Every ability but ``read_published``, which needs no permission (``tests/django_project/test_published.py``).
PERMITTED = tuple(ability for ability in ABILITIES if ability != "read_published")


@pytest.mark.parametrize("ability", PERMITTED)
def test_each_ability_is_its_django_permission(ability: str) -> None:
    owner = signed_in(user_with("all"))
    session_id = open_session(owner)
    method, template, body = _ASKS[ability]
    path = template.replace("{id}", session_id)

    def ask(client: Client) -> Any:
        if method == "GET":
            return client.get(path)
        return post(client, path, body)

    others = [a for a in PERMITTED if a != ability]
    without = ask(signed_in(user_with(*others)))
    assert without.status_code == 403 and _code(without) == "forbidden", without.content
    holder = user_with(ability)
    assert holder.has_perm(permission_of(ability))
    allowed = ask(signed_in(holder))
    assert allowed.status_code != 403, allowed.content  # a 409/422 on the session's state is fine
    superuser = User.objects.create_superuser(f"root-{ability}", password="x")
    assert ask(signed_in(superuser)).status_code != 403


def test_the_permissions_live_in_djangos_tables_with_no_model_table() -> None:
    stored = set(
        Permission.objects.filter(content_type__app_label="charlotte").values_list(
            "codename", flat=True
        )
    )
    assert stored == {codename for codename, _ in PERMISSIONS.values()}
    assert set(PERMISSIONS) == set(PERMITTED)
    from django.db import connection

    assert not [t for t in connection.introspection.table_names() if t.startswith("charlotte_")]


def test_the_app_passes_djangos_checks_and_wants_no_migration() -> None:
    from django.apps import apps
    from django.core import checks

    assert checks.run_checks(app_configs=[apps.get_app_config("charlotte")]) == []
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # SystemExit(1) on changes
    assert "No changes detected" in out.getvalue()


def test_a_withdrawn_permission_counts_at_the_next_request_of_the_same_user_object() -> None:
    user = user_with("all")
    client = signed_in(user)
    session_id = open_session(client)
    charlotte = get_charlotte()
    handle = charlotte.find(session_id, "acme", user=user)
    assert handle is not None and handle.status()["id"] == session_id
    user.user_permissions.remove(
        Permission.objects.get(content_type__app_label="charlotte", codename="view_session")
    )
    with pytest.raises(Refused) as refused:
        handle.status()  # the same user object: Django's cached permissions are not trusted
    assert refused.value.code == "forbidden"


@pytest.mark.usefixtures("rebuilt")
def test_an_authorizer_the_settings_name_replaces_the_permissions() -> None:
    with override_settings(CHARLOTTE_AUTHORIZER="tests.django_project.host.staff_only"):
        nobody = signed_in(user_with())
        refused = post(nobody, "/builder/sessions", {"page": "home", "brief": BRIEF})
        assert refused.status_code == 403
        staff = User.objects.create_user("staff-member", password="x", is_staff=True)
        assert (
            post(
                signed_in(staff), "/builder/sessions", {"page": "home", "brief": BRIEF}
            ).status_code
            == 201
        )


@pytest.mark.usefixtures("rebuilt")
def test_a_factory_the_settings_name_builds_the_instance_with_the_hosts_hooks() -> None:
    with override_settings(CHARLOTTE_FACTORY="tests.django_project.host.bakery_charlotte"):
        charlotte = get_charlotte()
        assert charlotte.assets.exists("storefront")
        # The settings' user, tenant and permission hooks are installed on it all the same.
        assert (
            post(Client(), "/builder/sessions", {"page": "home", "brief": BRIEF}).status_code == 401
        )
        assert (
            post(
                signed_in(user_with()), "/builder/sessions", {"page": "p", "brief": BRIEF}
            ).status_code
            == 403
        )


@pytest.mark.usefixtures("rebuilt")
def test_a_turn_sent_while_the_broker_is_down_is_503_queue_unavailable() -> None:
    with refusing_broker() as broker, override_settings(
        CHARLOTTE={**django_settings.CHARLOTTE, "queue": "celery", "broker_url": broker}
    ):
        client = signed_in(user_with("all"))
        session_id = open_session(client)
        sent = post(client, f"/builder/sessions/{session_id}/turns", {"message": "Build it"})
        assert sent.status_code == 503, sent.content
        assert sent.json() == error_body("queue_unavailable")
        status = client.get(f"/builder/sessions/{session_id}").json()["session"]["status"]
        assert status == "idle"


@pytest.mark.usefixtures("rebuilt")
@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("CHARLOTTE", {"no_such_field": 1}, "no_such_field"),
        ("CHARLOTTE", {"queue": "carrier-pigeon"}, "queue must be one of"),
        ("CHARLOTTE_TENANT", "tests.django_project.host.missing", "cannot import"),
        (
            "CHARLOTTE_FACTORY",
            "tests.django_project.host.not_a_charlotte",
            "must return a Charlotte",
        ),
    ],
)
def test_wrong_settings_are_improperly_configured_naming_what(
    name: str, value: Any, says: str
) -> None:
    with override_settings(**{name: value}), pytest.raises(ImproperlyConfigured, match=says):
        get_charlotte()


def test_import_charlotte_does_not_import_django() -> None:
    code = "import sys, charlotte, charlotte.contrib; print('django' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "False"


def test_the_urlconf_imports_before_django_is_configured() -> None:
    # tests/test_public_api.py resolves the dotted names the docs use, Django or not.
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = "import charlotte.contrib.django.urls as u; print(len(u.urlpatterns))"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert found.returncode == 0, found.stderr


def _session_count(charlotte: Any) -> int:
    import sqlalchemy as sa

    with charlotte.engine.connect() as conn:
        return int(conn.execute(sa.text("SELECT count(*) FROM charlotte_sessions")).scalar_one())
