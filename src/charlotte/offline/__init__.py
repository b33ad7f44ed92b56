"""The offline builder: a deterministic model that builds a page through the nine tools.

Like pydantic-ai's shipped test models, it is a real pydantic-ai
``FunctionModel`` (``offline_model``), so the demo, the tests and a host's own
tests run a whole turn with no network. ``Settings(model="offline")`` selects
it (``runtime/models.py`` imports it here).

Modules: ``model`` (``offline_model``: reads the conversation, ``transcript``,
and picks the next tool call; ``existing``: a build turn on a page with
content); for follow-up turns ``follow_up`` (the turn), ``requests`` (the
message read as typed requests; ``clauses`` cuts it), ``edits`` (a request on
the current page → ops) and ``looks`` (colours, colour schemes, fonts). The
pages and bands it writes come from ``charlotte.sections`` (``plan_page``,
``build_section``, ``section_batch``, the catalogue), which the builder
page's palette shares. ``docs/offline.md`` shows the pages it builds and
lists what it understands.

Layer: below ``runtime/``, which imports it; it reads tool results as JSON
and imports only ``sections/``, ``checks/`` and ``page/`` of charlotte,
never ``runtime/`` or ``tools/``, so there is no cycle.
"""

from __future__ import annotations

from charlotte.offline.model import OFFLINE_MODEL_NAME, offline_model

__all__ = ["OFFLINE_MODEL_NAME", "offline_model"]
