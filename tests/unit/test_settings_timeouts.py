"""The two turn timeouts of ``Settings``: defaults and validation."""

from __future__ import annotations

import pytest

from charlotte.settings import Settings


def test_the_timeouts_default_to_two_and_fifteen_minutes() -> None:
    settings = Settings()
    assert (settings.model_idle_timeout_seconds, settings.turn_timeout_seconds) == (120.0, 900.0)


@pytest.mark.parametrize("name", ["model_idle_timeout_seconds", "turn_timeout_seconds"])
@pytest.mark.parametrize("value", [0, -1.0, float("nan"), float("inf"), "120", None, True])
def test_a_timeout_must_be_a_finite_positive_number(name: str, value: object) -> None:
    with pytest.raises(ValueError, match=name):
        Settings(**{name: value})  # type: ignore[arg-type]


def test_small_timeouts_are_accepted() -> None:
    settings = Settings(model_idle_timeout_seconds=0.5, turn_timeout_seconds=1)
    assert (settings.model_idle_timeout_seconds, settings.turn_timeout_seconds) == (0.5, 1)
