"""In-process fakes and port contracts that ship with charlotte, for hosts' own tests.

- ``ScriptedModel`` (``scripted.py``): a pydantic-ai ``FunctionModel`` that
  plays a fixed list of steps, one per model request, through the real tools.
- ``InMemoryPageRepository`` (``pages.py``): a ``PageRepository`` keeping
  drafts, published copies and op histories in memory.
- ``charlotte.testing.page_repository_contract``: ``PageRepositoryContract``,
  the pytest test class every page repository passes; a host subclasses it to
  test its own. It imports pytest, so this package does not import it.

A host's test plays a turn through a real ``Charlotte`` (SQLite, the inline
queue) and reads what the tools did:

>>> import tempfile
>>> from charlotte import Charlotte, Settings
>>> hero = {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}}
>>> model = ScriptedModel([
...     ToolCall("cms_outline", {}),
...     ToolCall("cms_apply", lambda results: {"basedOn": results[-1]["revision"], "ops": [hero]}),
...     Text("Added a hero section."),
... ])
>>> folder = tempfile.TemporaryDirectory()
>>> settings = Settings(database_url=f"sqlite:///{folder.name}/host.db", queue="inline")
>>> charlotte = Charlotte(settings, model_factory=lambda: model)
>>> charlotte.migrate()
>>> handle = (charlotte.for_user("ann").tenant("acme").page("home")
...           .brief("A bakery in Leeds.").approve_on_save(False).open())
>>> handle.send("Add a hero")["status"]
'finished'
>>> list(handle.draft()["page"]["nodes"]), model.tool_results[-1]["revision"]
(['hero'], 1)
>>> charlotte.close(); folder.cleanup()

``tests/unit/test_testing.py`` runs this example.
"""

from __future__ import annotations

from charlotte.testing.pages import InMemoryPageRepository
from charlotte.testing.scripted import Finish, ScriptedModel, Step, Text, ToolCall, ToolCalls

__all__ = ["Finish", "InMemoryPageRepository", "ScriptedModel", "Step", "Text", "ToolCall", "ToolCalls"]
