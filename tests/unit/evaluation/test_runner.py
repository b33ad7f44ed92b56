"""The runner end to end: two tiny cases through a real Charlotte (SQLite, thread queue)."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.evaluation.cases import parse_cases
from charlotte.evaluation.report import totals
from charlotte.evaluation.runner import claims_change, run_suite
from charlotte.testing import ScriptedModel, Text, ToolCall

REFUSE = [{"unchanged": True}, {"ready": False}, {"reply_mentions": ["cannot"]}]
TINY: dict[str, Any] = {
    "version": 1,
    "cases": [
        {
            "id": "bakery",
            "tone": "warm",
            "brief": "Crumb & Co is a bakery in Cardiff. Sections: menu, opening hours and contact.",
            "facts": {
                "name": "Crumb & Co",
                "phone": "029 2018 0456",
                "hours": "Tue-Sun 7:00-14:00",
            },
            "expect": [{"section": "hours"}, {"fact": {"phone": "+44 29 2018 0456"}}],
            "follow_ups": [
                {"message": "Thanks.", "kind": "other", "expect": [{"section": "contact"}]},
                {
                    "message": "Add an FAQ section.",
                    "kind": "add section",
                    "expect": [{"section": "faq"}],
                },
            ],
        },
        {
            "id": "plumber",
            "brief": "Dry Feet is a plumber in Leicester. Sections: services and contact.",
            "facts": {"name": "Dry Feet", "email": "jobs@dryfeet.example"},
            "follow_ups": [
                {
                    "message": "Write a blog post.",
                    "kind": "unsupported",
                    "supported": False,
                    "expect": REFUSE,
                }
            ],
        },
    ],
}


def test_two_cases_through_the_offline_model() -> None:
    suite = run_suite(parse_cases(TINY), measure=False)
    assert [c.id for c in suite.cases] == ["bakery", "plumber"]
    bakery, plumber = suite.cases
    first = bakery.turns[0]
    assert first.kind == "first page" and first.status == "finished" and first.passed
    assert first.ready and first.errors == 0 and first.invented == 0
    assert {"hero", "hours", "contact"} <= set(first.sections)
    assert (first.facts_stated, first.facts_total) == (3, 3)
    assert first.tool_calls > 5 and first.seconds > 0
    assert first.tokens is None or first.tokens > 0
    thanks, faq = bakery.turns[1:]
    assert thanks.passed  # its predicate already held: nothing to do
    # Whatever the builder does with a request, the verdict is its predicates'.
    assert faq.passed == all(ok for _, ok, _ in faq.predicates)
    refusal = plumber.turns[1]
    assert not refusal.supported
    assert refusal.passed == (not refusal.ready and all(ok for _, ok, _ in refusal.predicates))
    assert '<html lang="' in bakery.page_html and not bakery.overflow.measured
    assert bakery.overflow.reason == "not asked for"


def _built(results: list[Any]) -> dict[str, Any]:
    hero = {"id": "hero", "type": "section", "parent": None}
    heading = {
        "id": "hero-heading",
        "type": "heading",
        "parent": "hero",
        "props": {"content": "Dry Feet", "level": 1},
    }
    return {
        "basedOn": results[-1]["revision"],
        "ops": [{"t": "insert_node", "node": n} for n in (hero, heading)],
    }


PLUMBER: dict[str, Any] = {
    "version": 1,
    "cases": [
        {
            "id": "plumber",
            "brief": "Dry Feet is a plumber in Leicester.",
            "facts": {"name": "Dry Feet"},
            "expect": [{"section": "hero"}],
            "follow_ups": [
                {
                    "message": "Add a booking calendar.",
                    "kind": "unsupported",
                    "supported": False,
                    "expect": REFUSE,
                },
                # Only the reply is expected here: "not ready, unchanged" is the runner's own rule.
                {
                    "message": "Write a blog post.",
                    "kind": "unsupported",
                    "supported": False,
                    "expect": [{"reply_mentions": ["cannot"]}],
                },
            ],
        }
    ],
}


def test_an_honest_refusal_passes_and_a_pretended_one_does_not() -> None:
    model = ScriptedModel(
        [
            ToolCall("cms_outline", {}),
            ToolCall("cms_apply", _built),
            Text("Built the hero."),
            Text(
                "I cannot add a booking calendar; I can change text, sections, order and colours."
            ),
            ToolCall("cms_ready", {"summary": "Hero for Dry Feet."}),
            Text("I cannot write a blog post, but the page is ready for review."),
        ]
    )
    suite = run_suite(
        parse_cases(PLUMBER), model="scripted", measure=False, model_factory=lambda: model
    )
    first, honest, pretended = suite.cases[0].turns
    assert first.passed and first.sections == ("hero",)
    assert honest.passed and not honest.ready
    assert pretended.status == "finished" and pretended.ready
    assert all(ok for _, ok, _ in pretended.predicates) and not pretended.passed


def test_a_reply_that_says_done_on_an_unchanged_page_is_counted_as_claimed() -> None:
    said_hero = [{"reply_mentions": ["hero"]}]
    cases = {"version": 1, "cases": [{**PLUMBER["cases"][0], "follow_ups": [
        {"message": "Make the hero heading bigger.", "kind": "font size", "expect": said_hero},
        {"message": "Make the hero heading bigger.", "kind": "font size", "expect": said_hero},
    ]}]}  # fmt: skip
    model = ScriptedModel(
        [
            ToolCall("cms_outline", {}),
            ToolCall("cms_apply", _built),
            Text("Built the hero."),
            Text("Done: made the hero heading bigger."),
            Text("I could not make the hero heading bigger: say by how much."),
        ]
    )
    suite = run_suite(parse_cases(cases), model="scripted", measure=False, model_factory=lambda: model)
    _first, claimed, honest = suite.cases[0].turns
    assert claimed.claimed and not claimed.passed and all(ok for _, ok, _ in claimed.predicates)
    assert not honest.claimed and honest.passed
    assert totals(suite).claimed == 1 and not totals(suite).passed


@pytest.mark.parametrize(
    ("reply", "claims"),
    [
        ("Done: changed the phone number.", True),
        ("Not done: there is no FAQ.\nThe page is unchanged.", False),
        ("Sure!\nI've added an FAQ section.", True),
        ("I have moved the menu to the top.", True),
        ("Done nothing: the page already says that.", False),
        ("The page was done by hand, so I left it.", False),
        ("I've had a look: nothing needs changing.", False),
    ],
)
def test_what_counts_as_a_claim_of_change(reply: str, claims: bool) -> None:
    assert claims_change(reply) is claims
