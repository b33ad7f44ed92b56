"""The builder page's plain words for failure codes: only real codes, and a fix for a refused key."""

from __future__ import annotations

import re
from importlib import resources

from charlotte.errors import MESSAGES


def _code_text() -> dict[str, str]:
    script = resources.files("charlotte").joinpath("web/builder.js").read_text("utf-8")
    block = script.split("const CODE_TEXT = {", 1)[1].split("\n};", 1)[0]
    block = re.sub(r"^\s*//.*$", "", block, flags=re.M)
    entries: dict[str, str] = {}
    for key, value in re.findall(r"^\s*([a-z_]+):\s*((?:\"[^\"]*\"\s*\+?\s*)+),", block, flags=re.M):
        entries[key] = "".join(re.findall(r"\"([^\"]*)\"", value))
    return entries


def test_every_code_the_page_words_is_a_real_code() -> None:
    words = _code_text()
    assert "model_timeout" in words
    assert set(words) <= set(MESSAGES)


def test_a_refused_key_tells_the_person_which_setting_to_fix() -> None:
    words = _code_text()["model_auth_failed"]
    assert "model_api_key" in words and "OPENAI_API_KEY" in words and "ANTHROPIC_API_KEY" in words
