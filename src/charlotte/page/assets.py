"""The host's asset library: the only source of image URLs a page may show.

Pages never carry authored image URLs; an image node names an asset id and the
renderer asks the host's library for its URL. ``InMemoryAssetLibrary`` is the
in-process implementation for tests and demos.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable


@runtime_checkable
class AssetLibrary(Protocol):
    """The host's asset library: knows which asset ids exist and where they are served."""

    def exists(self, asset_id: str) -> bool:
        """True when ``asset_id`` names an asset of this library."""
        ...

    def url(self, asset_id: str) -> str:
        """The URL the asset is served at (only called for ids that exist)."""
        ...


class InMemoryAssetLibrary:
    """An ``AssetLibrary`` held in a dict of asset id → URL.

    >>> assets = InMemoryAssetLibrary({"logo": "/media/logo.png"})
    >>> assets.exists("logo"), assets.url("logo"), assets.exists("other")
    (True, '/media/logo.png', False)
    """

    __slots__ = ("_urls",)

    def __init__(self, mapping: Mapping[str, str] | None = None) -> None:
        # Copied, so later changes to the caller's dict do not leak in.
        self._urls: dict[str, str] = dict(mapping or {})

    def exists(self, asset_id: str) -> bool:
        """True when ``asset_id`` is a key of the mapping."""
        return isinstance(asset_id, str) and asset_id in self._urls

    def url(self, asset_id: str) -> str:
        """The URL of ``asset_id``; raises ``KeyError`` for an unknown id."""
        return self._urls[asset_id]

    def __repr__(self) -> str:
        return f"InMemoryAssetLibrary({len(self._urls)} assets)"
