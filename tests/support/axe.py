"""axe-core (the pinned one ``axe-playwright-python`` packages) on a page in Chromium, for the tests.

``axe_rule_ids(html)`` is what a test compares with: the ids of the axe rules a
page breaks. ``SEEDED_BAD_PAGE`` breaks five rules on purpose (``SEEDED_RULES``);
the document checks that must agree with axe run on the same page.
"""

from __future__ import annotations

from typing import Final

import pytest
from playwright.sync_api import Browser as Launched
from tests.support.browser import chromium

from charlotte.evaluation.axe import AxeResult, axe_source
from charlotte.evaluation.overflow import Browser

__all__ = ["SEEDED_BAD_PAGE", "SEEDED_RULES", "axe_on", "axe_rule_ids", "needs_axe"]

#: Skip marker for the axe tests (CI installs the dev extra that packages axe; a skip fails CI).
needs_axe: Final = pytest.mark.skipif(
    axe_source() is None, reason="axe-playwright-python (the dev extra) is not installed"
)

#: A page that breaks, once each: colour contrast (#7c2d12 on #111827, about 1.9:1), an image
#: without a text alternative, a heading skip (h1 then h3), a link without a name, and no ``lang``.
SEEDED_BAD_PAGE: Final = (
    "<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\"><title>Seeded</title></head>\n"
    "<body><main>\n"
    '<h1 style="color:#f9fafb;background:#111827">Rosa\'s Bakery</h1>\n'
    '<h3 style="color:#7c2d12;background:#111827">Fresh bread every morning</h3>\n'
    '<img src="/assets/loaf.jpg" width="320" height="200">\n'
    '<p><a href="/menu"></a></p>\n'
    "</main></body>\n</html>\n"
)
#: The axe rules ``SEEDED_BAD_PAGE`` breaks.
SEEDED_RULES: Final = frozenset(
    {"color-contrast", "image-alt", "heading-order", "link-name", "html-has-lang"}
)


def axe_on(launched: Launched, html: str) -> AxeResult:
    """axe's violations of ``html`` at 390, 768 and 1280 px, through ``charlotte eval``'s own runner."""
    return Browser(launched, "").axe(html)


def axe_rule_ids(html: str) -> frozenset[str]:
    """The ids of every axe rule ``html`` breaks at any width (one Chromium, launched and closed here)."""
    with chromium() as launched:
        result = axe_on(launched, html)
    assert result.measured, result.reason
    return frozenset(v.rule for vs in result.violations.values() for v in vs)
