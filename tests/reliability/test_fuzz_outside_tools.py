"""Hostile outside-agent calls through ``OutsideTools.call``: coded answers only, the draft never touched.

Random names (the tools', look-alikes, publish-like ones) and random JSON
arguments (the session argument included: other ids, huge strings, lone
surrogates, nesting) go through the whole path (``call_tool``, the page tools,
the database). Every answer is a result dict; a failure carries a listed code
and its fixed sentence and nothing else of the input's making; the draft
stays as it was (outside writes go to a change set), and no event names any
actor but the person who opened the session and the outside agent.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.reliability.test_fuzz_api import tricky_text, values
from tests.support.app_harness import AppHarness

from charlotte.errors import MESSAGES
from charlotte.mcp import Caller, OutsideTools

SETTINGS: Final = settings(
    max_examples=150,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
ANN: Final = Caller("ann", "acme", "Fuzzer\n<script>")


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AppHarness, OutsideTools, str]]:
    harness = AppHarness(Path(tmp_path_factory.mktemp("outside")) / "c.db")
    session_id = harness.open(approve_on_save=False)
    try:
        yield harness, OutsideTools(harness.charlotte), session_id
    finally:
        harness.close()


def _names(outside: OutsideTools) -> st.SearchStrategy[Any]:
    real = [spec.name for spec in outside.specs()]
    return st.one_of(
        st.sampled_from(real),
        st.sampled_from(["cms_publish", "publish", "charlotte_publish", "cms_apply ", "CMS_GET", "cms_g\u0435t"]),
        tricky_text,
        st.none(),
        st.integers(),
    )


def _arguments(session_id: str) -> st.SearchStrategy[Any]:
    sessions = st.one_of(st.just(session_id), tricky_text, values)
    objects = st.dictionaries(st.one_of(st.sampled_from(["session", "page", "brief", "basedOn", "ops", "node"]), tricky_text), values, max_size=5)
    with_session = st.builds(lambda s, rest: {**rest, "session": s}, sessions, objects)
    return st.one_of(with_session, objects, values)


def test_hostile_outside_calls_answer_coded_results_and_leave_the_draft(
    bench: tuple[AppHarness, OutsideTools, str],
) -> None:
    harness, outside, session_id = bench
    handle = harness.charlotte.find(session_id, "acme", user="ann")
    assert handle is not None
    draft = handle.draft()

    @SETTINGS
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        name = data.draw(_names(outside))
        arguments = data.draw(_arguments(session_id))
        result = outside.call(ANN, name, arguments)
        assert isinstance(result, dict)
        if result.get("isError") is True:
            error = result["error"]
            assert error["code"] in MESSAGES and error["message"] == MESSAGES[error["code"]], result
            assert not ({"Traceback", "Error("} & {word for word in str(result).split() if word})

    run()
    assert handle.draft() == draft
    actors: set[str] = set()
    after = 0
    while page := handle.events(after=after, limit=100):
        actors |= {event["actor"] for event in page}
        after = page[-1]["seq"]
    assert actors <= {"ann", ANN.actor}, actors
