"""Benchmark: render_html + emit_css of a realistic 2,000-node page.

Run with ``.venv/bin/python -m bench.render``; prints the figures as JSON.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from bench.pages import PageBuilder
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.css import emit_css
from charlotte.page.render import render_html

SECTIONS = 25
CARDS_PER_SECTION = 12
RUNS = 7


def _px(value: float, unit: str = "px") -> dict[str, Any]:
    return {"value": value, "unit": unit}


def _card(page: PageBuilder, grid: str, s: int, c: int) -> None:
    card = page.add(
        f"s{s}-card{c}",
        "card",
        grid,
        layout="stack",
        style={
            "base": {
                "padding": _px(16),
                "radius": _px(12),
                "background": "#ffffff",
                "boxShadow": "0 1px 3px rgba(0,0,0,0.12)",
                "gap": _px(8),
            },
            "md": {"padding": _px(20)},
        },
    )
    page.add(
        f"s{s}-card{c}-img",
        "image",
        card,
        props={"asset": f"photo-{c}", "alt": "A photo"},
        constraints={"base": {"width": "fill", "height": _px(180)}},
        style={"base": {"radius": _px(8)}},
    )
    page.add(
        f"s{s}-card{c}-title",
        "heading",
        card,
        props={"content": f"Card {c} & friends", "level": 3},
        style={"base": {"fontSize": _px(1.25, "rem"), "fontWeight": 600}},
    )
    page.add(
        f"s{s}-card{c}-body",
        "text",
        card,
        props={"content": "Fresh bread every morning, baked with <love> since 1982. " * 3},
        style={"base": {"lineHeight": 1.6, "color": "#334155"}},
    )
    page.add(
        f"s{s}-card{c}-cta",
        "button",
        card,
        props={"label": "Order now", "href": f"/order/{c}", "variant": "primary"},
    )
    page.add(
        f"s{s}-card{c}-more",
        "link",
        card,
        props={"content": "Learn more", "href": f"https://example.com/more/{c}?s={s}"},
    )


def build_page() -> dict[str, Any]:
    """A 2,000-node page: sections with headings, copy, a grid of cards, callouts and code."""
    page = PageBuilder()
    for s in range(SECTIONS):
        section = page.add(
            f"s{s}",
            "section",
            None,
            layout="stack",
            className="band" if s % 2 else "",
            style={
                "base": {
                    "padding": _px(32),
                    "background": "#f8fafc",
                    "gap": _px(24),
                    "align": "center",
                },
                "md": {"padding": _px(64)},
                "lg": {"padding": _px(96), "direction": "row"},
            },
        )
        page.add(
            f"s{s}-h",
            "heading",
            section,
            props={"content": f"Section {s}", "level": 2},
            style={
                "base": {"fontSize": _px(2, "rem"), "textAlign": "center"},
                "lg": {"fontSize": _px(3, "rem")},
            },
        )
        grid = page.add(
            f"s{s}-grid",
            "grid",
            section,
            layout="grid",
            style={"base": {"columns": 1, "gap": _px(16)}, "md": {"gap": _px(24)}},
        )
        for c in range(CARDS_PER_SECTION):
            _card(page, grid, s, c)
        page.add(f"s{s}-hr", "divider", section)
        page.add(
            f"s{s}-note",
            "callout",
            section,
            props={"content": "Closed on public holidays.", "variant": "info"},
        )
        page.add(f"s{s}-code", "code", section, props={"content": "<b>menu</b>", "lang": "html"})
        frame = page.add(
            f"s{s}-frame",
            "frame",
            section,
            layout="free",
            constraints={"base": {"width": "fill", "height": _px(320)}},
        )
        page.add(
            f"s{s}-badge",
            "text",
            frame,
            props={"content": "New"},
            constraints={
                "base": {"centerX": True, "top": _px(12), "width": "hug", "height": "hug"},
                "md": {"top": _px(24)},
            },
        )
    return page.doc


def run() -> dict[str, float]:
    """Median milliseconds to render HTML and CSS of the 2,000-node page."""
    doc = build_page()
    nodes = len(doc["nodes"])
    if nodes != 2000:
        raise RuntimeError(f"the benchmark page has {nodes} nodes, not 2000")
    assets = InMemoryAssetLibrary(
        {f"photo-{c}": f"/media/photo-{c}.jpg" for c in range(CARDS_PER_SECTION)}
    )
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        render_html(doc, assets=assets)
        emit_css(doc)
        times.append((time.perf_counter() - start) * 1000)
    return {"render_ms_2000_nodes": round(statistics.median(times), 2)}


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
