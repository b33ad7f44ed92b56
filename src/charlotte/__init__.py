"""charlotte: an AI page builder a host web application embeds.

An agent edits a *draft* of one fancy-cms page through nine page tools; every
change is an event in a per-session log; a human reviews, approves and
publishes. The agent can never publish.

The public names are re-exported here; ``tests/test_public_api.py`` pins them.
"""

from __future__ import annotations

from charlotte.app import Charlotte
from charlotte.checks import Finding, PageChecks
from charlotte.errors import CharlotteError
from charlotte.events import Event, EventTypes
from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary
from charlotte.page.errors import PageSessionError
from charlotte.page.model import empty_doc
from charlotte.page.node_types import NodeTypes
from charlotte.page.session import Applied, PageSession
from charlotte.policy import AssetPolicy, FolderAssetLibrary, LinkPolicy, Refused
from charlotte.session import CharlotteSession
from charlotte.settings import Settings
from charlotte.storage import StorageError
from charlotte.tools import PageTools, ToolBinding
from charlotte.workspace import SiteLinks, Workspace, Written

__all__ = [
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
]
__version__ = "0.1.0"
