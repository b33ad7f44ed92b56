"""The set_meta schema the model sees: the page's metadata fields and bounds, agreeing with PageSession."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.unit.page.test_seo import REFUSED
from tests.unit.tools.test_schema_check import OP_PAIRS, agree

from charlotte.errors import InvalidArguments, PageSessionError
from charlotte.page.model import empty_doc
from charlotte.page.node_types import NodeTypes
from charlotte.page.session import PageSession
from charlotte.tools import ArgumentParser, tool_definitions
from charlotte.tools.op_schemas import op_defs

PARSER = ArgumentParser(NodeTypes.allowed())
# Line breaks other than \n and \r are PageSession's alone to refuse (a JSON
# Schema pattern is read differently by each dialect).
PAGE_ONLY = {"two\u2028lines", "next\x85line"}
# So is a well-formed tag naming no language (ISO 639-1's list is no schema pattern).
PAGE_ONLY |= {"zz", "xx-GB", "x-klingon"}


def _apply(patch: dict[str, Any]) -> dict[str, Any]:
    return {"basedOn": 0, "ops": [{"t": "set_meta", "patch": patch}]}


@pytest.mark.parametrize(("patch", "path"), REFUSED)
def test_the_schema_refuses_each_bound_at_the_fields_path(patch: dict[str, Any], path: str) -> None:
    value = patch["title"] if "title" in patch else next(iter(patch["seo"].values()))
    if value in PAGE_ONLY:
        PARSER.parse("cms_apply", _apply(patch))
        return
    with pytest.raises(InvalidArguments) as caught:
        PARSER.parse("cms_apply", _apply(patch))
    assert caught.value.path == "$.arguments.ops[0].patch." + path.removeprefix("meta.")


def test_the_schema_documents_every_field_and_bound() -> None:
    meta = op_defs(NodeTypes.allowed())["meta"]
    seo = meta["properties"]["seo"]["properties"]
    assert meta["properties"]["title"]["maxLength"] == 120
    assert seo["description"]["maxLength"] == 300
    assert seo["lang"]["maxLength"] == 35 and "BCP 47" in seo["lang"]["description"]
    assert "path on this site" in seo["canonical"]["description"]
    assert "asset id" in seo["image"]["description"] and "cms_types" in seo["image"]["description"]
    apply = next(d for d in tool_definitions(NodeTypes.allowed()) if d.name == "cms_apply")
    described = apply.parameters_json_schema["$defs"]["op_set_meta"]["description"]
    for words in ("120", "300", "BCP 47", "path on this site", "asset id", "replaced as a whole"):
        assert words in described
    json.dumps(apply.parameters_json_schema)  # what a provider is sent


_TEXT = st.text(alphabet="aZ09-_/ .:\\\n\u2028é?#", max_size=12) | st.text(max_size=6)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(["description", "lang", "canonical", "image", "og:type"]), _TEXT, max_size=4),
    st.one_of(st.none(), st.text(max_size=3).map(lambda t: t * 45)),
)
def test_the_fast_check_agrees_and_the_schema_never_refuses_what_the_page_writes(
    seo: dict[str, str], title: str | None
) -> None:
    patch: dict[str, Any] = {"seo": seo}
    if title is not None:
        patch["title"] = title
    op = {"t": "set_meta", "patch": patch}
    schema_ok = agree(OP_PAIRS["set_meta"], op)
    try:
        PageSession(empty_doc("home")).apply([op], based_on=0, actor="agent")
    except PageSessionError:
        return
    assert schema_ok, op
