"""Every exception of charlotte, the one code → message table, and ``code_of``.

::

    Exception
    ├── CharlotteError             root of everything charlotte raises on purpose:
    │   │                          a stable .code, its fixed sentence .message
    │   ├── PageSessionError       a coded page-document error (.code, .at, .detail),
    │   │                          raised by charlotte.page.session.PageSession
    │   ├── Refused                "not allowed": .code (= .reason) one of
    │   │                          Refused.CODES, optional .detail (our own data)
    │   ├── StorageError           a database problem, translated at the storage
    │   │                          boundary (driver errors never leak); StorageError.CODES
    │   ├── InvalidArguments       tool arguments that do not match the tool's schema
    │   │                          (.path, .expected, .got); also a ValueError
    │   ├── ModelSpecError         a model string that cannot become a model (.spec)
    │   │   ├── UnknownModel       it names no model charlotte can build
    │   │   ├── ModelUnavailable   its provider cannot be set up
    │   │   └── ModelKeyMissing    its provider has no API key (.variable names where to put one)
    │   ├── ModelCallFailed        the provider refused or failed a turn's request (.code one
    │   │                          of ModelCallFailed.CODES), translated in charlotte.runtime
    │   ├── QueueUnavailable       the turn queue (a Celery broker) did not take a turn
    │   └── InvalidSettings        a Settings field has a value charlotte cannot use
    │                              (.field, .rule); also a ValueError
    ├── StopRequested              inside the runner only: a tool call found the stop flag
    ├── ReplayConflict             inside the change sets only: an op of a set being
    │                              approved no longer applies (.code, .at)
    └── ValueError
        └── UnsupportedSchema      a schema handed to the tools' argument compiler uses
                                   a keyword it does not compile (a bug, not input)

``MESSAGES`` maps every code a host, a person or the model can see (API error
bodies, tool results, ``run.failed`` and ``tool.result`` events) to one fixed
sentence; ``docs/errors.md`` lists them all. An exception with one code has
that sentence as the first line of its docstring. ``code_of(error)`` is the
one rule that turns an error into a code: a charlotte error's ``code`` when
the table has it, else a default. An exception's text never becomes a code,
and a message shown to a person never comes from an exception's text.

The codes' sentences live in ``charlotte.codes``, grouped by where they come
from; this module imports nothing else of charlotte, so every layer
(``page/`` too) may raise these.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

from charlotte.codes import COMMAND, MODEL, OUTCOMES, PAGE, REFUSALS, STORAGE, TOOLS

__all__ = [
    "MESSAGES",
    "CharlotteError",
    "Detail",
    "InvalidArguments",
    "InvalidSettings",
    "ModelCallFailed",
    "ModelKeyMissing",
    "ModelSpecError",
    "ModelUnavailable",
    "PageSessionError",
    "QueueUnavailable",
    "Refused",
    "ReplayConflict",
    "StopRequested",
    "StorageError",
    "UnknownModel",
    "UnsupportedSchema",
    "code_of",
]


def _summary(cls: type) -> str:
    """The first line of a class's docstring: the fixed sentence of its one code."""
    return (cls.__doc__ or "").strip().splitlines()[0]


# -- the exceptions ---------------------------------------------------------------------


class CharlotteError(Exception):
    """Root of every exception charlotte raises on purpose."""

    code: str = "charlotte_error"

    @property
    def message(self) -> str:
        """The fixed sentence of this error's code (``MESSAGES[code_of(self)]``)."""
        return MESSAGES[code_of(self)]


#: What ``PageSessionError.detail`` may hold: a short fixed text (usually the
#: offending field, e.g. ``"style.base.padding"``), a small map of revisions
#: (``stale_revision``, ``history_truncated``), or nothing.
Detail = str | Mapping[str, int] | None

#: A value of ``Refused.detail``: a text, a number, node ids or codes, or findings (``quality_gate``).
RefusedDetail = str | int | list[str] | list[dict[str, str | None]]


class PageSessionError(CharlotteError):
    """A coded page-document error raised by ``PageSession``.

    ``code`` is one of ``CODES``. ``at`` is the index of the offending op in the
    batch (``None`` when the error is not about one op). ``detail`` is our own
    short text or data, never an exception's message, so callers may show it.
    ``invalid_state`` means the stored document itself is corrupt (callers
    rethrow it); every other code is the caller's mistake.

    >>> PageSessionError("invalid_props", at=2, detail="props.level")
    PageSessionError('invalid_props', at=2, detail='props.level')
    """

    CODES: ClassVar[frozenset[str]] = frozenset(PAGE)

    code: str
    at: int | None
    detail: Detail

    def __init__(self, code: str, at: int | None = None, detail: Detail = None) -> None:
        if code not in self.CODES:
            raise ValueError(f"unknown PageSessionError code {code!r}")
        # Positional args let the exception pickle and copy like a builtin one.
        super().__init__(code, at, detail)
        self.code = code
        self.at = at
        self.detail = detail

    def __str__(self) -> str:
        parts = [self.code]
        if self.at is not None:
            parts.append(f"at op {self.at}")
        if self.detail is not None:
            parts.append(
                f"({self.detail!r})" if not isinstance(self.detail, str) else f"({self.detail})"
            )
        return " ".join(parts)

    def __repr__(self) -> str:
        detail = dict(self.detail) if isinstance(self.detail, Mapping) else self.detail
        return f"{type(self).__name__}({self.code!r}, at={self.at!r}, detail={detail!r})"


class Refused(CharlotteError):
    """An action is not allowed; ``reason`` (= ``code``) is one of ``Refused.CODES``.

    ``detail`` is JSON-shaped data of our own (a node id, a field path, an op
    index), never the text of another exception.

    >>> Refused("css_fetch", detail={"node": "hero", "field": "style.base.background"})
    Refused('css_fetch', detail={'node': 'hero', 'field': 'style.base.background'})
    """

    CODES: ClassVar[frozenset[str]] = frozenset(REFUSALS)

    reason: str
    code: str
    detail: dict[str, RefusedDetail] | None

    def __init__(
        self, reason: str, *, detail: Mapping[str, RefusedDetail] | None = None
    ) -> None:
        # An unknown reason would reach a person without a sentence: a bug, not a refusal.
        if reason not in self.CODES:
            raise ValueError("Refused needs a reason listed in Refused.CODES")
        super().__init__(reason)
        self.reason = reason
        self.code = reason
        self.detail = dict(detail) if detail is not None else None

    @property
    def at(self) -> int | None:
        """The op index from ``detail["at"]`` when the refusal concerns one op."""
        at = self.detail.get("at") if self.detail else None
        return at if isinstance(at, int) else None

    def __repr__(self) -> str:
        if self.detail is None:
            return f"{type(self).__name__}({self.reason!r})"
        return f"{type(self).__name__}({self.reason!r}, detail={self.detail!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only ``detail`` is not in ``args``: rebuild from reason, restore the rest.
        return (type(self), (self.reason,), {"detail": self.detail})


class StorageError(CharlotteError):
    """A database problem with a stable ``code`` (one of ``StorageError.CODES``).

    Storage code raises it, and ``charlotte.storage._translate`` turns every
    SQLAlchemy and driver error into one (the original stays reachable as
    ``__cause__`` for debugging; its type and text never become ours).
    """

    CODES: ClassVar[frozenset[str]] = frozenset(STORAGE)

    code: str

    def __init__(self, code: str) -> None:
        if code not in self.CODES:
            code = "storage_error"
        super().__init__(code)
        self.code = code

    def __repr__(self) -> str:
        return f"StorageError({self.code!r})"


class InvalidArguments(CharlotteError, ValueError):
    """The tool arguments are not valid.

    ``path`` (``$.arguments…``), ``expected`` and ``got`` say how; a tool
    result carries them beside the code ``invalid_arguments``.
    """

    code = "invalid_arguments"

    def __init__(self, path: str, expected: str, got: str) -> None:
        super().__init__(path, expected, got)
        self.path = path
        self.expected = expected
        self.got = got

    def __str__(self) -> str:
        return f"{self.path}: expected {self.expected}, got {self.got}"

    def to_json(self) -> dict[str, str]:
        """``{"path", "expected", "got"}`` as an error result carries them."""
        return {"path": self.path, "expected": self.expected, "got": self.got}


class ModelSpecError(CharlotteError):
    """A model string that cannot become a model; ``spec`` is the string."""

    def __init__(self, spec: str) -> None:
        super().__init__(spec)
        self.spec = spec

    def __str__(self) -> str:
        return f"{self.code}: {self.spec!r}"


class UnknownModel(ModelSpecError):
    """The model setting names no model charlotte knows how to build."""

    code = "unknown_model"


class ModelUnavailable(ModelSpecError):
    """The model's provider could not be reached or set up; try again later."""

    code = "model_unavailable"


class ModelKeyMissing(ModelSpecError):
    """The model's provider has no API key: set OPENAI_API_KEY or ANTHROPIC_API_KEY, or Settings.model_api_key.

    ``variable`` names where one goes (``OPENAI_API_KEY``, read by the provider's
    client); ``Settings.model_api_key`` works for every provider.
    """

    code = "model_key_missing"

    def __init__(self, spec: str, variable: str) -> None:
        CharlotteError.__init__(self, spec, variable)
        self.spec = spec
        self.variable = variable

    def __str__(self) -> str:
        return f"{self.code}: {self.spec!r} (set {self.variable} or Settings.model_api_key)"


class ModelCallFailed(CharlotteError):
    """The model's provider refused or failed a request; ``code`` is one of ``ModelCallFailed.CODES``.

    Raised by the runtime in place of the model library's error (kept as
    ``__cause__``): ``model_auth_failed`` (401/403), ``model_rate_limited`` (429)
    and ``model_unavailable`` (5xx, no connection) after the retries,
    ``model_rejected`` (any other refusal: unknown model, bad request).
    """

    CODES: ClassVar[frozenset[str]] = frozenset(MODEL)

    code: str

    def __init__(self, code: str) -> None:
        if code not in self.CODES:
            raise ValueError("ModelCallFailed needs a code listed in ModelCallFailed.CODES")
        super().__init__(code)
        self.code = code

    def __repr__(self) -> str:
        return f"ModelCallFailed({self.code!r})"


class QueueUnavailable(CharlotteError):
    """The turn queue did not take the turn; try again."""

    code = "queue_unavailable"

    def __init__(self) -> None:
        super().__init__(self.code)


class InvalidSettings(CharlotteError, ValueError):
    """A setting has a value charlotte cannot use.

    ``field`` names the ``Settings`` field and ``rule`` says what it must be,
    in our own words; never the value (a URL may carry a password).
    ``str()`` is ``"<field> <rule>"``.

    >>> str(InvalidSettings("queue", "must be one of inline, thread, celery"))
    'queue must be one of inline, thread, celery'
    """

    code = "invalid_settings"

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(field, rule)
        self.field = field
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.field} {self.rule}"


class StopRequested(Exception):
    """A tool call found the turn's stop flag set (the runner ends the turn ``stopped``).

    Raised and caught inside ``charlotte.runtime.runner``; it never reaches a host.
    """


class ReplayConflict(Exception):
    """An op of a change set being approved no longer applies: its ``code`` and its index ``at``.

    Raised and caught inside the change sets; the set ends ``conflicted`` with
    that code, which is a ``PageSessionError`` or ``Refused`` code.
    """

    def __init__(self, code: str, at: int) -> None:
        super().__init__(code, at)
        self.code = code
        self.at = at


class UnsupportedSchema(ValueError):
    """The schema uses a keyword, or a keyword value, that ``compile_schema`` does not compile."""


# -- the table and the one rule ------------------------------------------------------------


def _table() -> Mapping[str, str]:
    table: dict[str, str] = {}
    single = {
        cls.code: _summary(cls)
        for cls in (
            InvalidArguments,
            UnknownModel,
            ModelUnavailable,
            ModelKeyMissing,
            QueueUnavailable,
            InvalidSettings,
        )
    }
    for group in (REFUSALS, PAGE, STORAGE, OUTCOMES, MODEL, TOOLS, COMMAND, single):
        for code, message in group.items():
            # One code, one sentence: a code listed twice must mean the same.
            if table.setdefault(code, message) != message:
                raise AssertionError(f"code {code!r} has two sentences")
    return MappingProxyType(table)


#: Every code → its fixed sentence (read-only). Documented in ``docs/errors.md``.
MESSAGES: Final[Mapping[str, str]] = _table()


def code_of(error: BaseException, default: str = "internal") -> str:
    """The stable code of ``error``: a charlotte error's ``code`` when ``MESSAGES`` has it, else ``default``.

    The one rule that turns an error into a code, for API bodies, tool
    results and ``run.failed``: whatever is not a charlotte error with a
    listed code (an exception from a library, a host, a bug) becomes
    ``default``, so no exception's text ever rides along as a code.

    >>> code_of(Refused("busy")), code_of(KeyError("secret")), code_of(KeyError(), "run_failed")
    ('busy', 'internal', 'run_failed')
    """
    if isinstance(error, CharlotteError) and error.code in MESSAGES:
        return error.code
    return default
