"""``Settings``: the one object every part of charlotte takes its configuration from.

charlotte never reads process-global configuration. A host builds one
``Settings`` (or lets the CLI build it with ``Settings.from_env(os.environ)``)
and hands it to ``Charlotte(...)``.

>>> Settings(queue="inline", max_continuations=1).queue
'inline'
>>> Settings.from_env({"CHARLOTTE_MODEL": "openai:gpt-4o"}).model
'openai:gpt-4o'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from charlotte.errors import InvalidSettings
from charlotte.page.hrefs import serialised_origin
from charlotte.storage import open_engine

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = ["BROKER_TRANSPORTS", "ENV_VARIABLES", "QUEUES", "Settings"]

#: The turn queues a ``Settings.queue`` may name.
QUEUES: Final[tuple[str, ...]] = ("inline", "thread", "celery")

#: The transports a ``broker_url`` may name: Kombu's (Celery sends through it), so a URL
#: Celery could not use is refused when the settings are made, not in the first send.
#: ``sqla+postgresql://…`` names ``sqla``. ``tests/unit/test_settings.py`` pins it to Kombu's.
BROKER_TRANSPORTS: Final = frozenset({
    "SLMQ", "SQS", "amqp", "amqps", "azureservicebus", "azurestoragequeues", "confluentkafka",
    "consul", "etcd", "filesystem", "gcpubsub", "kafka", "librabbitmq", "memory", "mongodb",
    "pgmq", "pyamqp", "pyro", "qpid", "redis", "rediss", "sentinel", "slmq", "sqla",
    "sqlalchemy", "sqs", "zookeeper",
})  # fmt: skip

#: Environment variable → ``Settings`` field, as ``from_env`` reads them.
ENV_VARIABLES: Final[Mapping[str, str]] = {
    "CHARLOTTE_DATABASE_URL": "database_url",
    "CHARLOTTE_DATABASE_SCHEMA": "database_schema",
    "CHARLOTTE_MODEL": "model",
    "CHARLOTTE_MODEL_BASE_URL": "model_base_url",
    "CHARLOTTE_QUEUE": "queue",
    "CHARLOTTE_BROKER_URL": "broker_url",
}


@dataclass(frozen=True, slots=True)
class Settings:
    """charlotte's configuration; every field is checked when the object is made (``InvalidSettings``, a ``ValueError``)."""

    database_url: str = "sqlite:///./.charlotte/charlotte.db"
    #: PostgreSQL only: the schema charlotte's tables live in (``migrate`` creates it).
    database_schema: str | None = None
    model: str = "offline"
    #: Where ``openai:``, ``openai-responses:`` and ``anthropic:`` send requests (a proxy, a
    #: gateway, a test server); unset, the provider's client uses its own default and variable.
    model_base_url: str | None = None
    #: The provider's API key; unset, the provider's client reads its own variable
    #: (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``). Never shown in the settings' repr.
    model_api_key: str | None = dataclasses.field(default=None, repr=False)
    #: How often a request the provider refused for a while (429, 5xx, no connection) is sent again.
    model_max_retries: int = 2
    #: The first wait before a retry, doubled each time; a ``Retry-After`` is honoured up to the cap.
    model_retry_seconds: float = 0.5
    #: The longest wait before one retry, ``Retry-After`` included.
    model_retry_max_seconds: float = 8.0
    queue: str = "thread"
    max_continuations: int = 2
    broker_url: str | None = None
    site_origin: str = "https://site.invalid"
    allowed_origins: tuple[str, ...] = ()
    #: Other sites whose pages may send state-changing API requests (``https://admin.example.com``);
    #: see docs/security.md. Not ``allowed_origins``, which lists where page links may lead.
    trusted_origins: tuple[str, ...] = ()
    #: The ``Cache-Control`` of ``GET /pages/{page}/published`` (and ``.html``); the default asks
    #: every cache to revalidate with the ETag (see docs/hosting.md).
    published_cache_control: str = "no-cache"
    brand_rules: str = ""
    request_limit: int = 50
    tool_calls_limit: int = 200
    total_tokens_limit: int | None = None
    heartbeat_seconds: float = 5.0
    heartbeat_timeout_seconds: float = 120.0
    #: A model stream with no event for this long ends the turn ``model_timeout``.
    model_idle_timeout_seconds: float = 120.0
    #: A turn still running this long after its claim (continuations included) ends ``turn_timeout``.
    turn_timeout_seconds: float = 900.0
    thread_workers: int = 2
    telemetry: bool = False
    text_flush_chars: int = 200
    text_flush_seconds: float = 0.25
    #: Earlier turns a turn's model run is given at most (0: none); see docs/conversation.md.
    history_turns: int = 20
    #: Characters of serialised earlier messages a run is given at most; older turns go compact.
    history_chars: int = 60_000

    def open_engine(self) -> sa.Engine:
        """A new engine on ``database_url`` (in ``database_schema`` when set)."""
        return open_engine(self.database_url, schema=self.database_schema)

    def __post_init__(self) -> None:
        _text("database_url", self.database_url)
        if self.database_schema is not None:
            if not isinstance(self.database_schema, str) or not _SCHEMA_NAME.fullmatch(self.database_schema):
                raise InvalidSettings("database_schema", "must be a plain name: letters, digits and _, up to 63")
            if not self.database_url.startswith(("postgresql", "postgres:")):
                raise InvalidSettings("database_schema", "needs a PostgreSQL database_url")
        _text("model", self.model)
        if self.model_base_url is not None:
            _text("model_base_url", self.model_base_url)
        if self.model_api_key is not None:
            _text("model_api_key", self.model_api_key)
        _int("model_max_retries", self.model_max_retries, minimum=0)
        _seconds("model_retry_seconds", self.model_retry_seconds, positive=False)
        _seconds("model_retry_max_seconds", self.model_retry_max_seconds, positive=False)
        if self.queue not in QUEUES:
            raise InvalidSettings("queue", f"must be one of {', '.join(QUEUES)}")
        if self.broker_url is not None:
            _broker_url(self.broker_url)
        _text("site_origin", self.site_origin)
        # A list is accepted for convenience; stored as a tuple so the object stays hashable.
        object.__setattr__(self, "allowed_origins", _origins(self.allowed_origins))
        object.__setattr__(self, "trusted_origins", _trusted(self.trusted_origins))
        _header("published_cache_control", self.published_cache_control)
        if not isinstance(self.brand_rules, str):
            raise InvalidSettings("brand_rules", "must be a string")
        _int("max_continuations", self.max_continuations, minimum=0)
        _int("request_limit", self.request_limit, minimum=1)
        _int("tool_calls_limit", self.tool_calls_limit, minimum=1)
        if self.total_tokens_limit is not None:
            _int("total_tokens_limit", self.total_tokens_limit, minimum=1)
        _int("thread_workers", self.thread_workers, minimum=1)
        _int("text_flush_chars", self.text_flush_chars, minimum=1)
        _int("history_turns", self.history_turns, minimum=0)
        _int("history_chars", self.history_chars, minimum=0)
        _seconds("heartbeat_seconds", self.heartbeat_seconds, positive=True)
        _seconds("heartbeat_timeout_seconds", self.heartbeat_timeout_seconds, positive=True)
        _seconds("text_flush_seconds", self.text_flush_seconds, positive=False)
        _seconds("model_idle_timeout_seconds", self.model_idle_timeout_seconds, positive=True)
        _seconds("turn_timeout_seconds", self.turn_timeout_seconds, positive=True)
        # A worker beats every heartbeat_seconds; a timeout shorter than that
        # would make the sweeper fail healthy turns.
        if self.heartbeat_timeout_seconds <= self.heartbeat_seconds:
            raise InvalidSettings("heartbeat_timeout_seconds", "must be greater than heartbeat_seconds")
        if not isinstance(self.telemetry, bool):
            raise InvalidSettings("telemetry", "must be a bool")

    @classmethod
    def from_env(cls, environ: Mapping[str, str], **overrides: Any) -> Settings:
        """Settings from ``CHARLOTTE_DATABASE_URL``, ``_DATABASE_SCHEMA``, ``_MODEL``, ``_MODEL_BASE_URL``, ``_QUEUE`` and ``_BROKER_URL``.

        Unset or blank variables keep the defaults; ``overrides`` (field names)
        win over the environment. The library itself never reads ``os.environ``:
        the caller passes it.
        """
        values: dict[str, Any] = {}
        for variable, field in ENV_VARIABLES.items():
            value = environ.get(variable, "").strip()
            if value:
                values[field] = value
        values.update(overrides)
        return cls(**values)


# Unquoted-identifier shape: safe in a connection's search_path option as is.
_SCHEMA_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


def _text(name: str, value: object) -> None:
    if not isinstance(value, str) or not value.strip():
        raise InvalidSettings(name, "must be a non-empty string")


def _header(name: str, value: object) -> None:
    # A header value: printable ASCII on one line, so it can never start another header.
    _text(name, value)
    assert isinstance(value, str)
    if not all(" " <= char <= "~" for char in value):
        raise InvalidSettings(name, "must be printable ASCII on one line (an HTTP header value)")


# A broker URL's transport: the scheme, or its part before "+" (sqla+postgresql://).
_TRANSPORT: Final = re.compile(r"([A-Za-z][A-Za-z0-9]*)(?:\+[A-Za-z0-9+.-]*)?://")


def _broker_url(value: object) -> None:
    _text("broker_url", value)
    assert isinstance(value, str)
    # Celery takes several URLs separated by ";" (failover): each must name a transport.
    for url in value.split(";"):
        found = _TRANSPORT.match(url.strip())
        if found is None or found.group(1) not in BROKER_TRANSPORTS:
            raise InvalidSettings(
                "broker_url", "must be a URL of a transport Celery knows: redis://, amqp://, sqs://, …"
            )


def _int(name: str, value: object, *, minimum: int) -> None:
    # bool is an int subclass; True is not a count.
    if type(value) is not int or value < minimum:
        raise InvalidSettings(name, f"must be an integer >= {minimum}")


def _seconds(name: str, value: object, *, positive: bool) -> None:
    if type(value) not in (int, float):
        raise InvalidSettings(name, "must be a number of seconds")
    assert isinstance(value, int | float)
    if value != value or value == float("inf"):
        raise InvalidSettings(name, "must be finite")
    if value < 0 or (positive and value == 0):
        raise InvalidSettings(name, f"must be {'> 0' if positive else '>= 0'}")


def _trusted(value: object) -> tuple[str, ...]:
    """Each origin as a browser's ``Origin`` header spells it (lower case, no default port)."""
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise InvalidSettings("trusted_origins", "must be a sequence of origin strings")
    spelled: list[str] = []
    for origin in value:
        found = serialised_origin(origin)
        if found is None:
            raise InvalidSettings("trusted_origins", "items must be http(s) origins: scheme://host[:port], no path")
        spelled.append(found)
    return tuple(spelled)


def _origins(value: object) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise InvalidSettings("allowed_origins", "must be a sequence of origin strings")
    origins = tuple(value)
    for origin in origins:
        if not isinstance(origin, str) or not origin.strip():
            raise InvalidSettings("allowed_origins", "items must be non-empty strings")
    return origins
