"""Modes: the lazily added built-in, host modes that win, and the stale-guide check."""

from __future__ import annotations

import pytest

from charlotte.errors import Refused
from charlotte.runtime.guide import Guide, build_guide
from charlotte.runtime.modes import (
    BUILDER_MODE,
    Mode,
    ModeRegistry,
    builder_mode,
    check_mode,
)


def host_builder(guide: Guide) -> Mode:
    return Mode(BUILDER_MODE, f"Host house style.\nguide {guide.hash}\n{guide.text}")


def test_builtin_builder_embeds_the_guide_and_its_hash_once() -> None:
    guide = build_guide("Say Rose Bakery.")
    mode = ModeRegistry().resolve(BUILDER_MODE, guide)
    assert mode == builder_mode(guide)
    assert mode.name == BUILDER_MODE
    assert guide.text in mode.prompt
    assert mode.prompt.count(guide.hash) == 1
    assert f"guide: {guide.hash}" in mode.prompt
    check_mode(mode, guide, guide.hash)


def test_builtin_is_added_on_first_resolve_only() -> None:
    registry = ModeRegistry()
    assert registry.names() == ()
    registry.resolve(BUILDER_MODE, build_guide())
    assert registry.names() == (BUILDER_MODE,)


def test_host_builder_registered_before_first_resolve_wins() -> None:
    registry = ModeRegistry()
    registry.register(BUILDER_MODE, host_builder)
    guide = build_guide()
    assert registry.resolve(BUILDER_MODE, guide).prompt.startswith("Host house style.")


def test_registering_after_resolve_replaces_for_later_resolves_only() -> None:
    # Documented choice: register is last-wins; a Mode already resolved is a
    # frozen value and stays as it was built.
    registry = ModeRegistry()
    guide = build_guide()
    before = registry.resolve(BUILDER_MODE, guide)
    registry.register(BUILDER_MODE, host_builder)
    after = registry.resolve(BUILDER_MODE, guide)
    assert before == builder_mode(guide)
    assert after.prompt.startswith("Host house style.")


def test_host_modes_resolve_beside_the_builtin() -> None:
    registry = ModeRegistry()
    registry.register("blog_editor", lambda g: Mode("blog_editor", f"Blog. guide {g.hash}"))
    guide = build_guide()
    assert registry.resolve("blog_editor", guide).name == "blog_editor"
    assert registry.resolve(BUILDER_MODE, guide) == builder_mode(guide)


def test_unknown_mode_is_not_found() -> None:
    registry = ModeRegistry()
    with pytest.raises(Refused) as caught:
        registry.resolve("nope", build_guide())
    assert caught.value.code == "not_found"


@pytest.mark.parametrize("name", ["", "x" * 65])
def test_mode_names_are_bounded(name: str) -> None:
    with pytest.raises(ValueError):
        ModeRegistry().register(name, host_builder)


def test_a_factory_must_return_a_mode() -> None:
    registry = ModeRegistry()
    registry.register("broken", lambda g: "not a mode")  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError):
        registry.resolve("broken", build_guide())


def _stale(mode: Mode, guide: Guide, session_hash: str | None) -> None:
    with pytest.raises(Refused) as caught:
        check_mode(mode, guide, session_hash)
    assert caught.value.code == "guide_mode_stale"


@pytest.mark.parametrize("copies", [0, 2])
def test_a_prompt_without_exactly_one_hash_is_stale(copies: int) -> None:
    guide = build_guide()
    mode = Mode(BUILDER_MODE, "Build pages. " + " ".join([guide.hash] * copies))
    _stale(mode, guide, guide.hash)


def test_a_changed_brand_rule_makes_the_old_session_stale() -> None:
    registry = ModeRegistry()
    opened_with = build_guide("Say Rose Bakery.")
    now = build_guide("Say Rose Bakery Zurich.")
    _stale(registry.resolve(BUILDER_MODE, now), now, opened_with.hash)
    # And a mode built for the old guide does not pass against the new one.
    _stale(registry.resolve(BUILDER_MODE, opened_with), now, now.hash)


def test_a_session_without_a_guide_hash_is_stale() -> None:
    guide = build_guide()
    _stale(builder_mode(guide), guide, None)
