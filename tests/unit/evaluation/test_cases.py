"""The cases loader: the shipped suite loads; a bad file is one line naming the place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from charlotte.errors import MESSAGES, Refused
from charlotte.evaluation.cases import (
    MAX_FILE_BYTES,
    load_cases,
    load_default,
    load_file,
    parse_cases,
    problem_line,
)

GOOD: dict[str, Any] = {
    "id": "bakery",
    "brief": "Crumb is a bakery.",
    "facts": {"phone": "029 2018 0456"},
    "expect": [{"section": "contact"}],
    "follow_ups": [
        {"message": "Add an FAQ section.", "kind": "add section", "expect": [{"section": "faq"}]}
    ],
}


def _file(tmp_path: Path, content: object) -> Path:
    path = tmp_path / "cases.json"
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    return path


def test_the_shipped_suite_has_15_businesses_and_30_follow_ups_of_every_kind() -> None:
    cases = load_default()
    follow_ups = [f for c in cases for f in c.follow_ups]
    assert len(cases) >= 15 and len(follow_ups) >= 30
    assert all(len(c.follow_ups) >= 2 and c.brief and c.facts for c in cases)
    assert len({c.tone for c in cases}) >= 10
    kinds = {f.kind for f in follow_ups}
    assert {"set heading", "shorter", "longer", "add section", "remove section", "move",
            "change fact", "restyle", "unsupported"} <= kinds  # fmt: skip
    unsupported = [f for f in follow_ups if not f.supported]
    assert len(unsupported) >= 3
    assert all(
        {"unchanged": True} in f.expect and {"ready": False} in f.expect for f in unsupported
    )


def test_a_good_file_loads(tmp_path: Path) -> None:
    (case,) = load_cases(_file(tmp_path, {"version": 1, "cases": [GOOD]}))
    assert (
        case.id == "bakery"
        and case.follow_ups[0].supported
        and case.facts == {"phone": "029 2018 0456"}
    )


def _bad(**change: Any) -> dict[str, Any]:
    return {"version": 1, "cases": [{**GOOD, **change}]}


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (b"\xff\xfe", "the file is not UTF-8 text"),
        (b'{"version": 1,', "not JSON (line 1, column 15)"),
        (b"[" * 100_000, "nested too deeply"),
        ([], 'a cases file is an object {"version": 1, "cases": [...]}'),
        ({"version": 2, "cases": [GOOD]}, "version: must be 1"),
        ({"version": 1, "cases": []}, "cases: must be a list of 1 to 200 cases"),
        (_bad(id="Bakery!"), "cases[0]: id must be 1 to 40 lowercase letters, digits or '-'"),
        ({"version": 1, "cases": [GOOD, GOOD]}, "cases[1]: id 'bakery' is used twice"),
        (_bad(brief=""), "cases[0]: brief must be a non-empty string"),
        (_bad(facts={"phone": 5}), "cases[0]: facts must be an object of strings"),
        (_bad(colour="red"), "cases[0]: unknown field 'colour'"),
        (_bad(expect=[{"sectoin": "faq"}]), "cases[0].expect[0]: unknown predicate 'sectoin'"),
        (
            _bad(follow_ups=[{"message": "Make it pop."}]),
            "cases[0].follow_ups[0]: a supported follow-up needs at least one expectation",
        ),
        (
            _bad(follow_ups=[{"message": "x", "supported": "no", "expect": []}]),
            "cases[0].follow_ups[0]: supported must be true or false",
        ),
        (
            _bad(follow_ups=[{"message": "x", "expect": [{"order": ["faq"]}]}]),
            "cases[0].follow_ups[0].expect[0]: order must list 2+ sections",
        ),
    ],
)
def test_a_bad_file_is_one_coded_line(tmp_path: Path, content: object, line: str) -> None:
    with pytest.raises(Refused) as caught:
        load_cases(_file(tmp_path, content))
    assert problem_line(caught.value) == line and "\n" not in line
    assert (
        caught.value.code == "invalid_cases" and caught.value.message == MESSAGES["invalid_cases"]
    )


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"brief": "Crumb\x00 is a bakery."},
         "cases[0]: brief holds a NUL character or text that is not Unicode"),
        ({"brief": "Crumb \ud800 bakery."},
         "cases[0]: brief holds a NUL character or text that is not Unicode"),
        ({"facts": {"phone": "029\x00"}},
         "cases[0]: facts['phone'] holds a NUL character or text that is not Unicode"),
        ({"facts": {"ph\udc00ne": "029"}},
         "cases[0]: facts key 'ph\\udc00ne' holds a NUL character or text that is not Unicode"),
        ({"facts": {f"f{n}": "x" for n in range(101)}}, "cases[0]: facts hold more than 100 entries"),
        ({"facts": {"k" * 201: "x"}},
         f"cases[0]: facts key {'k' * 40!r} is not 1 to 200 characters"),
        ({"facts": {"": "x"}}, "cases[0]: facts key '' is not 1 to 200 characters"),
        ({"first_message": "Go\x00"},
         "cases[0]: first_message holds a NUL character or text that is not Unicode"),
        ({"follow_ups": [{"message": "Add \ud83d FAQ", "expect": [{"section": "faq"}]}]},
         "cases[0].follow_ups[0]: message holds a NUL character or text that is not Unicode"),
    ],
    ids=["nul-brief", "surrogate-brief", "nul-fact", "surrogate-key", "101-facts", "201-key",
         "empty-key", "nul-first-message", "surrogate-follow-up"],
)  # fmt: skip
def test_a_case_a_session_would_refuse_is_refused_naming_case_and_field(
    tmp_path: Path, change: dict[str, Any], line: str
) -> None:
    # The second case is the bad one's neighbour: the file is refused whole, before any case runs.
    content = {"version": 1, "cases": [{**GOOD, **change}, {**GOOD, "id": "other"}]}
    with pytest.raises(Refused) as caught:
        load_cases(_file(tmp_path, content))
    assert caught.value.code == "invalid_cases" and problem_line(caught.value) == line


def test_a_number_past_the_digit_limit_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(Refused) as caught:
        load_cases(_file(tmp_path, b'{"version": 1' + b"0" * 5000 + b"}"))
    assert problem_line(caught.value) == "a number has more digits than can be read"


def test_a_missing_or_huge_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(Refused) as missing:
        load_cases(tmp_path / "absent.json")
    assert problem_line(missing.value) == "the file cannot be read"
    with pytest.raises(Refused) as huge:
        load_cases(_file(tmp_path, b" " * (MAX_FILE_BYTES + 1)))
    assert problem_line(huge.value) == "the file is larger than 2 MB"


def test_parse_cases_is_the_same_rule_on_decoded_json() -> None:
    assert [c.id for c in parse_cases({"version": 1, "cases": [GOOD]})] == ["bakery"]


def test_a_files_host_names_the_origins_its_pages_may_link_to(tmp_path: Path) -> None:
    origins = ["https://www.facebook.com", "https://instagram.com", "http://localhost:8000"]
    read = load_file(_file(tmp_path, {"version": 1, "host": {"allowed_origins": origins}, "cases": [GOOD]}))
    assert read.allowed_origins == tuple(origins) and [c.id for c in read.cases] == ["bakery"]
    assert load_file(_file(tmp_path, {"version": 1, "cases": [GOOD]})).allowed_origins == ()


@pytest.mark.parametrize(
    ("host", "line"),
    [
        ([], 'host: host is an object {"allowed_origins": [...]}'),
        ({"origins": []}, 'host: host is an object {"allowed_origins": [...]}'),
        ({"allowed_origins": "https://a.example"}, "host: allowed_origins must be a list of at most 50 origins"),
        ({"allowed_origins": ["https://a.example"] * 51}, "host: allowed_origins must be a list of at most 50 origins"),
        ({"allowed_origins": ["https://a.example/page"]},
         "host.allowed_origins[0]: must be an origin: https://host, lower case, no path"),
        ({"allowed_origins": ["https://a.example", "javascript:alert(1)"]},
         "host.allowed_origins[1]: must be an origin: https://host, lower case, no path"),
        ({"allowed_origins": ["https://A.example"]},
         "host.allowed_origins[0]: must be an origin: https://host, lower case, no path"),
        ({"allowed_origins": [7]}, "host.allowed_origins[0]: must be an origin: https://host, lower case, no path"),
    ],
    ids=["list", "unknown-key", "string", "51", "path", "script", "upper-case", "number"],
)  # fmt: skip
def test_a_bad_host_is_refused_naming_the_place(tmp_path: Path, host: object, line: str) -> None:
    with pytest.raises(Refused) as caught:
        load_cases(_file(tmp_path, {"version": 1, "host": host, "cases": [GOOD]}))
    assert caught.value.code == "invalid_cases" and problem_line(caught.value) == line
