"""Any text at every boundary that takes text: a coded answer in bounded time, every event readable.

The boundaries: the HTTP bodies (a session's page, brief and facts, a turn
message, a person's edit), the model's text and its tool arguments (played by
``ScriptedModel`` through a real turn, so the real tools, recorder and log see
them) and the facts the page checks read (``cms_check`` against hostile facts
and page text). The text is any Unicode string the strategy can build: lone
surrogates, NUL, control and private-use characters, long digit runs with
separators; and, once per boundary, a megabyte. After each call the session's
whole log must read back through ``GET /events`` (200) as text that encodes
as UTF-8.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tests.support.app_harness import AppHarness

from charlotte.http.api import Response
from charlotte.testing import Finish, Text, ToolCall

pytestmark = pytest.mark.timeout(300)

#: Every status a coded answer may have; a 500 is a defect.
CODED: Final = {200, 201, 202, 400, 404, 409, 413, 422}
#: The longest one call may take, generous for a loaded CI machine.
BOUND_SECONDS: Final = 10.0
MEGABYTE: Final = 1_000_000

_SPECIAL: Final = ["\ud800", "\udbff", "\udc00", "\udfff", "\x00", "\ufffd", "\u202e", "\U0010ffff", " ", ","]
# st.text() never draws a surrogate: build strings from single characters.
_CHAR: Final = st.characters(min_codepoint=0, max_codepoint=0x10FFFF) | st.sampled_from(_SPECIAL)
ANY_TEXT: Final = st.lists(_CHAR, max_size=40).map("".join) | st.builds(
    lambda unit, count: unit * count,
    st.sampled_from(["1 ", "1 111 ", "111 ", " 111", "1,111,", "+1 ", "a@", "Mon-Tue, ", "\ud800", "9"]),
    st.integers(min_value=1, max_value=3_000),
)
EXAMPLES: Final = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppHarness]:
    harness = AppHarness(Path(tmp_path_factory.mktemp("text")) / "app.db")
    yield harness
    harness.close()


def timed(call: Any, *args: Any, **kwargs: Any) -> Response:
    started = time.monotonic()
    response: Response = call(*args, **kwargs)
    assert time.monotonic() - started < BOUND_SECONDS
    assert response.status in CODED, (response.status, response.json)
    if response.status >= 400:
        assert isinstance(response.json["error"]["code"], str)
    return response


def assert_log_readable(app: AppHarness, session_id: str) -> None:
    after = 0
    while True:
        response = app.call("GET", f"/sessions/{session_id}/events", query={"after": str(after), "limit": "500"})
        assert response.status == 200, response.json
        events = response.json["events"]
        json.dumps(events, ensure_ascii=False).encode("utf-8")  # every string is Unicode
        if not events:
            return
        after = events[-1]["seq"]


def opened(app: AppHarness) -> str:
    return app.open(page=f"p{time.monotonic_ns()}")


@EXAMPLES
@given(page=ANY_TEXT, brief=ANY_TEXT, name=ANY_TEXT, value=ANY_TEXT)
def test_any_session_opening_is_a_coded_answer(app: AppHarness, page: str, brief: str, name: str, value: str) -> None:
    response = timed(app.call, "POST", "/sessions", {"page": page, "brief": brief, "facts": {name: value}})
    if response.status == 201:
        assert_log_readable(app, response.json["session"]["id"])


@EXAMPLES
@given(message=ANY_TEXT)
def test_any_turn_message_is_a_coded_answer(app: AppHarness, message: str) -> None:
    session_id = opened(app)
    app.script = [Finish("stop", "Done.")]
    timed(app.call, "POST", f"/sessions/{session_id}/turns", {"message": message})
    assert_log_readable(app, session_id)


@EXAMPLES
@given(text=ANY_TEXT, node_id=ANY_TEXT)
def test_any_text_in_a_persons_edit_is_a_coded_answer(app: AppHarness, text: str, node_id: str) -> None:
    session_id = opened(app)
    ops = [
        {"t": "insert_node", "node": {"id": node_id, "type": "section", "parent": None, "props": {}}},
        {"t": "set_meta", "patch": {"title": text}},
    ]
    timed(app.call, "POST", f"/sessions/{session_id}/edits", {"basedOn": 0, "ops": ops})
    assert_log_readable(app, session_id)


@EXAMPLES
@given(text=ANY_TEXT, argument=ANY_TEXT)
def test_any_model_text_and_tool_arguments_end_the_turn_with_a_readable_log(
    app: AppHarness, text: str, argument: str
) -> None:
    session_id = opened(app)
    app.script = [
        Text(text),
        ToolCall("cms_find", {"text": argument}),
        ToolCall("cms_apply", {"basedOn": 0, "ops": [{"t": "set_meta", "patch": {"title": argument}}]}),
        Finish("stop", text),
    ]
    timed(app.call, "POST", f"/sessions/{session_id}/turns", {"message": "Build it"})
    assert_log_readable(app, session_id)
    status = app.call("GET", f"/sessions/{session_id}").json["session"]["status"]
    assert status == "idle"


#: Grouped digits: a reader that retries its groups from every start is quadratic here.
HOSTILE: Final = "1" + " 111" * 4_000


@EXAMPLES
@given(fact=ANY_TEXT, copy=ANY_TEXT)
@example(fact=HOSTILE, copy=HOSTILE[:4_000])
def test_the_checks_read_any_facts_and_page_text_in_bounded_time(app: AppHarness, fact: str, copy: str) -> None:
    brief = "A landing page " + copy
    response = app.call(
        "POST", "/sessions", {"page": f"c{time.monotonic_ns()}", "brief": brief, "facts": {"phone": fact}}
    )
    if response.status != 201:  # text no column can hold is refused at the door
        assert response.status == 400
        assert response.json["error"]["code"] in {"invalid_request", "invalid_json"}
        return
    session_id = response.json["session"]["id"]
    app.script = [
        ToolCall("cms_apply", {"basedOn": 0, "ops": [
            {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
            {"t": "insert_node", "node": {"id": "copy", "type": "text", "parent": "hero", "props": {"content": copy}}},
        ]}),
        ToolCall("cms_check", {}),
        Finish("stop", "Checked."),
    ]
    timed(app.call, "POST", f"/sessions/{session_id}/turns", {"message": "Check it"})
    assert_log_readable(app, session_id)


@pytest.mark.parametrize("unit", ["x", "1 ", "\ud800"], ids=["plain", "digits", "surrogate"])
def test_a_megabyte_at_every_boundary_is_a_coded_answer(app: AppHarness, unit: str) -> None:
    big = unit * (MEGABYTE // len(unit))
    timed(app.call, "POST", "/sessions", {"page": "big", "brief": big, "facts": {"a": big}})
    session_id = opened(app)
    timed(app.call, "POST", f"/sessions/{session_id}/turns", {"message": big})
    edit = {"basedOn": 0, "ops": [{"t": "set_meta", "patch": {"title": big}}]}
    timed(app.call, "POST", f"/sessions/{session_id}/edits", edit)
    app.script = [Text(big), ToolCall("cms_find", {"text": big}), Finish("stop", big)]
    timed(app.call, "POST", f"/sessions/{session_id}/turns", {"message": "Build it"})
    assert_log_readable(app, session_id)
