"""A yes/no check of a value against the JSON Schema subset the tool schemas use, compiled once.

``compile_schema(schema)`` turns a Draft 2020-12 schema into a plain predicate
``(value) -> bool`` that is True exactly when ``jsonschema`` (with "integer"
meaning ``type(value) is int``, as ``arguments`` defines it) reports no error.
It never says *what* is wrong: on False the caller asks jsonschema, which
stays the authority for every error. Valid arguments are the common case, and
this check costs a small fraction of a full validation (the figures:
``docs/performance.md``, "Figures by part", ``tools/_schema_check.py``).

Private to ``tools/``: ``ArgumentParser`` (``arguments.py``) is its one user.
The plain path is jsonschema alone, and ``tests/unit/tools/test_schema_check.py``
compares the two on every tool and op schema (verdicts both ways, and the
errors ``parse`` reports).

>>> check = compile_schema({"type": "integer", "minimum": 1, "maximum": 12})
>>> check(3), check(3.0), check(True), check(13)
(True, False, False, False)

Supported keywords: ``$defs``, ``$ref`` (``#/$defs/<name>``, possibly
recursive, with siblings applied too), ``additionalProperties``, ``anyOf``,
``const``, ``enum``, ``items``, ``minItems``/``maxItems``,
``minLength``/``maxLength``, ``maxProperties``, ``minimum``/``maximum``,
``pattern``, ``properties``, ``required``, ``type``, ``uniqueItems``, and the
annotations ``title`` and ``description``. Any other keyword, or a keyword
with a value of an unexpected shape, raises ``UnsupportedSchema``: a schema
change can never silently weaken the check.

jsonschema's rules kept here: a bool is neither integer nor number; "number"
is any ``numbers.Number`` but bool; ``enum``, ``const`` and ``uniqueItems``
compare as jsonschema does (``True != 1``, ``1 == 1.0``, recursively inside
lists and objects); lengths count code points; the string, number, array and
object keywords only apply to instances of their type.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from numbers import Number
from typing import Any, Final

from charlotte.errors import UnsupportedSchema

#: A compiled schema: True iff the value is valid.
Check = Callable[[Any], bool]

#: Every keyword ``compile_schema`` understands.
KEYWORDS: Final = frozenset(
    {
        "$defs", "$ref", "additionalProperties", "anyOf", "const", "description", "enum",
        "items", "maxItems", "maxLength", "maxProperties", "maximum", "minItems", "minLength",
        "minimum", "pattern", "properties", "required", "title", "type", "uniqueItems",
    }
)  # fmt: skip

_DEFS_PREFIX = "#/$defs/"
_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})
# The keywords that apply only to instances of one type, by that type
# ("number" covers integers too).
_GROUP_KEYS: Mapping[str, tuple[str, ...]] = {
    "string": ("minLength", "maxLength", "pattern"),
    "number": ("minimum", "maximum"),
    "array": ("minItems", "maxItems", "items", "uniqueItems"),
    "object": ("properties", "required", "additionalProperties", "maxProperties"),
}
_GROUP_OF = {"string": "string", "integer": "number", "number": "number", "array": "array", "object": "object"}
_GROUP_CLASS: Mapping[str, type | None] = {"string": str, "number": None, "array": list, "object": dict}


def compile_schema(schema: Mapping[str, Any] | bool) -> Check:
    """The predicate for ``schema``; local ``$ref``s resolve against its top-level ``$defs``."""
    defs = schema.get("$defs", {}) if isinstance(schema, Mapping) else {}
    if not isinstance(defs, Mapping):
        raise UnsupportedSchema("$defs")
    compiler = _Compiler(defs)
    # Every definition is compiled, referred to or not, so an unsupported
    # keyword anywhere in the document raises here.
    for name in defs:
        compiler.ref(f"{_DEFS_PREFIX}{name}")
    return compiler.compile(schema, root=True)


def _always(_value: Any) -> bool:
    return True


def _never(_value: Any) -> bool:
    return False


def _is_number(value: Any) -> bool:
    kind = type(value)
    return kind is int or kind is float or (kind is not bool and isinstance(value, Number))


class _Compiler:
    """Compiles one schema document; each ``$defs`` entry is compiled once."""

    def __init__(self, defs: Mapping[str, Any]) -> None:
        self._defs = defs
        self._done: dict[str, Check] = {}
        self._busy: set[str] = set()
        # A definition reached again while being compiled (recursion) is
        # called through a cell, filled once its check exists.
        self._cells: dict[str, list[Check]] = {}

    def compile(self, schema: object, *, root: bool = False) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, Mapping):
            raise UnsupportedSchema("a schema must be an object or a boolean")
        unknown = sorted(set(schema) - KEYWORDS)
        if unknown:
            raise UnsupportedSchema(f"unsupported keyword {unknown[0]!r}")
        if "$defs" in schema and not root:
            # ``#/$defs/...`` points into the document's root only.
            raise UnsupportedSchema("$defs below the root")
        checks: list[Check] = []
        if "const" in schema:
            checks.append(_const(schema["const"]))
        if "enum" in schema:
            checks.append(_enum(schema["enum"]))
        checks.extend(self._typed(schema))
        if "$ref" in schema:
            checks.append(self.ref(schema["$ref"]))
        if "anyOf" in schema:
            checks.append(self._any_of(schema["anyOf"]))
        return _all(checks)

    def _typed(self, schema: Mapping[str, Any]) -> list[Check]:
        """The ``type`` keyword with the keywords of each type's instances folded in."""
        if "type" not in schema:
            # No type: each group applies only to instances of its type.
            return [
                _only_for(group, self._group(group, group, schema))
                for group, keys in _GROUP_KEYS.items()
                if any(k in schema for k in keys)
            ]
        names = schema["type"]
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not all(n in _TYPES for n in names):
            raise UnsupportedSchema("type")
        # The groups are disjoint, so "any listed type with its own keywords"
        # is the same as "any listed type, then each group that applies".
        return [_any([self._group(_GROUP_OF.get(n, n), n, schema) for n in dict.fromkeys(names)])]

    def _group(self, group: str, name: str, schema: Mapping[str, Any]) -> Check:
        """A check that ``value`` has type ``name`` and meets ``group``'s keywords."""
        if group == "object" and not _mentions(schema, group):
            return lambda value: isinstance(value, dict)
        if group == "array" and not _mentions(schema, group):
            return lambda value: isinstance(value, list)
        if group == "string":
            return _string(schema)
        if group == "number":
            return _number(schema, integer=name == "integer")
        if group == "array":
            return self._array(schema)
        if group == "object":
            return self._object(schema)
        return _is_null if name == "null" else _is_bool

    def _array(self, schema: Mapping[str, Any]) -> Check:
        low = _count(schema, "minItems") or 0
        high = _count(schema, "maxItems")
        item = self.compile(schema["items"]) if "items" in schema else None
        unique = schema.get("uniqueItems", False)
        if not isinstance(unique, bool):
            raise UnsupportedSchema("uniqueItems")

        def check(value: Any) -> bool:
            if not isinstance(value, list):
                return False
            size = len(value)
            if size < low or (high is not None and size > high):
                return False
            if item is not None and not all(map(item, value)):
                return False
            return not unique or _unique(value)

        return check

    def _object(self, schema: Mapping[str, Any]) -> Check:
        properties = schema.get("properties", {})
        if not isinstance(properties, Mapping):
            raise UnsupportedSchema("properties")
        checks = {name: self.compile(sub) for name, sub in properties.items()}
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            raise UnsupportedSchema("required")
        names = tuple(dict.fromkeys(required))
        # A field outside ``properties`` meets ``additionalProperties``
        # (absent: anything), so one lookup with a default covers both.
        other = self.compile(schema.get("additionalProperties", True))
        most = _count(schema, "maxProperties")
        lookup = checks.get

        def check(value: Any) -> bool:
            if not isinstance(value, dict):
                return False
            if most is not None and len(value) > most:
                return False
            for name in names:
                if name not in value:
                    return False
            # A plain loop: all() over a generator is slower (docs/performance.md).
            for key, item in value.items():  # noqa: SIM110
                if not lookup(key, other)(item):
                    return False
            return True

        return check

    def ref(self, ref: object) -> Check:
        """The check of the definition ``ref`` names, compiled once."""
        if not isinstance(ref, str) or not ref.startswith(_DEFS_PREFIX):
            raise UnsupportedSchema("$ref")
        name = ref[len(_DEFS_PREFIX) :]
        # JSON-pointer escapes and nested pointers are outside the subset.
        if not name or any(c in name for c in "/~%") or name not in self._defs:
            raise UnsupportedSchema("$ref")
        if name in self._done:
            return self._done[name]
        if name in self._busy:
            cell = self._cells.setdefault(name, [])
            return lambda value: cell[0](value)
        self._busy.add(name)
        check = self.compile(self._defs[name])
        self._busy.discard(name)
        self._done[name] = check
        self._cells.setdefault(name, []).append(check)
        return check

    def _any_of(self, alternatives: object) -> Check:
        if not isinstance(alternatives, list) or not alternatives:
            raise UnsupportedSchema("anyOf")
        return _any([self.compile(alt) for alt in alternatives])


def _mentions(schema: Mapping[str, Any], group: str) -> bool:
    return any(k in schema for k in _GROUP_KEYS[group])


def _only_for(group: str, check: Check) -> Check:
    """``check`` for instances of ``group``'s type; anything else passes."""
    cls = _GROUP_CLASS[group]
    if cls is None:
        return lambda value: not _is_number(value) or check(value)
    return lambda value: not isinstance(value, cls) or check(value)


def _count(schema: Mapping[str, Any], key: str) -> int | None:
    if key not in schema:
        return None
    value: int = schema[key]
    if type(value) is not int or value < 0:
        raise UnsupportedSchema(key)
    return value


def _bound(schema: Mapping[str, Any], key: str) -> int | float | None:
    if key not in schema:
        return None
    value: int | float = schema[key]
    if type(value) not in (int, float) or value != value:
        raise UnsupportedSchema(key)
    return value


def _string(schema: Mapping[str, Any]) -> Check:
    low = _count(schema, "minLength") or 0
    high = _count(schema, "maxLength")
    pattern = schema.get("pattern")
    if pattern is not None and not isinstance(pattern, str):
        raise UnsupportedSchema("pattern")
    # jsonschema uses re.search with the pattern as written.
    try:
        search = re.compile(pattern).search if pattern is not None else None
    except re.error:
        raise UnsupportedSchema("pattern") from None
    if high is None and search is None and low == 0:
        return lambda value: isinstance(value, str)
    top = high if high is not None else float("inf")
    if search is None:
        return lambda value: isinstance(value, str) and low <= len(value) <= top
    return lambda value: (
        isinstance(value, str) and low <= len(value) <= top and search(value) is not None
    )


def _number(schema: Mapping[str, Any], *, integer: bool) -> Check:
    low, high = _bound(schema, "minimum"), _bound(schema, "maximum")
    is_type: Check = (lambda value: type(value) is int) if integer else _is_number
    # jsonschema errs on ``value < minimum`` and ``value > maximum`` (and
    # compares nothing when a bound is absent); the same tests, not their
    # complements, keep NaN and exotic numbers answered alike.
    if low is not None and high is not None:
        if integer:
            return lambda value: type(value) is int and not (value < low or value > high)
        return lambda value: _is_number(value) and not (value < low or value > high)
    if low is not None:
        return lambda value: is_type(value) and not value < low
    if high is not None:
        return lambda value: is_type(value) and not value > high
    return is_type


def _is_null(value: Any) -> bool:
    return value is None


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _const(expected: Any) -> Check:
    if isinstance(expected, str):
        return lambda value: value == expected
    return lambda value: _equal(value, expected)


def _enum(options: object) -> Check:
    if not isinstance(options, list):
        raise UnsupportedSchema("enum")
    texts = frozenset(o for o in options if isinstance(o, str))
    others = [o for o in options if not isinstance(o, str)]
    if not others:
        return lambda value: isinstance(value, str) and value in texts

    def check(value: Any) -> bool:
        if isinstance(value, str):
            return value in texts
        return any(_equal(o, value) for o in others)

    return check


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda value: first(value) and second(value)
    return lambda value: all(c(value) for c in checks)


def _any(checks: list[Check]) -> Check:
    if not checks:
        return _never
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda value: first(value) or second(value)
    return lambda value: any(c(value) for c in checks)


# -- jsonschema's equality -------------------------------------------------------------

_TRUE: Final = object()
_FALSE: Final = object()


def _unbool(value: Any) -> Any:
    # True and 1 (False and 0) are different JSON values.
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    return value


def _equal(one: Any, two: Any) -> bool:
    """Equality as jsonschema's ``enum``, ``const`` and ``uniqueItems`` use it."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(k in two and _equal(v, two[k]) for k, v in one.items())
    return bool(_unbool(one) == _unbool(two))


def _unique(items: list[Any]) -> bool:
    """jsonschema's ``uniqueItems`` test, step for step (sorted neighbours, else every pair)."""
    try:
        ordered = sorted(_unbool(i) for i in items)
        for a, b in pairwise(ordered):
            if _equal(a, b):
                return False
    except (NotImplementedError, TypeError):
        seen: list[Any] = []
        for item in items:
            item = _unbool(item)
            if any(_equal(s, item) for s in seen):
                return False
            seen.append(item)
    return True
