"""charlotte: an AI page builder a host web application embeds.

An agent edits a *draft* of one fancy-cms page through nine page tools; every
change is an event in a per-session log; a human reviews, approves and
publishes. The agent can never publish.

These are the names a host uses; everything else is internal and may move.
``tests/test_public_api.py`` derives the list from this module and checks
that the README and ``docs/`` use nothing else from ``charlotte``.

- ``Charlotte`` (built once from ``Settings``), ``CharlotteSession`` (a handle
  on one session).
- Hooks and what they are handed: ``Authorizer`` (``authorize_using``; it sees
  a ``SessionRecord``, an ``OpenRequest`` for ``open``, or a ``PublishedRequest``
  for ``read_published``), ``PublishHook`` (``on_publish``), ``Resolver``
  (``resolve_user_using``, ``resolve_tenant_using``), ``TurnContextFactory``
  (``context_using``: ``for_turn(SessionRecord, TurnRecord)`` returns a
  ``TurnContext``), ``Mode`` and ``Guide`` (``charlotte.modes.register``).
- Asset libraries: the ``AssetLibrary`` port, ``InMemoryAssetLibrary``,
  ``FolderAssetLibrary``.
- The log and the checks: ``Event``, ``EventTypes``, ``Finding``.
- What a site serves: ``PublishedPage`` (``published_page``).
- Errors a host catches: ``CharlotteError`` (the root), ``Refused``,
  ``PageSessionError``, ``StorageError``.
- ``empty_doc``: a new page document (for a host's page repository).

Each name is loaded from its module on first use (PEP 562), so
``import charlotte`` (and the ``charlotte`` command's argument parsing) does
not pay for the model library and the app until a name is asked for.
"""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from charlotte.access import Authorizer, OpenRequest, PublishedRequest
    from charlotte.app import Charlotte, Resolver
    from charlotte.checks import Finding
    from charlotte.drafts.published import PublishedPage, PublishHook
    from charlotte.errors import CharlotteError, PageSessionError, Refused, StorageError
    from charlotte.events import Event, EventTypes
    from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary
    from charlotte.page.model import empty_doc
    from charlotte.policy import FolderAssetLibrary
    from charlotte.runtime.guide import Guide
    from charlotte.runtime.modes import Mode
    from charlotte.runtime.turn_context import TurnContext, TurnContextFactory
    from charlotte.session import CharlotteSession
    from charlotte.settings import Settings
    from charlotte.storage import SessionRecord, TurnRecord

__all__ = [
    "AssetLibrary",
    "Authorizer",
    "Charlotte",
    "CharlotteError",
    "CharlotteSession",
    "Event",
    "EventTypes",
    "Finding",
    "FolderAssetLibrary",
    "Guide",
    "InMemoryAssetLibrary",
    "Mode",
    "OpenRequest",
    "PageSessionError",
    "PublishHook",
    "PublishedPage",
    "PublishedRequest",
    "Refused",
    "Resolver",
    "SessionRecord",
    "Settings",
    "StorageError",
    "TurnContext",
    "TurnContextFactory",
    "TurnRecord",
    "empty_doc",
]
__version__ = "0.1.0"

#: Where each exported name lives (the imports above, for the type checker).
_HOMES: dict[str, str] = {
    "AssetLibrary": "charlotte.page.assets",
    "Authorizer": "charlotte.access",
    "Charlotte": "charlotte.app",
    "CharlotteError": "charlotte.errors",
    "CharlotteSession": "charlotte.session",
    "Event": "charlotte.events",
    "EventTypes": "charlotte.events",
    "Finding": "charlotte.checks",
    "FolderAssetLibrary": "charlotte.policy",
    "Guide": "charlotte.runtime.guide",
    "InMemoryAssetLibrary": "charlotte.page.assets",
    "Mode": "charlotte.runtime.modes",
    "OpenRequest": "charlotte.access",
    "PageSessionError": "charlotte.errors",
    "PublishHook": "charlotte.drafts.published",
    "PublishedPage": "charlotte.drafts.published",
    "PublishedRequest": "charlotte.access",
    "Refused": "charlotte.errors",
    "Resolver": "charlotte.app",
    "SessionRecord": "charlotte.storage",
    "Settings": "charlotte.settings",
    "StorageError": "charlotte.errors",
    "TurnContext": "charlotte.runtime.turn_context",
    "TurnContextFactory": "charlotte.runtime.turn_context",
    "TurnRecord": "charlotte.storage",
    "empty_doc": "charlotte.page.model",
}


def __getattr__(name: str) -> _typing.Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'charlotte' has no attribute {name!r}")
    value = getattr(_importlib.import_module(home), name)
    globals()[name] = value  # loaded once; later lookups are plain attributes
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
