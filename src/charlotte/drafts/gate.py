"""The quality gate of publishing: the page's ``error`` quality findings hold it back unless overridden.

``Workspace.publish`` asks ``gate`` before it writes the published copy. The
findings are ``checks.quality.quality_findings`` of the draft (placeholders,
text under 3:1, images without a text alternative, no ``h1``, nameless links
and buttons); warnings never hold a page back. A person who has seen the
findings may publish anyway by naming every error code in ``override``; the
codes that let the page through are recorded in the ``page.published`` event.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from charlotte.checks.findings import Finding
from charlotte.checks.quality import QUALITY_CODES, quality_findings
from charlotte.errors import Refused
from charlotte.page.assets import AssetLibrary

#: The most codes a publish request's ``override`` may name.
MAX_OVERRIDE: Final = 20


def check_override(override: object) -> tuple[str, ...]:
    """``override`` as codes, or ``invalid_request`` naming ``override``: ≤ 20 known quality codes."""
    if not isinstance(override, list | tuple) or len(override) > MAX_OVERRIDE:
        raise Refused("invalid_request", detail={"field": "override"})
    if not all(isinstance(code, str) and code in QUALITY_CODES for code in override):
        raise Refused("invalid_request", detail={"field": "override"})
    return tuple(dict.fromkeys(override))


def findings_json(findings: Sequence[Finding]) -> list[dict[str, str | None]]:
    """The findings as the API carries them (``{code, node, severity, message}``), errors first."""
    ordered = sorted(findings, key=lambda f: f.severity != "error")
    return [
        {"code": f.code, "node": f.node, "severity": f.severity, "message": f.message}
        for f in ordered
    ]


def gate(doc: object, assets: AssetLibrary, override: Collection[str]) -> list[str]:
    """The error codes ``override`` lets through (sorted); ``quality_gate`` when some are not overridden."""
    findings = quality_findings(doc, assets=assets)
    errors = [f for f in findings if f.severity == "error"]
    codes = sorted({f.code for f in errors})
    if any(code not in override for code in codes):
        raise Refused(
            "quality_gate",
            detail={"findings": findings_json(errors), "codes": codes},
        )
    return codes
