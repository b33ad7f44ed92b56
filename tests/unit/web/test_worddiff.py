"""The builder page's word diff (``web/js/worddiff.js``), run by Node on the shipped module."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import resources
from typing import Any

import pytest

NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _word_diff(pairs: list[tuple[str, str]]) -> list[Any]:
    module = resources.files("charlotte").joinpath("web", "js", "worddiff.js")
    script = (
        f"import {{ wordDiff }} from {json.dumps(str(module))};\n"
        f"const pairs = {json.dumps(pairs)};\n"
        "console.log(JSON.stringify(pairs.map(([a, b]) => wordDiff(a, b))));\n"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    found = json.loads(done.stdout)
    assert isinstance(found, list)
    return found


def _marked(pieces: list[dict[str, str]]) -> str:
    marks = {"same": "{}", "del": "[-{}-]", "ins": "{{+{}+}}"}
    return "".join(marks[piece["kind"]].format(piece["text"]) for piece in pieces)


def test_kept_words_stay_and_changed_runs_read_whole() -> None:
    found = _word_diff(
        [
            ("Rosa's Bakery", "Rosa's Bakery, fresh every morning"),
            ("The quick brown fox jumps", "The slow red fox jumps high"),
            ("one two three four", "one three four five"),
            ("Menu", "Our breads"),
            ("same  words\nhere", "same  words\nhere"),
            ("", "new words"),
            ("old words", ""),
        ]
    )
    assert [_marked(pieces) for pieces in found] == [
        "Rosa's Bakery{+, fresh every morning+}",  # punctuation is its own token
        "The [-quick brown-]{+slow red+} fox jumps{+ high+}",
        "one [-two -]three four{+ five+}",
        "[-Menu-]{+Our breads+}",
        "same  words\nhere",
        "{+new words+}",
        "[-old words-]",
    ]


def test_the_pieces_give_back_both_texts() -> None:
    pairs = [
        ("a b c d e f", "a x c y e z"),
        ("  leading and trailing  ", " leading, trailing and more "),
        ("Open Tue-Fri 08:00-16:00.", "Open Mon-Sat 07:00-18:00, Sunday closed."),
    ]
    for (before, after), pieces in zip(pairs, _word_diff(pairs), strict=True):
        assert "".join(p["text"] for p in pieces if p["kind"] != "ins") == before
        assert "".join(p["text"] for p in pieces if p["kind"] != "del") == after


def test_a_text_too_long_to_compare_word_by_word_is_left_to_before_and_after() -> None:
    words = [f"w{n}" for n in range(1_500)]
    long = " ".join(words)
    shuffled = " ".join(reversed(words))
    same_start, too_long = _word_diff([(long, f"{long} more"), (long, shuffled)])
    # A long common start and end are set aside first: only what differs is compared.
    assert _marked(same_start) == f"{long}{{+ more+}}"
    assert too_long is None
