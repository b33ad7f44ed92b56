"""Hostile input through the real ``Api.handle``: unicode tricks, huge and deep values.

``tests/unit/http/test_api_fuzz.py`` throws random bytes and shapes at every
route; this suite aims at the values inside well-formed requests — node ids,
hrefs, props and style strings carrying RTL overrides, zero-width and
homoglyph characters, NUL, lone surrogates, CSS injection and huge or deeply
nested data — and checks that a refused request stored nothing: the draft
revision, the op history and the event log are exactly as before.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any, ClassVar, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.app_harness import AppHarness
from tests.support.soak import show

from charlotte.errors import MESSAGES
from charlotte.http.api import JSON_REQUEST, Response
from charlotte.http.bodies import MAX_DEPTH
from charlotte.page.session import PageSession
from charlotte.storage import read_connection
from charlotte.storage.tables import sessions as sessions_table

#: Every status an answer may have; a 500 is a defect.
CODED: Final = {200, 201, 202, 400, 401, 403, 404, 405, 409, 413, 422}

#: Characters that look harmless, hide, reorder or break things.
TRICKS: Final = [
    "\u202e", "\u202d", "\u2066", "\u200b", "\u200d", "\ufeff", "\u00ad", "\x00", "\ud800", "\udfff",
    "\u0430", "\u0435", "\u043e", "\u0440",  # Cyrillic a, ie, o, er: homoglyphs of Latin a e o p
    "\uff4a", "\u2044", "\u2215", "\u037e", "\u00a0", "\u2028", "\n", "\t", "\r", "\\", '"', "'", "<", ">", "&",
    "\U0001f600", "e\u0301", "\U000e0041",
]
SURROGATES: Final = ("\ud800", "\udfff")


def texts(tricks: list[str]) -> st.SearchStrategy[str]:
    """Short strings mixing ``tricks`` with plain characters."""
    plain = st.text(alphabet="abcxyz-_:/.#()%;", min_size=1, max_size=4)
    return st.lists(st.sampled_from(tricks) | plain, max_size=8).map("".join)


tricky_text = texts(TRICKS)
# Every trick, lone surrogates included, also in session openings, path ids and
# bindings (they are refused at the door: text that is not Unicode).
storable_text = tricky_text

HREFS: Final = [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "java\nscript:x",
    "\x00javascript:x", " javascript:x", "jav&#x61;script:x", "\uff4a\uff41\uff56\uff41script:x",
    "data:text/html;base64,PHNjcmlwdD4=", "vbscript:x", "//evil.example/x", "\\\\evil.example\\x",
    "https://evil.example/", "https://site.invalid\u202e/x", "https://xn--80ak6aa92e.com/",
    "https://s\u0456te.invalid/", "/ok", "#top", "mailto:a@b.c", "https://site.invalid/\x00",
]
hrefs = st.sampled_from(HREFS) | st.builds(lambda a, b: a + b, st.sampled_from(HREFS), tricky_text)

STYLES: Final = [
    "red;}</style><script>alert(1)</script>", "url(javascript:alert(1))", "url(https://evil.example/x.png)",
    "expression(alert(1))", "@import 'https://evil.example/x.css'", "\\75rl(x)", "u\\rl(x)",
    "red\x00", "1px solid red; background:url(x)", "var(--x)", "calc(1px + 2px)", "#fff", "12px",
    "\u202e10px", "-moz-binding:url(x)", "behavior:url(x.htc)", "</style>",
]
styles = st.sampled_from(STYLES) | tricky_text


def nested(depth: int) -> Any:
    """A list nested ``depth`` deep."""
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    return value


def values_of(text: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Hostile JSON values: tricky text, extreme numbers, deep nesting, huge strings."""
    return st.one_of(
    text,
    st.sampled_from([10**40, -(2**63), 2**64, 1e308, -0.0, True, None, {}, []]),
    st.integers(min_value=1, max_value=200).map(nested),
    st.sampled_from([MAX_DEPTH - 3, MAX_DEPTH + 1, 500]).map(nested),
    st.integers(min_value=1_000, max_value=200_000).map(lambda n: "x" * n),
    st.dictionaries(text, text, max_size=3),
    )


values = values_of(tricky_text)
storable_values = values_of(storable_text)
NAMES: Final = ["hero", "title", "", "x" * 300, "__proto__", "constructor"]
ids = tricky_text | st.sampled_from(NAMES) | values
storable_ids = storable_text | st.sampled_from(NAMES) | storable_values

node_types = st.sampled_from(["section", "heading", "text", "link", "button", "image", "richtext", "html", "x"])


@st.composite
def hostile_ops(draw: st.DrawFn) -> dict[str, Any]:
    """One op whose ids, hrefs, props or style strings are hostile."""
    kind = draw(st.sampled_from(["insert", "props", "style", "href", "meta", "move"]))
    target = draw(ids)
    if kind == "insert":
        node = {"id": target, "type": draw(node_types), "parent": draw(st.none() | ids)}
        node["props"] = draw(st.dictionaries(st.sampled_from(["content", "href", "src", "alt", "level", "html"]), values | hrefs, max_size=3))
        if draw(st.booleans()):
            node["style"] = {"base": draw(st.dictionaries(st.sampled_from(["color", "background", "width", "fontFamily", "x"]), styles, max_size=3))}
        return {"t": "insert_node", "node": node}
    if kind == "props":
        return {"t": "set_node_props", "id": draw(st.just("title") | ids), "patch": {"content": draw(values)}}
    if kind == "style":
        prop = draw(st.sampled_from(["color", "background", "backgroundImage", "fontFamily", "width", "content"]))
        return {"t": "set_style", "id": draw(st.just("hero") | ids), "breakpoint": draw(st.just("base") | tricky_text), "patch": {prop: draw(styles)}}
    if kind == "href":
        return {"t": "set_node_props", "id": draw(st.just("title") | ids), "patch": {"href": draw(hrefs)}}
    if kind == "meta":
        return {"t": "set_meta", "patch": {draw(st.sampled_from(["title", "description", "ogImage"])): draw(values | hrefs)}}
    return {"t": "move_node", "id": draw(ids), "parent": draw(st.none() | ids), "index": draw(values)}


op_lists = st.one_of(
    st.lists(hostile_ops(), min_size=1, max_size=4),
    hostile_ops().map(lambda op: [op] * 3_000),  # a huge op list
)


class Tally:
    """Counts answers by status (printed at the end of the module)."""

    counts: ClassVar[Counter[int]] = Counter()


@pytest.fixture(scope="module")
def app(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[tuple[AppHarness, list[str]]]:
    harness = AppHarness(tmp_path_factory.mktemp("fuzz-api") / "api.db")
    sessions = [harness.open(), harness.open(approve_on_save=True, page="about")]
    for session_id in sessions:
        harness.run_turn(session_id)
    yield harness, sessions
    harness.close()
    show(request, f"fuzz api: {sum(Tally.counts.values())} requests, by status {dict(sorted(Tally.counts.items()))}")


def snapshot(harness: AppHarness, session_id: str) -> tuple[int, int, Any]:
    """(draft revision, last event seq, open change set) of a session, read as its owner."""
    status = harness.call("GET", f"/sessions/{session_id}")
    assert status.status == 200
    change_set = harness.call("GET", f"/sessions/{session_id}/change-set").json
    return status.json["session"]["revision"], status.json["session"]["last_seq"], change_set


def session_rows(harness: AppHarness) -> int:
    with read_connection(harness.charlotte.engine) as conn:
        return len(conn.execute(sessions_table.select()).all())


def coded(response: Response) -> None:
    """The answer is a success or a coded error whose message is the fixed sentence."""
    assert response.status in CODED, response
    json.dumps(response.json)
    Tally.counts[response.status] += 1
    if response.status >= 400:
        error = response.json["error"]
        assert error["message"] == MESSAGES[error["code"]]


def send(harness: AppHarness, path: str, body: Any) -> Response:
    raw = json.dumps(body).encode() if not isinstance(body, bytes) else body
    return harness.api.handle("POST", path, {}, raw, "ann", "acme", envelope=JSON_REQUEST)


@settings(max_examples=250, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large])
@given(ops=op_lists, which=st.integers(0, 1), stale=st.booleans())
def test_hostile_edits_are_coded_and_a_refusal_stores_nothing(
    app: tuple[AppHarness, list[str]], ops: list[dict[str, Any]], which: int, stale: bool
) -> None:
    harness, session_ids = app
    session_id = session_ids[which]
    revision, last_seq, change_set = snapshot(harness, session_id)

    response = send(harness, f"/sessions/{session_id}/edits", {"basedOn": revision - 1 if stale and revision else revision, "ops": ops})

    coded(response)
    after = snapshot(harness, session_id)
    if response.status >= 400:
        assert after == (revision, last_seq, change_set)
    else:
        draft = harness.call("GET", f"/sessions/{session_id}/draft")
        assert draft.status == 200
        PageSession(draft.json["page"])


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    page=storable_ids, brief=storable_values,
    facts=st.dictionaries(storable_text, storable_values, max_size=3) | storable_values,
    approve=st.booleans() | storable_values, mode=st.none() | storable_ids,
)
def test_hostile_session_openings_are_coded_and_a_refusal_stores_nothing(
    app: tuple[AppHarness, list[str]], page: Any, brief: Any, facts: Any, approve: Any, mode: Any
) -> None:
    harness, _ = app
    before = session_rows(harness)
    body: dict[str, Any] = {"page": page, "brief": brief, "facts": facts, "approve_on_save": approve}
    if mode is not None:
        body["mode"] = mode

    response = send(harness, "/sessions", body)

    coded(response)
    assert session_rows(harness) == before + (1 if response.status == 201 else 0)


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large])
@given(session=storable_ids, after=values, limit=values, which=st.integers(0, 1))
def test_hostile_ids_and_queries_on_reads_are_coded(
    app: tuple[AppHarness, list[str]], session: Any, after: Any, limit: Any, which: int
) -> None:
    harness, session_ids = app
    for path in (f"/sessions/{session}/events", f"/sessions/{session_ids[which]}/events", f"/sessions/{session}/draft"):
        query = {"after": str(after)[:1000], "limit": str(limit)[:1000]}
        coded(harness.api.handle("GET", path, query, b"", "ann", "acme", envelope=JSON_REQUEST))


@pytest.mark.parametrize(
    "body",
    [
        b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
        b"[" * 100_000,
        b'{"basedOn": 0, "ops": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
        json.dumps({"basedOn": 0, "ops": [{"t": "insert_node"}] * 20_000}).encode(),
        b'{"basedOn": 0, "ops": [{"t": "insert_node", "node": {"id": "\\ud800", "type": "text", "parent": null}}]}',
        b'{"basedOn": 0, "ops": [{"t": "insert_node", "node": {"id": "a\\u0000b", "type": "text", "parent": null}}]}',
        b'{"basedOn": 1e400, "ops": []}',
        b'{"basedOn": NaN, "ops": []}',
        "{\"basedOn\": 0, \"ops\": [], \"\u202e\": 1}".encode(),
        b"\xff\xfe{}",
    ],
    ids=["too-deep", "unclosed", "deep-ops", "many-ops", "surrogate-id", "nul-id", "huge-number", "nan", "rtl-key", "not-utf8"],
)
def test_hostile_bodies_on_the_edit_route_store_nothing(app: tuple[AppHarness, list[str]], body: bytes) -> None:
    harness, session_ids = app
    before = snapshot(harness, session_ids[0])

    response = send(harness, f"/sessions/{session_ids[0]}/edits", body)

    coded(response)
    assert response.status >= 400
    assert snapshot(harness, session_ids[0]) == before


@pytest.mark.parametrize("field", ["page", "brief"])
def test_a_lone_surrogate_in_a_session_opening_is_a_coded_error(
    app: tuple[AppHarness, list[str]], field: str
) -> None:
    harness, _ = app
    before = session_rows(harness)
    body: dict[str, Any] = {"page": "surrogate", "brief": "A page", "facts": {}}
    body[field] = "a\ud800"

    response = send(harness, "/sessions", body)

    coded(response)
    assert session_rows(harness) == before + (1 if response.status == 201 else 0)


def test_a_lone_surrogate_in_a_session_id_is_not_found(app: tuple[AppHarness, list[str]]) -> None:
    harness, _ = app

    response = harness.api.handle("GET", "/sessions/a\udfff/events", {}, b"", "ann", "acme", envelope=JSON_REQUEST)

    coded(response)
    assert response.status == 404
