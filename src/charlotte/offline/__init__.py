"""The offline builder: a deterministic model that builds a page through the nine tools.

Like pydantic-ai's shipped test models, it is a real pydantic-ai
``FunctionModel`` (``offline_model``), so the demo, the tests and a host's own
tests run a whole turn with no network. ``Settings(model="offline")`` selects
it (``runtime/models.py`` imports it here).

Modules: ``model`` (``offline_model``: reads the conversation, ``transcript``,
and picks the next tool call; ``existing``: a build turn on a page with content), ``writer`` (``plan_page``: the batches of ops a brief and the
host's facts give), ``bands`` (``build_section``: one band of a kind, the way
``plan_page`` and follow-ups build them), ``context`` (the brief and facts
read once), ``brief`` (what the brief says), ``facts`` (the host's facts,
verbatim), ``sections`` (the section catalogue and each kind's names),
``batch`` (the ops of one batch), ``style`` (palettes, looks, phone-width
sizing); for follow-up turns ``follow_up`` (the turn), ``requests`` (the
message read as typed requests; ``clauses`` cuts it), ``edits`` (a request on
the current page → ops; ``page_view`` reads the page), ``additions``
(``section_batch``: a new section, through ``build_section``) and ``looks``
(colours, palettes, fonts). ``docs/offline.md`` shows the pages it builds and
lists what it understands.

Layer: below ``runtime/``, which imports it; it reads tool results as JSON
and imports only ``checks/`` (``parse_phone``) and ``page/`` of charlotte,
never ``runtime/`` or ``tools/``, so there is no cycle.
"""

from __future__ import annotations

from charlotte.offline.model import OFFLINE_MODEL_NAME, offline_model

__all__ = ["OFFLINE_MODEL_NAME", "offline_model"]
