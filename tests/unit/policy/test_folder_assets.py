from __future__ import annotations

import os
from pathlib import Path

import pytest

from charlotte.errors import Refused
from charlotte.policy import AssetPolicy, FolderAssetLibrary

BASE = "https://cdn.bakery.test/media/"


@pytest.fixture
def library(tmp_path: Path) -> FolderAssetLibrary:
    media = tmp_path / "media"
    media.mkdir()
    (media / "logo.png").write_bytes(b"png")
    (media / "my cake #1.jpg").write_bytes(b"jpg")
    (media / ".env").write_text("SECRET=1")
    (media / "sub").mkdir()
    (media / "sub" / "x.png").write_bytes(b"png")
    (tmp_path / "outside.png").write_bytes(b"png")
    os.symlink(tmp_path / "outside.png", media / "link.png")
    return FolderAssetLibrary(media, BASE)


def test_files_in_the_folder_exist_and_have_urls(library: FolderAssetLibrary) -> None:
    assert library.exists("logo.png")
    assert library.url("logo.png") == BASE + "logo.png"
    assert library.exists("my cake #1.jpg")
    assert library.url("my cake #1.jpg") == BASE + "my%20cake%20%231.jpg"


@pytest.mark.parametrize(
    "asset_id",
    [
        "missing.png",
        "",
        ".",
        "..",
        "../outside.png",
        "..%2Foutside.png",
        "sub",
        "sub/x.png",
        "./logo.png",
        "/etc/passwd",
        "\\logo.png",
        "sub\\x.png",
        ".env",
        "link.png",
        " logo.png",
        "logo.png ",
        "logo.png\x00",
        "logo\n.png",
        "C:logo.png",
        "logo.png:stream",
        "x" * 300,
        "\udcff.png",
        None,
        7,
    ],
)
def test_path_tricks_never_exist(library: FolderAssetLibrary, asset_id: object) -> None:
    assert library.exists(asset_id) is False  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        library.url(asset_id)  # type: ignore[arg-type]


def test_a_missing_folder_has_no_assets(tmp_path: Path) -> None:
    library = FolderAssetLibrary(tmp_path / "nowhere", "/m/")
    assert not library.exists("logo.png")


def test_asset_policy_works_over_a_folder(library: FolderAssetLibrary) -> None:
    policy = AssetPolicy(library)
    good = {"nodes": {"a": {"id": "a", "type": "image", "props": {"asset": "logo.png"}}}}
    bad = {"nodes": {"a": {"id": "a", "type": "image", "props": {"asset": "../outside.png"}}}}
    policy.assert_doc(good)
    with pytest.raises(Refused) as caught:
        policy.assert_doc(bad)
    assert caught.value.reason == "authored_asset"


def test_repr_names_folder_and_base(library: FolderAssetLibrary) -> None:
    assert repr(library).startswith("FolderAssetLibrary(") and BASE in repr(library)
