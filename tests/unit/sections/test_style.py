"""The offline builder's colour schemes: a button in the accent shows on the hero it sits on."""

from __future__ import annotations

import colorsys

import pytest

from charlotte.sections.colours import contrast, hsv, legible, tone_of
from charlotte.sections.style import _FALLBACKS, _SCHEMES, Scheme, scheme_for


def _rgb(value: str) -> tuple[int, int, int]:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def _distance(a: str, b: str) -> int:
    return sum(abs(x - y) for x, y in zip(_rgb(a), _rgb(b), strict=True))


SCHEMES: list[Scheme] = [p for _words, p in _SCHEMES] + list(_FALLBACKS)


@pytest.mark.parametrize("tone", ["", " calm", " minimal", " warm", " cool", " warm and calm"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_hero_button_stands_out_from_the_hero(scheme: Scheme, tone: str) -> None:
    # Every kind of business's scheme, in each look: the hero's call button is visible.
    words = next((w for w, p in _SCHEMES if p == scheme), "")
    example = words.split("|")[0].replace("\\", "") if words else "anything"
    shown = scheme_for(f"a {example} place{tone}", SCHEMES.index(scheme))
    assert _distance(shown.accent, shown.hero) > 40, (shown.accent, shown.hero)


def _example(scheme: Scheme) -> str:
    words = next((w for w, p in _SCHEMES if p == scheme), "")
    return words.split("|")[0].replace("\\", "") if words else "anything"


@pytest.mark.parametrize("tone", ["", " warm", " cosy", " cool", " crisp", " calm and warm", " minimal, cool"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_text_colour_is_legible_on_its_ground(scheme: Scheme, tone: str) -> None:
    shown = scheme_for(f"a {_example(scheme)} place{tone}", SCHEMES.index(scheme))
    assert contrast(shown.hero, shown.on_hero) >= 4.5, shown
    assert contrast(shown.accent, "#ffffff") >= 4.5, shown  # button labels, links on white cards
    assert contrast(shown.ink, shown.tint) >= 4.5, shown


def _hue_distance(a: str, degrees: float) -> float:
    return abs((hsv(a)[0] * 360 - degrees + 180) % 360 - 180)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_warm_brief_warms_the_scheme_and_a_cool_one_cools_it(scheme: Scheme) -> None:
    example, seed = _example(scheme), SCHEMES.index(scheme)
    plain = scheme_for(f"a {example} place", seed)
    warm = scheme_for(f"a {example} place, warm and welcoming", seed)
    cool = scheme_for(f"a {example} place with a crisp feel", seed)
    # The accent moves toward a warm (25°) or a cool (215°) hue, the bands' tint with it.
    assert _hue_distance(warm.accent, 25) <= _hue_distance(plain.accent, 25)
    assert _hue_distance(cool.accent, 215) <= _hue_distance(plain.accent, 215)
    assert warm.tint != cool.tint
    # Both words, or neither: the kind's own scheme.
    assert scheme_for(f"a {example} place, warm yet cool", seed) == plain


def test_legible_darkens_on_a_light_ground_and_lightens_on_a_dark_one() -> None:
    assert contrast("#ffffff", "#000000") == pytest.approx(21)
    darker = legible("#f0a040", "#ffffff")
    assert contrast(darker, "#ffffff") >= 4.5 and hsv(darker)[2] < hsv("#f0a040")[2]
    lighter = legible("#404040", "#101010")
    assert contrast(lighter, "#101010") >= 4.5 and hsv(lighter)[2] > hsv("#404040")[2]
    assert legible("#1f2937", "#ffffff") == "#1f2937"  # already legible: unchanged


@pytest.mark.parametrize("tone", ["warmer", "cooler"])
@pytest.mark.parametrize("hue", range(0, 360, 15))
def test_a_toned_colour_keeps_its_words_legible_on_white(tone: str, hue: int) -> None:
    # A follow-up's "warmer palette" tones every colour of the page: an accent whose words read
    # at 4.5:1 or more on white must still, though the hue moved (teal to green grows lighter).
    accent = legible(_hex_of(hue / 360, 0.85, 0.75), "#ffffff", 4.7)
    toned = tone_of(tone)(accent)
    assert contrast(toned, "#ffffff") >= contrast(accent, "#ffffff") - 0.05
    assert contrast(toned, tone_of(tone)("#ffffff")) >= 4.5


def test_the_vets_teal_warmed_stays_legible_on_its_cream() -> None:
    # The eval suite's vet: the clinic teal, "Use a warmer palette.", words on the warmed white.
    assert contrast(tone_of("warmer")("#0e7490"), tone_of("warmer")("#ffffff")) >= 4.5


def _hex_of(h: float, s: float, v: float) -> str:
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return "#" + "".join(f"{round(x * 255):02x}" for x in (r, g, b))
