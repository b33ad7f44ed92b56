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
    │   └── QueueUnavailable       the turn queue (a Celery broker) did not take a turn
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

This module imports nothing else of charlotte: every layer (``page/`` too) may raise these.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

__all__ = [
    "MESSAGES",
    "CharlotteError",
    "Detail",
    "InvalidArguments",
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


# -- the codes, by where they come from ----------------------------------------------

#: "Not allowed": the codes a ``Refused`` carries.
_REFUSALS: Final = {
    "forbidden": "You are not allowed to do this.",
    "not_found": "The requested item does not exist.",
    "busy": "The session is busy with another turn; try again when it is idle.",
    "unsafe_link": "The link is not safe: use a relative path, #fragment, http(s), mailto or tel link.",
    "external_link": "The link points to a site that is not on this site's list of allowed origins.",
    "authored_asset": "Images must use an asset from the site's asset library, not an authored URL.",
    "asset_dimensions": "Image dimensions come from the asset library and cannot be set by hand.",
    "css_fetch": "Style values may not load or run anything (url(), image-set(), @import and similar).",
    "css_escape": "Style values may not contain backslash escapes.",
    "css_comment": "Style values may not contain comments.",
    "css_invalid": "Style values must be a single plain CSS value without ; { } < > or control characters.",
    "guide_mode_stale": "The page guide or mode changed; reload the session before continuing.",
    "body_too_large": "The request body is too large.",
    "invalid_json": "The request body is not valid JSON.",
    "invalid_request": "The request is not valid.",
    "invalid_cases": "The evaluation cases file is not valid.",
    "invalid_page_key": "Page keys must be 1 to 200 letters, digits, '.', '_' or '-', starting with a letter or digit.",
    "method_not_allowed": "That method is not allowed on this path; the Allow header lists the ones that are.",
    "no_open_change_set": "There is no open change set to approve or reject.",
    "revision_unknown": (
        "That revision no longer names a version of the page (a change set was resolved "
        "since); read the page again with cms_get and go on from the revision it gives."
    ),
    "publish_refused": "The page cannot be published in its current state.",
    "unauthorized": "You need to sign in to do this.",
    "unsupported_media_type": "The request must be sent as application/json.",
    "cross_site": "Requests sent from another site's page are not accepted here.",
    "checks_failing": "The page still has errors that must be fixed first.",
    "usage_limit": "The turn reached its usage limit.",
    "conflicted": "Later edits changed the same parts of the page; undo or change those first.",
    "already_undone": "That turn was already undone.",
    "empty_page": "An empty page cannot be published; add a section first.",
}

#: The codes of ``PageSessionError``: an op batch or a stored document that is not valid.
_PAGE: Final = {
    "stale_revision": "The page changed since the revision you based this on; read the changes and retry.",
    "history_truncated": "That revision is too old; read the whole page again.",
    "node_not_found": "No node with that id exists on the page.",
    "duplicate_id": "A node with that id already exists on the page.",
    "parent_not_found": "The parent node does not exist on the page.",
    "cycle": "That move would put a node inside itself.",
    "invalid_reorder": "The new order must list every top-level section exactly once.",
    "unknown_op": "That operation is not known.",
    "type_not_allowed": "That node type is not allowed.",
    "invalid_props": "The node properties are not valid for its type.",
    "invalid_style": "The style or constraint values are not valid.",
    "invalid_id": "Node ids must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit.",
    "limit_exceeded": "The change goes over a page limit (nodes, depth, operations or value length).",
    "invalid_state": "The stored page is damaged and cannot be edited.",
}

#: The codes of ``StorageError`` (``not_found`` is shared with ``Refused``: the same sentence fits).
_STORAGE: Final = {
    "conflict": "A row with the same key already exists.",
    "integrity": "A stored value broke a constraint of the schema.",
    "database_busy": "The database was busy or locked; retry the transaction.",
    "unavailable": "The database could not be reached.",
    "invalid_value": "A value could not be stored (not JSON-serialisable, or out of range).",
    "not_found": _REFUSALS["not_found"],
    "unknown_event_type": "The event type is not one of EventTypes.ALL.",
    "unsupported_database": "Only sqlite:/// and postgresql+psycopg:// URLs are supported.",
    "database_path": "The SQLite database path is a folder, or its folder cannot be created.",
    "driver_missing": "The PostgreSQL driver is not installed: pip install 'charlotte[postgres]'.",
    "storage_error": "The database refused the operation.",
}

#: How a turn can end ``failed`` besides an error's own code (``run.failed``), and the API's 500.
_OUTCOMES: Final = {
    "run_failed": "The turn could not be completed.",
    "output_limit": "The response was cut short because it reached the output limit.",
    "model_timeout": "The model sent nothing for too long; the turn was ended.",
    "turn_timeout": "The turn ran longer than it may; it was ended.",
    "worker_lost": "The worker running this turn stopped; the turn was not finished.",
    "queue_lost": "The turn waited in a queue that lost it and no queue would take it again.",
    "internal": "Something went wrong on our side; please try again.",
}

#: How the model's provider ended a turn's request (``ModelCallFailed``), after charlotte's retries.
_MODEL: Final = {
    "model_auth_failed": "The model's provider refused the API key; set a valid Settings.model_api_key.",
    "model_rate_limited": "The model's provider is rate limiting requests; try again in a little while.",
    "model_unavailable": "The model's provider could not be reached or set up; try again later.",
    "model_rejected": "The model's provider refused the request; check the model name and base URL.",
}

#: What a ``tool.result`` can say besides the codes above.
_TOOLS: Final = {
    "unknown_tool": "There is no tool with that name.",
    "tool_failed": "The tool call failed.",
    "tool_denied": "The tool call was not allowed to run.",
    "tool_interrupted": "The tool call was interrupted before it finished.",
}


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

    CODES: ClassVar[frozenset[str]] = frozenset(_PAGE)

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
            parts.append(f"({self.detail!r})" if not isinstance(self.detail, str) else f"({self.detail})")
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

    CODES: ClassVar[frozenset[str]] = frozenset(_REFUSALS)

    reason: str
    code: str
    detail: dict[str, str | int | list[str]] | None

    def __init__(self, reason: str, *, detail: Mapping[str, str | int | list[str]] | None = None) -> None:
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

    CODES: ClassVar[frozenset[str]] = frozenset(_STORAGE)

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

    CODES: ClassVar[frozenset[str]] = frozenset(_MODEL)

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
        for cls in (InvalidArguments, UnknownModel, ModelUnavailable, ModelKeyMissing, QueueUnavailable)
    }
    for group in (_REFUSALS, _PAGE, _STORAGE, _OUTCOMES, _MODEL, _TOOLS, single):
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
