"""The builder's contrast measure (``web/js/contrast.js``) equals WCAG 2.2's, computed here in Python.

The reference below is the formula as WCAG 2.2 writes it (relative luminance
from linearised sRGB channels, ratio ``(L1 + 0.05) / (L2 + 0.05)``), with
translucent colours drawn over an opaque background. One Node process
measures a few thousand random pairs written the ways the page's styles write
colours (hex 3/4/6/8, ``rgb()``/``rgba()`` with commas or spaces and
percentages, names); the ratio must agree to 1e-9 and the verdict exactly.
"""

from __future__ import annotations

import random
from typing import Any, Final

from tests.support.node_js import first_difference, module_url, needs_node, run_node

pytestmark = needs_node

RUNNER: Final = """
import { measure } from %s;
console.log(JSON.stringify(INPUT.map(([fg, bg, size, bold]) => {
  const m = measure(fg, bg, { fontSizePx: size, bold });
  return [m.verdict, m.ratio];
})));
"""

NAMED: Final = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "navy": (0, 0, 128),
    "silver": (192, 192, 192),
    "rebeccapurple": (102, 51, 153),
    "gray": (128, 128, 128),
    "orange": (255, 165, 0),
}

Colour = tuple[float, float, float, float]


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _luminance(r: float, g: float, b: float) -> float:
    return 0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)


def _over(top: Colour, bottom: Colour) -> Colour:
    a = top[3]
    return (
        top[0] * a + bottom[0] * (1 - a),
        top[1] * a + bottom[1] * (1 - a),
        top[2] * a + bottom[2] * (1 - a),
        1.0,
    )


def reference(fg: Colour, bg: Colour, size: float, bold: bool) -> list[Any]:
    """WCAG 2.2's verdict and ratio for text ``fg`` on ``bg`` (both over the page's white)."""
    back = _over(bg, (255, 255, 255, 1))
    front = _over(fg, back)
    one, two = sorted((_luminance(*front[:3]), _luminance(*back[:3])), reverse=True)
    ratio = (one + 0.05) / (two + 0.05)
    large = size >= 24 or (bold and size >= 18.66)
    minimum = 3 if large else 4.5
    return ["very_low" if ratio < 3 else "low" if ratio < minimum else "ok", ratio]


def _written(rng: random.Random) -> tuple[str, Colour]:
    """A random colour as a style may write it, and its value."""
    r, g, b = (rng.randrange(256) for _ in range(3))
    form = rng.randrange(7)
    if form == 0:
        return f"#{r:02x}{g:02x}{b:02x}", (r, g, b, 1.0)
    if form == 1:
        r, g, b = (17 * (c // 17) for c in (r, g, b))
        return f"#{r // 17:x}{g // 17:x}{b // 17:X}", (r, g, b, 1)
    if form == 2:
        a = rng.randrange(256)
        return f"#{r:02X}{g:02x}{b:02x}{a:02x}", (r, g, b, a / 255)
    if form == 3:
        a = rng.randrange(101) / 100
        return f"rgba({r}, {g},{b}, {a})", (r, g, b, a)
    if form == 4:
        pr, pg, pb = (rng.randrange(101) for _ in range(3))
        alpha = rng.randrange(101)
        return f"rgb({pr}% {pg}% {pb}% / {alpha}%)", (
            pr * 255 / 100,
            pg * 255 / 100,
            pb * 255 / 100,
            alpha / 100,
        )
    if form == 5:
        name = rng.choice(sorted(NAMED))
        return name.upper() if rng.random() < 0.3 else name, (*NAMED[name], 1)
    return f"rgb({r} {g} {b})", (r, g, b, 1)


def _cases(seed: int, count: int) -> tuple[list[Any], list[Any]]:
    rng = random.Random(seed)
    cases: list[Any] = []
    expected: list[Any] = []
    for _ in range(count):
        fg_text, fg = _written(rng)
        bg_text, bg = _written(rng)
        size = rng.choice([12, 16, 18, 18.66, 20, 24, 32])
        bold = rng.random() < 0.5
        cases.append([fg_text, bg_text, size, bold])
        expected.append(reference(fg, bg, size, bold))
    return cases, expected


def _close(got: list[Any], expected: list[Any]) -> list[Any]:
    # Floating point: the ratio to 1e-9 (the verdict must match exactly).
    return [
        e if g[0] == e[0] and abs(g[1] - e[1]) < 1e-9 else g
        for g, e in zip(got, expected, strict=True)
    ]


def test_contrast_js_is_wcag_on_random_colours() -> None:
    cases, expected = _cases(2031, 4000)
    got = run_node(RUNNER % f'"{module_url("contrast")}"', cases)
    assert not first_difference(_close(got, expected), expected, cases)
    verdicts = {e[0] for e in expected}
    assert verdicts == {"ok", "low", "very_low"}


def test_contrast_js_on_the_bounds() -> None:
    # Greys whose ratio on white sits around each bound: the verdict flips where WCAG's does.
    cases = [
        [f"#{v:02x}{v:02x}{v:02x}", "#ffffff", size, False]
        for v in range(100, 180)
        for size in (16, 24)
    ]
    expected = [
        reference((int(v, 16), int(v, 16), int(v, 16), 1.0), (255, 255, 255, 1.0), size, False)
        for v, size in ((c[0][1:3], c[2]) for c in cases)
    ]
    got = run_node(RUNNER % f'"{module_url("contrast")}"', cases)
    assert not first_difference(_close(got, expected), expected, cases)
