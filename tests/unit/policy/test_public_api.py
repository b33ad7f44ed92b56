from __future__ import annotations

import doctest
import importlib

import pytest

import charlotte.page.hrefs
import charlotte.policy
import charlotte.policy.hrefs
from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary


def test_exported_names_are_pinned() -> None:
    assert sorted(charlotte.policy.__all__) == [
        "AssetLibrary",
        "AssetPolicy",
        "FolderAssetLibrary",
        "InMemoryAssetLibrary",
        "LinkPolicy",
        "css_value_reason",
        "external_origin",
        "introduced_hrefs",
        "is_safe_href",
    ]
    for name in charlotte.policy.__all__:
        assert getattr(charlotte.policy, name) is not None


def test_hrefs_are_re_exported_not_re_implemented() -> None:
    assert charlotte.policy.hrefs.is_safe_href is charlotte.page.hrefs.is_safe_href
    assert charlotte.policy.hrefs.external_origin is charlotte.page.hrefs.external_origin
    assert charlotte.policy.is_safe_href is charlotte.page.hrefs.is_safe_href


def test_asset_library_port_is_re_exported() -> None:
    assert charlotte.policy.AssetLibrary is AssetLibrary
    assert charlotte.policy.InMemoryAssetLibrary is InMemoryAssetLibrary
    assert isinstance(charlotte.policy.FolderAssetLibrary("/nowhere", "/m/"), AssetLibrary)


@pytest.mark.parametrize(
    "module",
    [
        "charlotte.policy.assets",
        "charlotte.policy.css_values",
        "charlotte.policy.links",
    ],
)
def test_docstring_examples_hold(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0
    assert result.failed == 0
