"""The asset-library port and its in-memory implementation."""

from __future__ import annotations

import pytest

from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary


def test_in_memory_library_knows_its_assets() -> None:
    assets = InMemoryAssetLibrary({"logo": "/media/logo.png"})
    assert assets.exists("logo") is True
    assert assets.exists("other") is False
    assert assets.url("logo") == "/media/logo.png"
    with pytest.raises(KeyError):
        assets.url("other")


def test_empty_library() -> None:
    for assets in (InMemoryAssetLibrary(), InMemoryAssetLibrary(None), InMemoryAssetLibrary({})):
        assert assets.exists("logo") is False


def test_mapping_is_copied() -> None:
    urls = {"logo": "/a.png"}
    assets = InMemoryAssetLibrary(urls)
    urls["logo"] = "/b.png"
    urls["new"] = "/c.png"
    assert assets.url("logo") == "/a.png"
    assert not assets.exists("new")


def test_non_string_ids_do_not_exist() -> None:
    assets = InMemoryAssetLibrary({"1": "/a.png"})
    assert assets.exists(1) is False  # type: ignore[arg-type]
    assert assets.exists(["1"]) is False  # type: ignore[arg-type]


class FolderLike:
    def exists(self, asset_id: str) -> bool:
        return asset_id == "x"

    def url(self, asset_id: str) -> str:
        return f"/files/{asset_id}"


class NotALibrary:
    def exists(self, asset_id: str) -> bool:
        return False


def test_protocol_is_runtime_checkable() -> None:
    assert isinstance(InMemoryAssetLibrary(), AssetLibrary)
    assert isinstance(FolderLike(), AssetLibrary)
    assert not isinstance(NotALibrary(), AssetLibrary)
    assert not isinstance(object(), AssetLibrary)


def test_repr_names_the_size_not_the_urls() -> None:
    assert repr(InMemoryAssetLibrary({"a": "/secret-path.png"})) == "InMemoryAssetLibrary(1 assets)"
