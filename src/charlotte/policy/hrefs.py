"""Href safety for policy users: the browser-grade checks of ``charlotte.page.hrefs``.

Re-exported, not re-implemented: the renderer, the checks and the link policy
must agree on what a safe href is.
"""

from __future__ import annotations

from charlotte.page.hrefs import external_origin, is_safe_href

__all__ = ["external_origin", "is_safe_href"]
