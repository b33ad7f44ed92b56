"""Settings: defaults, range checks, and building from an environment mapping."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from charlotte.errors import InvalidSettings
from charlotte.settings import BROKER_TRANSPORTS, ENV_VARIABLES, QUEUES, Settings


def test_defaults() -> None:
    settings = Settings()
    assert settings.database_url == "sqlite:///./.charlotte/charlotte.db"
    assert settings.model == "offline"
    assert settings.queue == "thread"
    assert settings.max_continuations == 2
    assert settings.broker_url is None
    assert settings.database_schema is None
    assert settings.site_origin == "https://site.invalid"
    assert settings.allowed_origins == ()
    assert settings.trusted_origins == ()
    assert settings.brand_rules == ""
    assert (settings.request_limit, settings.tool_calls_limit) == (50, 200)
    assert settings.total_tokens_limit is None
    assert (settings.heartbeat_seconds, settings.heartbeat_timeout_seconds) == (5.0, 120.0)
    assert settings.thread_workers == 2
    assert settings.telemetry is False
    assert (settings.text_flush_chars, settings.text_flush_seconds) == (200, 0.25)


def test_frozen_and_slotted() -> None:
    settings = Settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.model = "openai:gpt-4o"  # type: ignore[misc]
    assert not hasattr(settings, "__dict__")
    assert hash(settings) == hash(Settings())


@pytest.mark.parametrize("queue", QUEUES)
def test_every_queue_is_accepted(queue: str) -> None:
    assert Settings(queue=queue).queue == queue


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("queue", "redis"),
        ("queue", ""),
        ("database_url", ""),
        ("model", "  "),
        ("broker_url", ""),
        ("site_origin", ""),
        ("allowed_origins", "https://a.example"),
        ("allowed_origins", ("https://a.example", "")),
        ("trusted_origins", "https://a.example"),
        ("trusted_origins", ("https://a.example/admin",)),
        ("trusted_origins", ("null",)),
        ("trusted_origins", ("*",)),
        ("trusted_origins", ("ftp://a.example",)),
        ("trusted_origins", ("https://user@a.example",)),
        ("trusted_origins", ("https://a.example?x",)),
        ("trusted_origins", (None,)),
        ("brand_rules", None),
        ("max_continuations", -1),
        ("max_continuations", True),
        ("max_continuations", 1.5),
        ("request_limit", 0),
        ("tool_calls_limit", 0),
        ("total_tokens_limit", 0),
        ("thread_workers", 0),
        ("text_flush_chars", 0),
        ("heartbeat_seconds", 0),
        ("heartbeat_seconds", float("nan")),
        ("heartbeat_timeout_seconds", 5.0),
        ("heartbeat_timeout_seconds", float("inf")),
        ("text_flush_seconds", -0.1),
        ("text_flush_seconds", "0.25"),
        ("telemetry", 1),
    ],
)
def test_out_of_range_values_are_refused(field: str, value: Any) -> None:
    with pytest.raises(InvalidSettings, match=field.split("_")[0]) as refused:
        Settings(**{field: value})
    # Coded, naming the field (a ValueError too, as before).
    assert refused.value.code == "invalid_settings" and refused.value.field == field


@pytest.mark.parametrize(
    "url", ["nope://x", "redis", "redis:/x", "://x", "redis://a;nope://b", "1redis://x"]
)
def test_a_broker_url_naming_no_transport_is_refused_coded(url: str) -> None:
    with pytest.raises(InvalidSettings) as refused:
        Settings(queue="celery", broker_url=url)
    assert refused.value.code == "invalid_settings" and refused.value.field == "broker_url"
    # The rule, never the URL (one may carry a password).
    assert str(refused.value).startswith("broker_url must be a URL of a transport Celery knows")
    assert "nope" not in str(refused.value)


def test_a_broker_url_of_every_kombu_transport_is_accepted() -> None:
    from kombu.transport import TRANSPORT_ALIASES

    assert set(BROKER_TRANSPORTS) == set(TRANSPORT_ALIASES)
    for transport in TRANSPORT_ALIASES:
        assert Settings(queue="celery", broker_url=f"{transport}://host/0").broker_url
    assert Settings(broker_url="sqla+postgresql://u@db/c;redis://r:6379/0").broker_url


def test_queue_error_names_the_choices() -> None:
    with pytest.raises(ValueError, match="inline, thread, celery"):
        Settings(queue="rq")


def test_edges_are_accepted() -> None:
    settings = Settings(
        max_continuations=0,
        total_tokens_limit=1,
        text_flush_seconds=0,
        heartbeat_seconds=1,
        heartbeat_timeout_seconds=1.5,
        allowed_origins=["https://maps.example.com"],  # type: ignore[arg-type]
    )
    assert settings.allowed_origins == ("https://maps.example.com",)


def test_trusted_origins_are_kept_as_browsers_spell_them() -> None:
    settings = Settings(trusted_origins=["https://Admin.Example.com:443", "http://127.0.0.1:8000/"])  # type: ignore[arg-type]
    assert settings.trusted_origins == ("https://admin.example.com", "http://127.0.0.1:8000")


def test_from_env_reads_the_five_variables() -> None:
    environ = {
        "CHARLOTTE_DATABASE_URL": "postgresql+psycopg://u@db/charlotte",
        "CHARLOTTE_DATABASE_SCHEMA": "builder",
        "CHARLOTTE_MODEL": "anthropic:claude-x",
        "CHARLOTTE_QUEUE": "celery",
        "CHARLOTTE_BROKER_URL": "redis://127.0.0.1:6379/0",
        "CHARLOTTE_TELEMETRY": "1",  # not one of ours: ignored
        "PATH": "/usr/bin",
    }
    settings = Settings.from_env(environ)
    assert settings == Settings(
        database_url="postgresql+psycopg://u@db/charlotte",
        database_schema="builder",
        model="anthropic:claude-x",
        queue="celery",
        broker_url="redis://127.0.0.1:6379/0",
    )
    assert set(ENV_VARIABLES) == {
        "CHARLOTTE_DATABASE_URL",
        "CHARLOTTE_DATABASE_SCHEMA",
        "CHARLOTTE_MODEL",
        "CHARLOTTE_MODEL_BASE_URL",
        "CHARLOTTE_QUEUE",
        "CHARLOTTE_BROKER_URL",
    }


def test_the_model_settings_are_checked_and_the_key_never_shown() -> None:
    settings = Settings(model="openai:gpt-4o", model_base_url="http://127.0.0.1:9/v1", model_api_key="sk-secret")
    assert "sk-secret" not in repr(settings) and "http://127.0.0.1:9/v1" in repr(settings)
    assert Settings.from_env({"CHARLOTTE_MODEL_BASE_URL": "http://gw/v1"}).model_base_url == "http://gw/v1"
    for bad in ({"model_base_url": " "}, {"model_api_key": ""}, {"model_max_retries": -1},
                {"model_retry_seconds": float("nan")}, {"model_retry_max_seconds": -1.0}):  # fmt: skip
        with pytest.raises(ValueError):
            Settings(**bad)  # type: ignore[arg-type]


def test_from_env_keeps_defaults_for_unset_or_blank() -> None:
    assert Settings.from_env({}) == Settings()
    assert Settings.from_env({"CHARLOTTE_MODEL": " ", "CHARLOTTE_BROKER_URL": ""}) == Settings()


def test_from_env_overrides_win_and_bad_values_are_refused() -> None:
    settings = Settings.from_env({"CHARLOTTE_QUEUE": "celery"}, queue="inline", telemetry=True)
    assert (settings.queue, settings.telemetry) == ("inline", True)
    with pytest.raises(ValueError, match="queue"):
        Settings.from_env({"CHARLOTTE_QUEUE": "nope"})


@pytest.mark.parametrize("name", ["", "9lives", "a b", 'a"b', "a;b", "a-b", "x" * 64, "ünï", 5])
def test_a_database_schema_must_be_a_plain_name(name: object) -> None:
    with pytest.raises(ValueError, match="database_schema"):
        Settings(database_url="postgresql+psycopg://u@db/c", database_schema=name)  # type: ignore[arg-type]


def test_a_database_schema_needs_postgresql() -> None:
    with pytest.raises(ValueError, match="PostgreSQL"):
        Settings(database_url="sqlite:///x.db", database_schema="builder")
    for url in ("postgresql+psycopg://u@db/c", "postgresql://u@db/c", "postgres://u@db/c"):
        assert Settings(database_url=url, database_schema="Builder_2").database_schema == "Builder_2"
    assert Settings(database_url="postgresql://u@db/c", database_schema="x" * 63).database_schema == "x" * 63
