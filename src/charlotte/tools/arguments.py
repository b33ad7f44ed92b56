"""Tool arguments: decode, validate against the tool's schema, and say precisely what is wrong.

A problem becomes ``InvalidArguments(path, expected, got)``: ``path`` names the
field (``$.arguments.ops[2].node.type``), ``expected`` and ``got`` are short
words of ours (``"string"``, ``"integer 1..12"``, ``"missing"``). Nothing of a
validator's message and no value the model sent is repeated, except a field
name that is a plain word. A bare ``$.arguments`` is used only when no field
can be named (the arguments are not an object at all).

Valid arguments (the common case) are answered by a check compiled from the
same schemas (``_schema_check``, private to ``tools/``: ``ArgumentParser`` is
its one user); only arguments it rejects go through jsonschema, which names
the problem. jsonschema alone is the plain path the tests compare it against.

``cms_apply`` ops are checked in two steps: the arguments with each op reduced
to "an object with a known ``t``", then each op against its own schema (chosen
by ``t``), so a path always points inside the op rather than at a union of all
thirteen op shapes.

>>> parser = ArgumentParser(NodeTypes.allowed())
>>> parser.parse("cms_get", '{"depth": 20}')
Traceback (most recent call last):
...
charlotte.errors.InvalidArguments: $.arguments.depth: expected integer 1..12, got 20
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from charlotte.errors import InvalidArguments
from charlotte.page.node_types import NodeTypes
from charlotte.policy.text import lone_surrogate_path
from charlotte.tools._schema_check import Check, compile_schema
from charlotte.tools.op_schemas import OP_NAMES, Schema, op_defs
from charlotte.tools.schemas import tool_definitions

if TYPE_CHECKING:
    from jsonschema import ValidationError

ROOT: Final = "$.arguments"
#: Longest argument text decoded (far above anything a valid call needs).
MAX_ARGUMENT_TEXT: Final = 2_000_000

_PLAIN_KEY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]{0,63}")

@cache
def _validator_class() -> Any:
    """jsonschema's 2020-12 validator, where only an ``int`` is an integer.

    JSON has one number type; a float such as 1.0 is no integer to
    PageSession, so it is none to the schemas either. jsonschema is imported
    here, on the first call that fails the compiled check, not at
    ``import charlotte``.
    """
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _checker, value: type(value) is int)
    return validators.extend(Draft202012Validator, type_checker=checker)  # type: ignore[no-untyped-call]


class _Validator:
    """One schema's jsonschema validator, built when it is first asked."""

    __slots__ = ("_built", "_schema")

    def __init__(self, schema: Schema) -> None:
        self._schema = schema
        self._built: Any = None

    def _validator(self) -> Any:
        if self._built is None:
            self._built = _validator_class()(self._schema)
        return self._built

    def iter_errors(self, instance: object) -> Iterator[ValidationError]:
        errors: Iterator[ValidationError] = self._validator().iter_errors(instance)
        return errors

    def is_valid(self, instance: object) -> bool:
        return bool(self._validator().is_valid(instance))


def _inlined(schema: Any, defs: Mapping[str, Any], seen: tuple[str, ...]) -> Any:
    """``schema`` with every local ``#/$defs/<name>`` reference replaced by its target.

    A recursive definition keeps its ``$ref`` (with the ``$defs`` beside it),
    so inlining always ends.
    """
    if isinstance(schema, list):
        return [_inlined(item, defs, seen) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.rsplit("/", 1)[-1]
        if name in seen or name not in defs:
            return {**schema, "$defs": defs}
        target = _inlined(defs[name], defs, (*seen, name))
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        return {**target, **_inlined(rest, defs, seen)} if rest else target
    return {key: _inlined(value, defs, seen) for key, value in schema.items()}


class ArgumentParser:
    """Validates the arguments of every tool against the schemas built for ``types``."""

    __slots__ = ("_defs", "_op_checks", "_ops", "_tool_checks", "_tools")

    def __init__(self, types: NodeTypes) -> None:
        self._defs: Schema = op_defs(types)
        self._tools: dict[str, _Validator] = {}
        self._tool_checks: dict[str, Check] = {}
        for definition in tool_definitions(types):
            schema = definition.parameters_json_schema
            if definition.name == "cms_apply":
                schema = _dispatch_only(schema)
            self._tools[definition.name] = _Validator(schema)
            self._tool_checks[definition.name] = compile_schema(schema)
        # Each op's schema with its $refs inlined: the validator then never
        # goes through the reference registry, a large part of a cms_apply's
        # validation (docs/performance.md, "Figures by part", tools/arguments.py).
        op_schemas = {t: _inlined({"$ref": f"#/$defs/op_{t}"}, self._defs, ()) for t in OP_NAMES}
        self._ops = {t: _Validator(schema) for t, schema in op_schemas.items()}
        self._op_checks = {t: compile_schema(schema) for t, schema in op_schemas.items()}

    def parse(self, tool: str, raw: object) -> dict[str, Any]:
        """The arguments as a dict, or ``InvalidArguments`` for the most specific problem."""
        arguments = decode(raw)
        # The compiled check answers yes/no for a fraction of jsonschema's
        # cost; only a "no" asks jsonschema, which names the problem (and
        # stays the authority: no error from it means valid).
        if not self._tool_checks[tool](arguments):
            errors = list(self._tools[tool].iter_errors(arguments))
            if errors:
                raise self._problem(errors, ())
        if tool == "cms_apply":
            checks = self._op_checks
            for index, op in enumerate(arguments["ops"]):
                if checks[op["t"]](op):
                    continue
                errors = list(self._ops[op["t"]].iter_errors(op))
                if errors:
                    raise self._problem(errors, ("ops", index))
        # Text that is not Unicode could be neither stored nor sent back.
        where = lone_surrogate_path(arguments)
        if where is not None:
            raise InvalidArguments(_format(where), "Unicode text", "a lone surrogate")
        return arguments

    def _problem(self, errors: Iterable[ValidationError], prefix: tuple[str | int, ...]) -> InvalidArguments:
        # The deepest problem is the most specific; the first of equals wins
        # (the validator reports in schema order, so the result is stable).
        found = [self._explain(_specific(e), prefix) for e in errors]
        return max(found, key=lambda item: item[0])[1]

    def _explain(
        self, error: ValidationError, prefix: tuple[str | int, ...]
    ) -> tuple[int, InvalidArguments]:
        path: list[str | int] = [*prefix, *error.absolute_path]
        instance = error.instance
        schema = error.schema if isinstance(error.schema, dict) else {}
        kind = error.validator
        if kind == "additionalProperties" and isinstance(instance, dict):
            allowed = list(self._properties(schema))
            extra = next((k for k in instance if k not in allowed), None)
            if extra is not None:
                path.append(extra)
            expected = "one of the fields " + "|".join(allowed) if allowed else "no arguments"
            return len(path), InvalidArguments(_format(path), expected, "unknown field")
        if kind == "required" and isinstance(instance, dict):
            required: list[str] = list(schema.get("required", ()))
            missing = next((k for k in required if k not in instance), None)
            if missing is not None:
                path.append(missing)
            field = self._properties(schema).get(missing, {}) if missing else {}
            return len(path), InvalidArguments(_format(path), self._describe(field), "missing")
        expected, got = self._expected_got(kind, error.validator_value, schema, instance)
        return len(path), InvalidArguments(_format(path), expected, got)

    def _expected_got(
        self, kind: object, value: Any, schema: Mapping[str, Any], instance: object
    ) -> tuple[str, str]:
        if kind in ("minLength", "maxLength") and isinstance(instance, str):
            return self._describe(schema), f"string of {len(instance)} chars"
        if kind in ("minItems", "maxItems") and isinstance(instance, list):
            return self._describe(schema), f"array of {len(instance)} items"
        if kind in ("minProperties", "maxProperties") and isinstance(instance, dict):
            return f"object of at most {schema.get('maxProperties')} fields", f"object of {len(instance)} fields"
        if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            return self._describe(schema), _number(instance)
        if kind == "uniqueItems":
            return "items that are all different", "duplicate items"
        if kind == "pattern":
            return self._describe(schema), "string in another format"
        if kind in ("enum", "const"):
            options = value if kind == "enum" else [value]
            same_type = any(type_name(o) == type_name(instance) for o in options)
            got = f"{type_name(instance)} not in the list" if same_type else type_name(instance)
            return self._describe(schema), got
        return self._describe(schema), type_name(instance)

    def _properties(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """The ``properties`` of ``schema``, following a ``$ref`` beside ``required``."""
        if "properties" in schema:
            properties: Mapping[str, Any] = schema["properties"]
            return properties
        ref = schema.get("$ref")
        target = self._defs.get(ref.rsplit("/", 1)[-1]) if isinstance(ref, str) else None
        return self._properties(target) if isinstance(target, dict) else {}

    def _describe(self, schema: object) -> str:
        """A short description of what ``schema`` accepts."""
        if not isinstance(schema, dict):
            return "a valid value"
        ref = schema.get("$ref")
        if isinstance(ref, str) and "title" not in schema:
            return self._describe(self._defs.get(ref.rsplit("/", 1)[-1]))
        if "title" in schema:
            return str(schema["title"])
        if "enum" in schema:
            return "one of " + "|".join(_literal(v) for v in schema["enum"])
        if "const" in schema:
            return _literal(schema["const"])
        if "anyOf" in schema:
            return " or ".join(self._describe(alt) for alt in schema["anyOf"])
        kind = schema.get("type", "a valid value")
        if isinstance(kind, list):
            return " or ".join(str(k) for k in kind)
        return str(kind) + _bounds(schema)


def decode(raw: object) -> dict[str, Any]:
    """The arguments object: a dict as given, or JSON text of one; nothing (None, "") is ``{}``."""
    if raw is None:
        return {}
    if isinstance(raw, str):
        if not raw.strip():
            return {}
        if len(raw) > MAX_ARGUMENT_TEXT:
            raise InvalidArguments(ROOT, "JSON object", "text too long")
        try:
            raw = json.loads(raw, parse_constant=_refuse_constant)
        except (ValueError, RecursionError):
            raise InvalidArguments(ROOT, "JSON object", "text that is not JSON") from None
    if not isinstance(raw, dict):
        raise InvalidArguments(ROOT, "object", type_name(raw))
    return raw


def type_name(value: object) -> str:
    """The JSON type of ``value``, in JSON Schema's words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "unknown value"


def _refuse_constant(_name: str) -> Any:
    # NaN and Infinity are not JSON.
    raise ValueError("not JSON")


def _dispatch_only(schema: Schema) -> Schema:
    """``cms_apply``'s schema with each op reduced to "an object with a known ``t``"."""
    ops = dict(schema["properties"]["ops"])
    ops["items"] = {
        "type": "object",
        "properties": {"t": {"enum": list(OP_NAMES)}},
        "required": ["t"],
    }
    return {**schema, "properties": {**schema["properties"], "ops": ops}}


def _specific(error: ValidationError) -> ValidationError:
    """Inside an ``anyOf``, the problem of the one alternative the value's shape fits, if any.

    An alternative does not fit when the value itself has the wrong type or is
    not one of its values; when exactly one alternative fits, its deepest
    problem says more than "none of the alternatives matched".
    """
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return error
    by_alternative: dict[object, list[ValidationError]] = {}
    for sub in error.context:
        by_alternative.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [
        subs
        for subs in by_alternative.values()
        if not any(len(e.path) == 0 and e.validator in _MISFITS for e in subs)
    ]
    if len(fitting) != 1:
        return error
    return max((_specific(e) for e in fitting[0]), key=lambda e: len(e.absolute_path))


_MISFITS = frozenset({"type", "enum", "const"})


def _format(path: Sequence[str | int]) -> str:
    out = [ROOT]
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _PLAIN_KEY.fullmatch(part):
            out.append(f".{part}")
        else:
            out.append("[?]")  # a key that is no plain word is not repeated
    return "".join(out)


def _bounds(schema: Mapping[str, Any]) -> str:
    if "minLength" in schema or "maxLength" in schema:
        return f" of {schema.get('minLength', 0)}..{schema.get('maxLength', '')} chars"
    if "minItems" in schema or "maxItems" in schema:
        return f" of {schema.get('minItems', 0)}..{schema.get('maxItems', '')} items"
    if "minimum" in schema and "maximum" in schema:
        return f" {_number(schema['minimum'])}..{_number(schema['maximum'])}"
    if "minimum" in schema:
        return f" >= {_number(schema['minimum'])}"
    return ""


def _number(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return type_name(value)
    text = repr(value)
    return text if len(text) <= 24 else f"{value:.6g}"


def _literal(value: object) -> str:
    return "null" if value is None else str(value)
