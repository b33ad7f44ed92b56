"""The offline builder's palettes: a button in the accent shows on the hero it sits on."""

from __future__ import annotations

import pytest

from charlotte.offline.style import _FALLBACKS, _PALETTES, Palette, palette_for


def _rgb(value: str) -> tuple[int, int, int]:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def _distance(a: str, b: str) -> int:
    return sum(abs(x - y) for x, y in zip(_rgb(a), _rgb(b), strict=True))


PALETTES: list[Palette] = [p for _words, p in _PALETTES] + list(_FALLBACKS)


@pytest.mark.parametrize("tone", ["", " calm", " minimal"])
@pytest.mark.parametrize("palette", PALETTES)
def test_the_hero_button_stands_out_from_the_hero(palette: Palette, tone: str) -> None:
    # Every kind of business's palette, in each look: the hero's call button is visible.
    words = next((w for w, p in _PALETTES if p == palette), "")
    example = words.split("|")[0].replace("\\", "") if words else "anything"
    shown = palette_for(f"a {example} place{tone}", PALETTES.index(palette))
    assert _distance(shown.accent, shown.hero) > 40, (shown.accent, shown.hero)
