"""Shorter and longer through a real Charlotte: what the page says twice goes; the person's sentences go on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.unit.offline.follow_up_app import FACTS, Follow, Session, Turn

from charlotte.offline.repeats import _meaning


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Follow]:
    made = Follow(Path(tmp_path_factory.mktemp("lengths")) / "follow.db")
    yield made
    made.close()


@pytest.fixture
def session(app: Follow) -> Session:
    return app.open()


def _words(page: dict[str, object]) -> list[str]:
    nodes = page["nodes"]
    assert isinstance(nodes, dict)
    return [str(n["props"].get("content", n["props"].get("label", ""))) for n in nodes.values() if "props" in n]


def _ready(turn: Turn) -> None:
    assert turn.refused == [] and turn.revision > turn.revision_before, turn.reply
    assert turn.ready and "Done:" in turn.reply, turn.reply


@pytest.mark.parametrize("message", ["shorter page pls", "Could you make it slightly shorter? The FAQ especially"])
def test_a_shorter_page_takes_out_what_it_says_twice_and_keeps_every_fact(session: Session, message: str) -> None:
    added = session.turn("add an FAQ")
    _ready(added)
    said = {w for text in _words(added.page) for w in _meaning(text)}

    turn = session.turn(message)

    _ready(turn)
    assert "says twice" in turn.reply and "every fact it shows stays" in turn.reply
    now = _words(turn.page)
    assert len(" ".join(now).split()) < len(" ".join(_words(added.page)).split())
    questions = {w for text in now for w in _meaning(text)}
    assert said - questions <= {w for text in _words(added.page) if text.endswith("?") for w in _meaning(text)}
    for value in (FACTS["phone"], FACTS["email"], "12 Kirkgate"):
        assert any(value in text for text in now), value


def test_a_page_that_says_nothing_twice_asks_which_section_should_go(session: Session) -> None:
    turn = session.turn("please make it even shorter")
    assert not turn.ready and turn.revision == turn.revision_before
    assert "Which section should go" in turn.reply and "says nothing twice" in turn.reply


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("Could you add a sentence or two more about the bakery? Everything is baked by hand before dawn.",
         "Everything is baked by hand before dawn."),
        ("Please expand the about us section a little - mention we've baked here for ten years",
         "We've baked here for ten years."),
    ],
)  # fmt: skip
def test_the_persons_sentences_go_on_the_about_text(session: Session, message: str, words: str) -> None:
    turn = session.turn(message)

    _ready(turn)
    about = [t for t in turn.words("about-us", "text") if t.endswith(words)]
    assert about, turn.words("about-us", "text")
    assert sum(words in text for text in _words(turn.page)) == 1


def test_what_to_write_about_is_not_words_to_write(session: Session) -> None:
    turn = session.turn("expand the about us section to mention prices")
    assert not turn.ready and turn.revision == turn.revision_before
    assert "in your own words" in turn.reply
