"""The evaluation case format and its loader.

A cases file is JSON: ``{"version": 1, "host": {…}, "cases": [case, …]}``; a case is::

    {"id": "pottery", "tone": "calm", "brief": "…", "facts": {"phone": "…"},
     "expect": [predicate, …],                       # on the first page
     "follow_ups": [{"message": "…", "kind": "shorter", "supported": true,
                     "expect": [predicate, …]}, …]}

``host`` (optional) is what the site the cases run on allows, as a host's
settings would: ``{"allowed_origins": ["https://www.facebook.com", …]}`` (the
origins its pages may link to; none when absent), added to the settings the
suite runs with.

Predicates are ``charlotte.evaluation.predicates``'s. A file that cannot be
run is ``Refused("invalid_cases")``, its detail the place (``at``) and the
problem (``problem_line`` prints them as one line), read before any case runs:
the file's shape, and every value a session or a turn would refuse (text with
a NUL or a lone surrogate, more facts than a session holds, a fact key past
its bound), so no case fails half-way for its own input.
``load_default()`` is the suite shipped in ``cases/default.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from charlotte.access import MAX_FACT_KEY, MAX_FACTS
from charlotte.errors import Refused
from charlotte.evaluation.predicates import problem_of
from charlotte.policy.text import is_person_text

__all__ = [
    "MAX_CASES",
    "MAX_FILE_BYTES",
    "Case",
    "CasesFile",
    "FollowUp",
    "load_cases",
    "load_default",
    "load_file",
    "parse_cases",
    "parse_file",
    "problem_line",
]

#: The largest cases file read, and the most cases and follow-ups it may hold.
MAX_FILE_BYTES: Final = 2 * 1024 * 1024
MAX_CASES: Final = 200
MAX_FOLLOW_UPS: Final = 20
MAX_PREDICATES: Final = 20
MAX_ORIGINS: Final = 50
_MAX_TEXT: Final = 10_000
_ID: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
_CASE_KEYS: Final = {"id", "tone", "brief", "facts", "expect", "follow_ups", "first_message"}
_FOLLOW_KEYS: Final = {"message", "kind", "supported", "expect"}
_FILE_KEYS: Final = {"version", "host", "cases"}
#: An origin a host allows: a scheme and a host (and a port), nothing after.
_ORIGIN: Final = re.compile(r"https?://[a-z0-9.-]{1,253}(?::[0-9]{1,5})?")
DEFAULT_FIRST: Final = "Build the page from the brief and the facts."


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A message sent after the first page, what kind of request it is and what it must achieve."""

    message: str
    kind: str
    supported: bool
    expect: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Case:
    """One business: its brief and facts, the first page's expectations, its follow-ups."""

    id: str
    tone: str
    brief: str
    facts: Mapping[str, str]
    expect: tuple[dict[str, Any], ...]
    follow_ups: tuple[FollowUp, ...]
    first_message: str = DEFAULT_FIRST


@dataclass(frozen=True, slots=True)
class CasesFile:
    """A cases file: its cases, and the origins the site they run on allows links to."""

    cases: tuple[Case, ...]
    allowed_origins: tuple[str, ...] = ()


def _invalid(where: str, problem: str) -> Refused:
    """``Refused("invalid_cases")`` for a problem at ``where`` (a place in the file, or "")."""
    return Refused("invalid_cases", detail={"at": where, "problem": problem})


def problem_line(error: Refused) -> str:
    """What an ``invalid_cases`` refusal says, in one line: ``cases[2].expect[0]: unknown …``."""
    detail = error.detail or {}
    where, problem = str(detail.get("at", "")), str(detail.get("problem", ""))
    return f"{where}: {problem}" if where else problem


def _text(value: object, where: str, field: str, *, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise _invalid(where, f"{field} must be a non-empty string")
    if len(value) > _MAX_TEXT:
        raise _invalid(where, f"{field} is longer than {_MAX_TEXT} characters")
    if not is_person_text(value):
        # A session or a turn refuses it (no database column can hold it).
        raise _invalid(where, f"{field} holds a NUL character or text that is not Unicode")
    return value


def _facts(value: object, where: str) -> dict[str, str]:
    """A case's facts, within the bounds a session is opened with (``charlotte.access``)."""
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise _invalid(where, "facts must be an object of strings")
    if len(value) > MAX_FACTS:
        raise _invalid(where, f"facts hold more than {MAX_FACTS} entries")
    for key, fact in value.items():
        if not 1 <= len(key) <= MAX_FACT_KEY:
            raise _invalid(where, f"facts key {key[:40]!r} is not 1 to {MAX_FACT_KEY} characters")
        _text(key, where, f"facts key {key[:40]!r}")
        _text(fact, where, f"facts[{key[:40]!r}]", empty=True)
    return dict(value)


def _expect(value: object, where: str) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list) or len(value) > MAX_PREDICATES:
        raise _invalid(where, f"expect must be a list of at most {MAX_PREDICATES} predicates")
    for n, predicate in enumerate(value):
        problem = problem_of(predicate)
        if problem is not None:
            raise _invalid(f"{where}.expect[{n}]", problem)
    return tuple(value)


def _follow_up(value: object, where: str) -> FollowUp:
    if not isinstance(value, dict):
        raise _invalid(where, "a follow-up must be an object")
    unknown = set(value) - _FOLLOW_KEYS
    if unknown:
        raise _invalid(where, f"unknown field {sorted(unknown)[0][:40]!r}")
    supported = value.get("supported", True)
    if not isinstance(supported, bool):
        raise _invalid(where, "supported must be true or false")
    expect = _expect(value.get("expect", []), where)
    if supported and not expect:
        raise _invalid(where, "a supported follow-up needs at least one expectation")
    return FollowUp(
        _text(value.get("message"), where, "message"),
        _text(value.get("kind", "other"), where, "kind"),
        supported,
        expect,
    )


def _case(value: object, where: str, seen: set[str]) -> Case:
    if not isinstance(value, dict):
        raise _invalid(where, "a case must be an object")
    unknown = set(value) - _CASE_KEYS
    if unknown:
        raise _invalid(where, f"unknown field {sorted(unknown)[0][:40]!r}")
    case_id = value.get("id")
    if not isinstance(case_id, str) or not _ID.fullmatch(case_id):
        raise _invalid(where, "id must be 1 to 40 lowercase letters, digits or '-'")
    if case_id in seen:
        raise _invalid(where, f"id {case_id!r} is used twice")
    seen.add(case_id)
    facts = _facts(value.get("facts", {}), where)
    follow_ups = value.get("follow_ups", [])
    if not isinstance(follow_ups, list) or len(follow_ups) > MAX_FOLLOW_UPS:
        raise _invalid(where, f"follow_ups must be a list of at most {MAX_FOLLOW_UPS}")
    return Case(
        case_id,
        _text(value.get("tone", ""), where, "tone", empty=True),
        _text(value.get("brief"), where, "brief"),
        facts,
        _expect(value.get("expect", []), where),
        tuple(_follow_up(f, f"{where}.follow_ups[{n}]") for n, f in enumerate(follow_ups)),
        _text(value.get("first_message", DEFAULT_FIRST), where, "first_message"),
    )


def parse_file(loaded: object) -> CasesFile:
    """A decoded cases file, or ``Refused("invalid_cases")`` at the first problem."""
    if not isinstance(loaded, dict) or set(loaded) - _FILE_KEYS:
        raise _invalid("", 'a cases file is an object {"version": 1, "cases": [...]}')
    if loaded.get("version") != 1:
        raise _invalid("version", "must be 1")
    cases = loaded.get("cases")
    if not isinstance(cases, list) or not 1 <= len(cases) <= MAX_CASES:
        raise _invalid("cases", f"must be a list of 1 to {MAX_CASES} cases")
    seen: set[str] = set()
    return CasesFile(
        tuple(_case(c, f"cases[{n}]", seen) for n, c in enumerate(cases)),
        _host(loaded.get("host", {})),
    )


def parse_cases(loaded: object) -> list[Case]:
    """The cases of a decoded cases file, or ``Refused("invalid_cases")`` at the first problem."""
    return list(parse_file(loaded).cases)


def _host(value: object) -> tuple[str, ...]:
    if not isinstance(value, dict) or set(value) - {"allowed_origins"}:
        raise _invalid("host", 'host is an object {"allowed_origins": [...]}')
    origins = value.get("allowed_origins", [])
    if not isinstance(origins, list) or len(origins) > MAX_ORIGINS:
        raise _invalid("host", f"allowed_origins must be a list of at most {MAX_ORIGINS} origins")
    for n, origin in enumerate(origins):
        if not isinstance(origin, str) or not _ORIGIN.fullmatch(origin):
            raise _invalid(f"host.allowed_origins[{n}]", "must be an origin: https://host, lower case, no path")
    return tuple(origins)


def _decode(raw: bytes) -> object:
    if len(raw) > MAX_FILE_BYTES:
        raise _invalid("", f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _invalid("", "the file is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise _invalid("", f"not JSON (line {e.lineno}, column {e.colno})") from None
    except ValueError:
        # Python reads no integer of more than 4,300 digits (sys.int_info).
        raise _invalid("", "a number has more digits than can be read") from None
    except RecursionError:
        raise _invalid("", "nested too deeply") from None


def load_file(path: Path) -> CasesFile:
    """The cases file at ``path`` (``Refused("invalid_cases")`` when it cannot be read or run)."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)
    except OSError:
        raise _invalid("", "the file cannot be read") from None
    return parse_file(_decode(raw))


def load_cases(path: Path) -> list[Case]:
    """The cases of the file at ``path`` (``Refused("invalid_cases")`` when it cannot be read or run)."""
    return list(load_file(path).cases)


def load_default() -> list[Case]:
    """The suite charlotte ships (``cases/default.json``)."""
    raw = resources.files("charlotte.evaluation").joinpath("cases/default.json").read_bytes()
    return parse_cases(_decode(raw))
