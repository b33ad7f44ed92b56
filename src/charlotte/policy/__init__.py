"""What is allowed on a page: the policies that raise ``charlotte.errors.Refused``.

- ``AssetPolicy``: library assets only, inert CSS values only (after every write).
- ``LinkPolicy``: safe hrefs, allowed external origins (agent ops, before the write).
- Asset libraries: the ``AssetLibrary`` port, ``InMemoryAssetLibrary`` and
  ``FolderAssetLibrary``.

Href safety is ``charlotte.page.hrefs`` (``is_safe_href``, ``external_origin``):
the renderer, the checks and the link policy all import it from there.
"""

from __future__ import annotations

from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary
from charlotte.policy.assets import AssetPolicy, FolderAssetLibrary
from charlotte.policy.css_values import css_value_reason
from charlotte.policy.links import LinkPolicy, introduced_hrefs

__all__ = [
    "AssetLibrary",
    "AssetPolicy",
    "FolderAssetLibrary",
    "InMemoryAssetLibrary",
    "LinkPolicy",
    "css_value_reason",
    "introduced_hrefs",
]
