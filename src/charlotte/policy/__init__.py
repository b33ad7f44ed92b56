"""What is allowed on a page: the policies that raise ``charlotte.errors.Refused``.

- ``AssetPolicy``: library assets only, inert CSS values only (after every write).
- ``LinkPolicy``: safe hrefs, allowed external origins (agent ops, before the write).
- ``hrefs``: ``is_safe_href`` and ``external_origin`` (from ``charlotte.page.hrefs``).
- Asset libraries: the ``AssetLibrary`` port, ``InMemoryAssetLibrary`` and
  ``FolderAssetLibrary``.
"""

from __future__ import annotations

from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary
from charlotte.policy.assets import AssetPolicy, FolderAssetLibrary
from charlotte.policy.css_values import css_value_reason
from charlotte.policy.hrefs import external_origin, is_safe_href
from charlotte.policy.links import LinkPolicy, introduced_hrefs

__all__ = [
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
