"""Horizontal overflow of a rendered page at 390, 768 and 1280 px, and a screenshot, through Chromium.

Measured only when ``/usr/bin/chromium`` and Playwright's Python package are
both there (Playwright is a dev extra, imported inside ``Browser.open`` and
nowhere else); otherwise every result says *not measured* and why, and the
evaluation goes on. The page is loaded with JavaScript off and the network
cut (the rendered page needs neither), so a page can fetch nothing.
``Browser.axe`` runs axe-core (``evaluation/axe.py``) in the same Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from charlotte.evaluation.axe import AxeResult, Violation, axe_source, run_axe

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "WIDTHS", "Browser", "Overflow"]

CHROMIUM: Final = Path("/usr/bin/chromium")
CHROMIUM_ARGS: Final = (
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
)
#: Viewport widths measured (px): a phone, a tablet, a laptop.
WIDTHS: Final = (390, 768, 1280)
_HEIGHT: Final = 844
_WAIT_MS: Final = 30_000
#: The tallest screenshot kept (px at 390 wide): enough to see a page's shape.
_MAX_SHOT_HEIGHT: Final = 4_000


@dataclass(frozen=True, slots=True)
class Overflow:
    """Pixels a page is wider than each viewport (0: fits), a 390 px screenshot, or why not measured."""

    measured: bool
    pixels: Mapping[int, int] = field(default_factory=dict)
    screenshot: bytes | None = None
    reason: str = ""

    def worst(self) -> int | None:
        """The largest overflow over the widths (None when not measured)."""
        return max(self.pixels.values(), default=0) if self.measured else None

    def to_json(self) -> dict[str, Any]:
        """``{"measured", "pixels": {width: px}, "reason"}`` (the screenshot is written apart)."""
        return {
            "measured": self.measured,
            "pixels": {str(w): px for w, px in self.pixels.items()},
            "reason": self.reason,
        }


class Browser:
    """One Chromium for a whole run (or none: every ``measure`` then says not measured)."""

    def __init__(self, browser: Any, reason: str) -> None:
        self._browser = browser
        self.reason = reason
        self._axe = axe_source() if browser is not None else None

    @classmethod
    @contextmanager
    def open(cls, wanted: bool = True) -> Iterator[Browser]:
        """A browser when Chromium and Playwright are present and ``wanted``; closed on exit."""
        if not wanted:
            yield cls(None, "not asked for")
            return
        if not CHROMIUM.exists():
            yield cls(None, f"{CHROMIUM} not found")
            return
        try:
            from playwright.sync_api import Error, sync_playwright
        except ImportError:
            yield cls(None, "playwright is not installed")
            return
        with sync_playwright() as playwright:
            try:
                launched = playwright.chromium.launch(
                    executable_path=str(CHROMIUM),
                    args=list(CHROMIUM_ARGS),
                    headless=True,
                    timeout=_WAIT_MS,
                )
            except Error:
                yield cls(None, "chromium did not start")
                return
            try:
                yield cls(launched, "")
            finally:
                launched.close()

    def measure(self, html: str) -> Overflow:
        """The overflow of ``html`` at each width and a 390 px screenshot (or why not measured)."""
        if self._browser is None:
            return Overflow(False, reason=self.reason)
        from playwright.sync_api import Error

        pixels: dict[int, int] = {}
        shot: bytes | None = None
        try:
            for width in WIDTHS:
                context = self._browser.new_context(
                    viewport={"width": width, "height": _HEIGHT}, java_script_enabled=False
                )
                try:
                    page = context.new_page()
                    page.route("**/*", lambda route: route.abort())
                    page.set_content(html, wait_until="load", timeout=_WAIT_MS)
                    # Evaluated by the driver, not by the page (its own scripts are off).
                    scroll = int(page.evaluate("document.documentElement.scrollWidth"))
                    pixels[width] = max(0, scroll - width)
                    if width == WIDTHS[0]:
                        height = int(page.evaluate("document.documentElement.scrollHeight"))
                        clip = {
                            "x": 0,
                            "y": 0,
                            "width": width,
                            "height": min(height, _MAX_SHOT_HEIGHT),
                        }
                        shot = page.screenshot(type="jpeg", quality=60, clip=clip, full_page=True)
                finally:
                    context.close()
        except Error:
            return Overflow(False, reason="the page could not be measured")
        return Overflow(True, pixels, shot)

    def axe(self, html: str) -> AxeResult:
        """axe's violations of ``html`` at each width (or why not measured): one load, resized."""
        if self._browser is None:
            return AxeResult(False, reason=self.reason)
        if self._axe is None:
            return AxeResult(False, reason="axe-playwright-python is not installed")
        from playwright.sync_api import Error

        found: dict[int, tuple[Violation, ...]] = {}
        # axe is a script, so this context runs scripts; the rendered page has none of its own.
        context = self._browser.new_context(viewport={"width": WIDTHS[0], "height": _HEIGHT})
        try:
            page = context.new_page()
            page.route("**/*", lambda route: route.abort())
            page.set_content(html, wait_until="load", timeout=_WAIT_MS)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": _HEIGHT})
                found[width] = run_axe(page, self._axe)
        except Error:
            return AxeResult(False, reason="axe could not run on the page")
        finally:
            context.close()
        return AxeResult(True, found)
