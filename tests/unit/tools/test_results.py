"""Result helpers: coded failures with our own fields, never an exception's text."""

from __future__ import annotations

import doctest

import pytest

import charlotte.tools.binding
import charlotte.tools.results
from charlotte.errors import MESSAGES, PageSessionError, Refused
from charlotte.tools import ToolBinding, failure, is_error, success
from charlotte.tools.results import error_result


def test_success_and_failure_shapes() -> None:
    assert success(3, applied=2) == {"revision": 3, "applied": 2}
    assert not is_error(success(3))
    result = failure("checks_failing", 4, findings=[])
    assert result == {
        "isError": True,
        "revision": 4,
        "error": {"code": "checks_failing", "message": MESSAGES["checks_failing"], "findings": []},
    }
    assert is_error(result)


def test_a_code_without_a_sentence_is_a_bug() -> None:
    with pytest.raises(KeyError):
        failure("made_up", 1)


def test_page_session_error_keeps_index_and_detail() -> None:
    result = error_result(PageSessionError("invalid_style", at=3, detail="style.base.color: must be a string"), 9)
    assert result["revision"] == 9
    assert result["error"] == {
        "code": "invalid_style",
        "message": MESSAGES["invalid_style"],
        "at": 3,
        "detail": "style.base.color: must be a string",
    }


def test_a_revision_in_the_detail_is_the_current_one() -> None:
    result = error_result(PageSessionError("stale_revision", detail={"revision": 12}), 9)
    assert result["revision"] == 12 and result["error"]["detail"] == {"revision": 12}
    assert "at" not in result["error"]


def test_refused_moves_its_op_index_beside_the_detail() -> None:
    result = error_result(Refused("unsafe_link", detail={"at": 2, "field": "patch.href"}), 5)
    assert result["error"] == {
        "code": "unsafe_link",
        "message": MESSAGES["unsafe_link"],
        "at": 2,
        "detail": {"field": "patch.href"},
    }
    bare = error_result(Refused("forbidden"), 5)["error"]
    assert bare == {"code": "forbidden", "message": MESSAGES["forbidden"]}
    only_at = error_result(Refused("unsafe_link", detail={"at": 0}), 5)["error"]
    assert only_at["at"] == 0 and "detail" not in only_at


def test_invalid_state_is_never_a_result() -> None:
    with pytest.raises(ValueError):
        error_result(PageSessionError("invalid_state", detail="doc: malformed"), 1)


def test_binding_scope() -> None:
    assert ToolBinding.for_session("s1", "t", "p") == ToolBinding("s1", "t", "p", "charlotte:s1")
    assert ToolBinding("s1", "t", "p", "charlotte:s1").scoped
    for scope in ["charlotte:s2", "charlotte:s1 ", "s1", "", "CHARLOTTE:s1"]:
        assert not ToolBinding("s1", "t", "p", scope).scoped
    assert not ToolBinding("", "t", "p", "charlotte:").scoped
    with pytest.raises(AttributeError):
        ToolBinding("s1", "t", "p", "charlotte:s1").scope = "x"  # type: ignore[misc]


@pytest.mark.parametrize("module", [charlotte.tools.results, charlotte.tools.binding])
def test_docstring_examples_hold(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
