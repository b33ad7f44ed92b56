"""charlotte.errors: every exception in one module, one code → message table, one ``code_of``."""

from __future__ import annotations

import ast
import builtins
import json
import pickle
import re
from importlib import resources
from pathlib import Path

import pytest

import charlotte
from charlotte import errors
from charlotte.errors import (
    MESSAGES,
    CharlotteError,
    InvalidArguments,
    InvalidSettings,
    ModelCallFailed,
    ModelKeyMissing,
    ModelUnavailable,
    PageSessionError,
    QueueUnavailable,
    Refused,
    ReplayConflict,
    StopRequested,
    StorageError,
    UnknownModel,
    UnsupportedSchema,
    code_of,
)

SRC = Path(charlotte.__file__).resolve().parent
DOCS = SRC.parents[1] / "docs" / "errors.md"
ONE_CODE = (
    InvalidArguments, UnknownModel, ModelUnavailable, ModelKeyMissing, QueueUnavailable, InvalidSettings,
)  # fmt: skip


def _code_pattern() -> re.Pattern[str]:
    """The pattern the event schema gives every ``run.failed`` and ``tool.result`` code."""
    schema = json.loads(resources.files("charlotte").joinpath("schema/events.v1.json").read_text("utf-8"))
    patterns = set(re.findall(r'"code": \{[^}]*"pattern": "([^"]+)"', json.dumps(schema)))
    assert len(patterns) == 1, patterns
    return re.compile(patterns.pop())


# -- the table ---------------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_code_has_a_fixed_sentence_and_fits_the_event_schema(code: str) -> None:
    message = MESSAGES[code]
    assert message[:1].isupper() and message.endswith(".")
    # Fixed text: nothing is ever formatted into it.
    assert re.search(r"\{[\w.]*\}|%[sdr]", message) is None
    assert _code_pattern().fullmatch(code)


def test_every_coded_class_draws_its_codes_from_the_table() -> None:
    for cls in (PageSessionError, Refused, StorageError, ModelCallFailed):
        assert cls.CODES and set(MESSAGES) >= cls.CODES, cls
    # procrastinate-style: a one-code exception's sentence is its docstring's first line.
    for one in ONE_CODE:
        assert MESSAGES[one.code] == (one.__doc__ or "").strip().splitlines()[0], one
    assert set(MESSAGES) > (PageSessionError.CODES | Refused.CODES | StorageError.CODES)


def test_refused_carries_refusals_only() -> None:
    for code in ("internal", "run_failed", "worker_lost", "output_limit", "stale_revision", "invalid_arguments"):
        with pytest.raises(ValueError):
            Refused(code)


def test_the_table_is_read_only() -> None:
    with pytest.raises(TypeError):
        MESSAGES["new_code"] = "x."  # type: ignore[index]


def _documented() -> dict[str, str]:
    rows = re.findall(r"^\| `([a-z_]+)`(?: \(\d{3}\))? \| (.+?) \|$", DOCS.read_text(encoding="utf-8"), re.M)
    listed = [code for code, _ in rows]
    assert len(listed) == len(set(listed)), "a code is listed twice in docs/errors.md"
    return dict(rows)


def test_docs_list_every_code_with_its_sentence_and_no_other() -> None:
    assert _documented() == dict(MESSAGES)


# -- code_of: the one rule ----------------------------------------------------------------


def test_code_of_reads_a_listed_code_and_nothing_else() -> None:
    assert code_of(Refused("busy")) == "busy"
    assert code_of(PageSessionError("cycle", at=1)) == "cycle"
    assert code_of(StorageError("database_busy")) == "database_busy"
    assert code_of(QueueUnavailable()) == "queue_unavailable"
    assert code_of(UnknownModel("nope")) == "unknown_model"
    assert code_of(InvalidArguments("$.arguments", "object", "list")) == "invalid_arguments"
    # Not a charlotte error, or a code the table does not list: the default.
    assert code_of(CharlotteError("boom")) == "internal"
    assert code_of(KeyError("secret-host:5432")) == "internal"
    assert code_of(RuntimeError(), "run_failed") == "run_failed"
    foreign = OSError("refused")
    foreign.code = "stale_revision"  # type: ignore[attr-defined]
    assert code_of(foreign) == "internal"

    class Unlisted(CharlotteError):
        code = "Connection refused"

    assert code_of(Unlisted(), "run_failed") == "run_failed"
    assert Unlisted().message == MESSAGES["internal"]


def test_message_is_the_sentence_of_the_code() -> None:
    assert Refused("busy").message == MESSAGES["busy"]
    assert StorageError("conflict").message == MESSAGES["conflict"]
    assert PageSessionError("cycle").message == MESSAGES["cycle"]
    assert QueueUnavailable().message == MESSAGES["queue_unavailable"]


def _sources() -> dict[str, ast.Module]:
    return {
        path.relative_to(SRC).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SRC.rglob("*.py"))
    }


def test_nothing_else_reads_an_arbitrary_code_attribute() -> None:
    # ``getattr(error, "code", …)`` on anything was the second and third rule.
    for module, tree in _sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
                name = node.args[1] if len(node.args) > 1 else None
                assert not (isinstance(name, ast.Constant) and name.value == "code"), module


def test_every_exception_class_lives_in_charlotte_errors() -> None:
    defined = {name for name, value in vars(errors).items() if isinstance(value, type) and issubclass(value, BaseException)}

    def is_exception(base: ast.expr) -> bool:
        name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else ""
        value = getattr(builtins, name, None)
        return name in defined or (isinstance(value, type) and issubclass(value, BaseException))

    elsewhere = [
        f"{module}: {node.name}"
        for module, tree in _sources().items()
        if module != "errors.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and any(is_exception(base) for base in node.bases)
    ]
    assert elsewhere == []


def test_the_tree_in_the_docstring_names_every_class() -> None:
    doc = errors.__doc__ or ""
    for name in ("CharlotteError", "PageSessionError", "Refused", "StorageError", "InvalidArguments",
                 "ModelSpecError", "UnknownModel", "ModelUnavailable", "QueueUnavailable", "InvalidSettings",
                 "StopRequested", "ReplayConflict", "UnsupportedSchema"):  # fmt: skip
        assert re.search(rf"[├└]── {name}\b", doc), name
        assert issubclass(getattr(errors, name), BaseException)
    assert issubclass(InvalidArguments, ValueError) and issubclass(UnsupportedSchema, ValueError)
    assert issubclass(InvalidSettings, ValueError)
    assert not issubclass(StopRequested, CharlotteError) and not issubclass(ReplayConflict, CharlotteError)


# -- Refused --------------------------------------------------------------------------------


@pytest.mark.parametrize("reason", sorted(Refused.CODES))
def test_every_refusal_constructs(reason: str) -> None:
    refused = Refused(reason)
    assert refused.reason == refused.code == reason
    assert refused.message == MESSAGES[reason]
    assert refused.detail is None


@pytest.mark.parametrize("reason", ["", "nope", "CSS_FETCH", "css_fetch "])
def test_unknown_reason_is_a_bug(reason: str) -> None:
    with pytest.raises(ValueError):
        Refused(reason)


def test_is_a_charlotte_error() -> None:
    with pytest.raises(CharlotteError) as caught:
        raise Refused("busy")
    assert caught.value.code == "busy"
    assert str(caught.value) == "busy"


def test_repr_is_precise() -> None:
    assert repr(Refused("busy")) == "Refused('busy')"
    refused = Refused("unsafe_link", detail={"at": 2, "field": "patch.href"})
    assert repr(refused) == "Refused('unsafe_link', detail={'at': 2, 'field': 'patch.href'})"


def test_detail_is_copied_and_at_is_read_from_it() -> None:
    given: dict[str, str | int] = {"at": 3, "field": "patch.href"}
    refused = Refused("external_link", detail=given)
    given["at"] = 9
    assert refused.detail == {"at": 3, "field": "patch.href"}
    assert refused.at == 3
    assert Refused("busy").at is None
    assert Refused("css_fetch", detail={"node": "a"}).at is None


def test_model_errors_carry_their_code_and_no_key() -> None:
    missing = ModelKeyMissing("anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY")
    assert code_of(missing) == "model_key_missing" and missing.variable == "ANTHROPIC_API_KEY"
    assert str(missing) == "model_key_missing: 'anthropic:claude-sonnet-4-5' (set ANTHROPIC_API_KEY or Settings.model_api_key)"
    again = pickle.loads(pickle.dumps(missing))
    assert (type(again), again.spec, again.variable) == (ModelKeyMissing, missing.spec, missing.variable)
    for code in sorted(ModelCallFailed.CODES):
        failed = ModelCallFailed(code)
        assert code_of(failed, "run_failed") == code and failed.message == MESSAGES[code]
        assert pickle.loads(pickle.dumps(failed)).code == code
    with pytest.raises(ValueError):
        ModelCallFailed("Connection refused")


def test_round_trips_through_pickle() -> None:
    refused = Refused("css_fetch", detail={"node": "hero", "field": "style.md.background"})
    again = pickle.loads(pickle.dumps(refused))
    assert type(again) is Refused
    assert (again.reason, again.code, again.detail) == (
        "css_fetch",
        "css_fetch",
        {"node": "hero", "field": "style.md.background"},
    )
    plain = pickle.loads(pickle.dumps(Refused("busy")))
    assert plain.detail is None and plain.reason == "busy"


# -- StorageError -----------------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(StorageError.CODES))
def test_every_storage_code_has_a_fixed_message_and_is_the_whole_text(code: str) -> None:
    error = StorageError(code)

    assert isinstance(error, CharlotteError)
    assert (error.code, str(error), repr(error)) == (code, code, f"StorageError({code!r})")
    assert error.message == MESSAGES[code]


def test_a_storage_code_outside_the_table_becomes_storage_error() -> None:
    # Free text must never ride along as a "code".
    assert StorageError("relation charlotte_events does not exist").code == "storage_error"


def test_docstring_examples_hold() -> None:
    import doctest

    result = doctest.testmod(errors)
    assert result.attempted > 0 and result.failed == 0
