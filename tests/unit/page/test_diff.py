"""``diff_docs``: how a change set's working copy differs from the draft, node by node."""

from __future__ import annotations

from typing import Any

from charlotte.page.diff import diff_docs


def _node(id: str, parent: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": id, "type": "text", "parent": parent, "order": "a", "props": {}, "style": {"base": {}}, **extra}


def test_diff_names_props_style_keys_and_other_fields() -> None:
    draft = {"meta": {"title": "A"}, "theme": {}, "nodes": {
        "same": _node("same"),
        "gone": _node("gone"),
        "edited": _node("edited", props={"content": "Hi", "keep": 1}, style={"base": {"color": "#000"}}),
    }}  # fmt: skip
    working = {"meta": {"title": "B"}, "theme": {}, "nodes": {
        "same": _node("same"),
        "new": _node("new"),
        "edited": _node("edited", parent="same", props={"keep": 1, "level": 2},
                        style={"base": {"color": "#111"}, "md": {"gap": 4}}),
    }}  # fmt: skip
    diff = diff_docs(draft, working)
    assert diff.to_json() == {
        "added": ["new"],
        "removed": ["gone"],
        "changed": [
            {"id": "edited", "props": ["content", "level"], "style": ["base.color", "md.gap"], "fields": ["parent"],
             "text": {}}
        ],
        "meta": True,
        "theme": False,
    }
    assert not diff.empty
    assert diff_docs(working, working).empty


def test_diff_gives_before_and_after_of_each_changed_text_cut_to_its_bound() -> None:
    long = "x" * 5_000
    draft = {"nodes": {"t": _node("t", props={"content": "Fresh bread", "alt": long, "level": 1})}}
    working = {"nodes": {"t": _node("t", props={"content": "Fresh bread daily", "alt": long + "y", "level": 2})}}
    (change,) = diff_docs(draft, working).changed
    text = change.to_json()["text"]
    assert text["content"] == {"before": "Fresh bread", "after": "Fresh bread daily"}
    assert text["alt"] == {"before": "x" * 2_000, "after": "x" * 2_000}
    assert "level" not in text and change.props == ("alt", "content", "level")
