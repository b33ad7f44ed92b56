"""The public API is pinned: adding or removing a name is a deliberate change."""

from __future__ import annotations

import charlotte
from charlotte import errors

PUBLIC = {
    "Applied",
    "AssetLibrary",
    "AssetPolicy",
    "Charlotte",
    "CharlotteError",
    "CharlotteSession",
    "Event",
    "EventTypes",
    "Finding",
    "FolderAssetLibrary",
    "InMemoryAssetLibrary",
    "LinkPolicy",
    "NodeTypes",
    "PageChecks",
    "PageSession",
    "PageSessionError",
    "PageTools",
    "Refused",
    "Settings",
    "SiteLinks",
    "StorageError",
    "ToolBinding",
    "Workspace",
    "Written",
    "empty_doc",
}


def test_public_names_are_pinned() -> None:
    assert set(charlotte.__all__) == PUBLIC
    for name in PUBLIC:
        assert getattr(charlotte, name) is not None


def test_every_error_descends_from_the_one_root() -> None:
    for cls in (errors.PageSessionError, errors.Refused, errors.StorageError):
        assert issubclass(cls, errors.CharlotteError)
