"""The assets check: what AssetPolicy would refuse, as findings."""

from __future__ import annotations

from typing import Any

from charlotte.checks import Finding, PageChecks
from charlotte.errors import MESSAGES
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.policy import AssetPolicy

LIBRARY = InMemoryAssetLibrary({"hero": "/media/hero.jpg"})


def test_library_assets_and_plain_styles_pass(build: Any) -> None:
    doc = build(
        ("h", "heading", {"content": "Rose Bakery"}),
        {
            "id": "img",
            "type": "image",
            "props": {"asset": "hero", "alt": "Loaves"},
            "style": {"base": {"background": "#fff", "radius": {"value": 8, "unit": "px"}}},
        },
    )
    assert PageChecks(assets=LIBRARY).run(doc, only=["assets"]) == []


def test_each_refusal_is_an_error_finding_with_the_policy_sentence(build: Any) -> None:
    doc = build(
        ("unknown", "image", {"asset": "not-in-library", "alt": "x"}),
        ("authored", "image", {"asset": "hero", "src": "https://evil.example/a.png", "alt": "x"}),
        ("sized", "image", {"asset": "hero", "width": 300, "alt": "x"}),
        {"id": "fetch", "type": "section", "style": {"base": {"background": "url(x.png)"}}},
        {"id": "escape", "type": "section", "style": {"base": {"color": "red\\9"}}},
        {"id": "comment", "type": "section", "style": {"md": {"color": "red /* x */"}, "base": {}}},
    )
    findings = PageChecks(assets=LIBRARY).run(doc, only=["assets"])
    assert [(f.node, f.code) for f in findings] == [
        ("unknown", "authored_asset"),
        ("authored", "authored_asset"),
        ("sized", "asset_dimensions"),
        ("fetch", "css_fetch"),
        ("escape", "css_escape"),
        ("comment", "css_comment"),
    ]
    assert all(f.check == "assets" and f.severity == "error" for f in findings)
    assert all(f.message == MESSAGES[f.code] for f in findings)
    # The same problems the policy itself reports (it orders by id, the check by reading order).
    assert sorted((f.node, f.code) for f in findings) == sorted(AssetPolicy(LIBRARY).problems(doc))


def test_without_an_asset_library_no_image_asset_is_known(build: Any) -> None:
    doc = build(("img", "image", {"asset": "hero", "alt": "Loaves"}))
    assert PageChecks().run(doc, only=["assets"]) == [
        Finding("assets", "img", "error", "authored_asset", MESSAGES["authored_asset"])
    ]
