"""The tools package's public names are pinned."""

from __future__ import annotations

import charlotte.tools


def test_exported_names_are_pinned() -> None:
    assert sorted(charlotte.tools.__all__) == [
        "ArgumentParser",
            "CHECKING",
        "ChecksFactory",
        "PageTools",
        "SiteLinksFor",
        "TOOL_NAMES",
        "ToolBinding",
        "ToolDefinition",
        "ToolResult",
        "UNTRUSTED_NOTE",
        "fact_texts",
        "failure",
        "is_error",
        "scope_of",
        "success",
        "tool_definitions",
    ]
    for name in charlotte.tools.__all__:
        assert getattr(charlotte.tools, name) is not None


def test_fact_texts_flattens_what_the_checks_can_read() -> None:
    facts = {"phone": "+41 44 123 45 67", "hours": ["Mon-Fri 7-18", "Sat 8-12"], "founded": 1998,
             "address": {"city": "Zurich", "zip": 8001}, "open": True, "nothing": None}
    assert charlotte.tools.fact_texts(facts) == {
        "phone": "+41 44 123 45 67",
        "hours": "Mon-Fri 7-18; Sat 8-12",
        "founded": "1998",
        "address city": "Zurich",
        "address zip": "8001",
    }
    assert charlotte.tools.fact_texts(["not", "a", "dict"]) == {}
