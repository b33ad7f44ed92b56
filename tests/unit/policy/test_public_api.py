from __future__ import annotations

import doctest
import importlib

import pytest

import charlotte.policy
from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary


def test_exported_names_are_pinned() -> None:
    assert sorted(charlotte.policy.__all__) == [
        "AssetLibrary",
        "AssetPolicy",
        "FolderAssetLibrary",
        "InMemoryAssetLibrary",
        "LinkPolicy",
        "css_value_reason",
        "introduced_hrefs",
    ]
    for name in charlotte.policy.__all__:
        assert getattr(charlotte.policy, name) is not None


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
