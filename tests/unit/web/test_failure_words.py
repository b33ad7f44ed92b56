"""The builder page's plain words for failure codes: only real codes, and a fix for a refused key."""

from __future__ import annotations

import re
from importlib import resources

from charlotte.errors import MESSAGES


def _code_text() -> dict[str, str]:
    """``CODE_TEXT`` of the page's api module: each code and its words (string pieces joined with ``+``)."""
    script = resources.files("charlotte").joinpath("web", "js", "api.js").read_text("utf-8")
    block = script.split("const CODE_TEXT = {", 1)[1].split("\n};", 1)[0]
    entries: dict[str, str] = {}
    key = None
    for line in block.splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        head = re.match(r"([a-z_]+):", line)
        if head:
            key = head.group(1)
            entries[key] = ""
            line = line[head.end() :]
        assert key is not None, line
        entries[key] += "".join(re.findall(r'"([^"]*)"', line))
    return entries


def test_every_code_the_page_words_is_a_real_code() -> None:
    words = _code_text()
    assert "model_timeout" in words
    assert set(words) <= set(MESSAGES)


def test_a_refused_key_tells_the_person_which_setting_to_fix() -> None:
    words = _code_text()["model_auth_failed"]
    assert "model_api_key" in words and "OPENAI_API_KEY" in words and "ANTHROPIC_API_KEY" in words
