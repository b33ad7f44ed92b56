"""``PageTools``: the nine page tools, dispatched by exact name, acting only through a binding.

>>> tools = PageTools(workspace)                                   # doctest: +SKIP
>>> binding = ToolBinding.for_session(session.id, session.tenant, session.page)  # doctest: +SKIP
>>> tools.call("cms_apply", {"basedOn": 0, "ops": [...]}, binding)  # doctest: +SKIP
{'revision': 2, 'applied': 2, 'notices': []}

Every call, in this order: the binding must carry the session's own scope
(``forbidden``), the session must exist in the binding's tenant (``not_found``)
and be on the binding's page (``forbidden``), the name must be one of the nine
(``unknown_tool``) and the arguments must match its schema
(``invalid_arguments``). Then the tool runs. ``PageSessionError`` and
``Refused`` become coded failure results, except ``invalid_state`` (a corrupt
stored draft: host corruption), which propagates. Any other exception
propagates too: the runtime turns it into a coded failure, so its message never
reaches the model.

Writes go through ``Workspace.agent_apply`` (actor ``agent``, LinkPolicy before,
AssetPolicy after, one transaction and its ``page.changed`` event). Reads load
the draft through ``PageSession``, so a legacy document is migrated and a
corrupt one is refused the same way a write would refuse it.

In an ``approve_on_save`` session the agent works on its open change set
instead (``charlotte.drafts.change_sets``): ``cms_apply`` writes through
``ChangeSets.apply_agent_ops``, and while a set is open ``cms_get``,
``cms_outline``, ``cms_find``, ``cms_changes_since``, ``cms_check`` (and
``cms_ready``) read its working copy. Results carry ``notices``: each
change-set resolution the agent was not yet told about, exactly once, so the
agent's next call after an approval, a rejection or a conflict says what
happened. ``cms_get``, ``cms_changes_since`` and a successful ``cms_apply``
always have the list; any other result of a call whose arguments parsed has it
when there are notices. After a resolution ``cms_changes_since`` answers
``revision_unknown`` for a revision of the set that names no page any more
(see ``charlotte.drafts.change_sets``).
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from charlotte.checks import Finding, PageChecks
from charlotte.checks.facts import PERSON_MESSAGES
from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.errors import InvalidArguments, PageSessionError, Refused
from charlotte.events import AGENT_ACTOR, is_agent_actor
from charlotte.page.session import PageSession
from charlotte.policy.text import is_unicode_text
from charlotte.storage import SessionRecord, TurnStore, UnitOfWork, Units
from charlotte.tools.arguments import ArgumentParser
from charlotte.tools.binding import ToolBinding
from charlotte.tools.results import (
    UNTRUSTED_NOTE,
    ToolResult,
    error_result,
    failure,
    success,
)
from charlotte.tools.schemas import TOOL_NAMES, ToolDefinition, tool_definitions
from charlotte.tools.views import find, outline, page_view
from charlotte.tools.vouched import read_vouched

#: Builds the checks for a session (brief, facts, site links, assets), given the person's messages
#: in it, oldest first, and what people vouched for on the page (``read_vouched``): evidence too.
ChecksFactory = Callable[[SessionRecord, SiteLinks, Sequence[str], Sequence[str]], PageChecks]
#: The site origin and allowed external origins for one session's tenant.
SiteLinksFor = Callable[[SessionRecord], SiteLinks]

_FIND_LIMIT = 20
#: The tools that run the checks: they read the person's messages with the page, and
#: may run long on a large page, so a caller may run them in a read unit of their own.
CHECKING: Final = frozenset({"cms_check", "cms_ready"})
#: What a tool reads: the page, its revision, the person's messages, what people vouched for.
_View = tuple[dict[str, Any], int, tuple[str, ...], tuple[str, ...]]


class _Call:
    """What a tool gets: the caller's unit of work, and the page it reads, loaded on first use.

    ``cms_apply`` never needs it on success (the write loads and locks the
    draft itself), so a write decodes the document once, not twice.
    ``said``/``vouched``: the person's messages in the session and what people
    vouched for on the page, read with the page for the checking tools (else empty).
    """

    __slots__ = ("_checking", "_tools", "_view", "actor", "turn_id", "unit")

    def __init__(
        self, tools: PageTools, unit: UnitOfWork, binding: ToolBinding, checking: bool
    ) -> None:
        self.unit = unit
        self.turn_id = binding.turn_id if isinstance(binding.turn_id, str) else None
        #: Who the call's writes are attributed to (the binding's: ``agent`` or ``agent:<client>``).
        self.actor = binding.actor
        self._tools = tools
        self._checking = checking
        self._view: _View | None = None

    @property
    def session(self) -> SessionRecord:
        """The session the call works on (the unit's)."""
        return self.unit.session

    def _loaded(self) -> _View:
        if self._view is None:
            self._view = self._tools.view(self.unit, checking=self._checking)
        return self._view

    @property
    def doc(self) -> dict[str, Any]:
        """The page the agent reads (the open set's working copy, else the draft)."""
        return self._loaded()[0]

    @property
    def revision(self) -> int:
        """Its revision."""
        return self._loaded()[1]

    @property
    def said(self) -> tuple[str, ...]:
        """The person's messages in the session, oldest first (read for the checking tools)."""
        return self._loaded()[2]

    @property
    def vouched(self) -> tuple[str, ...]:
        """What people vouched for on the page (read for the checking tools)."""
        return self._loaded()[3]


class PageTools:
    """The closed set of nine page tools (see module docstring).

    ``checks_factory`` builds the ``PageChecks`` that ``cms_check`` and
    ``cms_ready`` run (default: the session's brief and facts, the person's
    messages in this session, the site links, the workspace's asset library).
    Those two tools read the person's messages (``TurnStore.messages_of``, the
    newest ``PERSON_MESSAGES``) and what people vouched for on the page
    (``vouched.read_vouched``: its published copy, people's ops, approved change
    sets) in the transaction that reads the page: four statements more per
    check, no transaction more. ``site_links`` gives the
    site origin and allowed external origins per session (default: the
    workspace's).
    ``change_sets`` holds approve_on_save sessions' writes (default: over the
    same workspace).
    """

    __slots__ = (
        "_arguments",
        "_checks_factory",
        "_definitions",
        "_sets",
        "_site_links",
        "_tools",
        "_turns",
        "_ws",
    )

    def __init__(
        self,
        workspace: Workspace,
        *,
        checks_factory: ChecksFactory | None = None,
        site_links: SiteLinksFor | None = None,
        change_sets: ChangeSets | None = None,
    ) -> None:
        self._ws = workspace
        self._sets = change_sets or ChangeSets(workspace)
        self._turns = TurnStore()
        self._checks_factory = checks_factory or self._default_checks
        self._site_links = site_links or (lambda _session: workspace.links)
        self._definitions = tool_definitions(workspace.node_types)
        self._arguments = ArgumentParser(workspace.node_types)
        self._tools: Mapping[str, Callable[[_Call, dict[str, Any]], ToolResult]] = {
            "cms_get": self._get,
            "cms_outline": self._outline,
            "cms_types": self._types,
            "cms_find": self._find,
            "cms_facts": self._facts,
            "cms_apply": self._apply,
            "cms_changes_since": self._changes_since,
            "cms_check": self._check,
            "cms_ready": self._ready,
        }
        assert tuple(self._tools) == TOOL_NAMES

    def definitions(self) -> list[ToolDefinition]:
        """Name, description and parameters schema of each of the nine tools (fresh copies)."""
        # Copies: the schemas share sub-schemas, and a runtime may rewrite what it registers.
        return copy.deepcopy(list(self._definitions))

    @property
    def units(self) -> Units:
        """Where callers open the units of work the tools take (the workspace's)."""
        return self._ws.units

    @property
    def names(self) -> tuple[str, ...]:
        """The nine tool names."""
        return TOOL_NAMES

    def call(self, unit: UnitOfWork, name: object, arguments: object, binding: ToolBinding) -> ToolResult:
        """Run tool ``name`` with ``arguments`` in the caller's ``unit``, on the session ``binding`` names.

        The caller owns the unit: it opened it on the binding's session (a
        write unit for ``cms_apply`` and the reads that take notices; a read
        unit may serve the checking tools, ``CHECKING``, which may run long on a
        large page), and it commits or rolls back what the call wrote and
        the events it emitted (``page.changed``, ``proposal.opened``). A
        binding not for the unit's session is ``forbidden``, like one for
        another page.
        """
        if not self.accepts(binding):
            return failure("forbidden", None)
        session = unit.session
        if session.id != binding.session_id or session.tenant != binding.tenant:
            return failure("not_found", None)
        if not self.binds(unit, binding):
            return failure("forbidden", None)
        _to_change_set(unit, binding)
        checking = isinstance(name, str) and name in CHECKING
        return self._run(name, arguments, _Call(self, unit, binding, checking))

    @staticmethod
    def accepts(binding: object) -> bool:
        """Whether ``binding`` is one a tool acts through: well formed, with the session's own scope."""
        return _well_formed(binding)

    @staticmethod
    def binds(unit: UnitOfWork, binding: ToolBinding) -> bool:
        """Whether ``binding`` names the unit's session, in its tenant and on its page."""
        session = unit.session
        return (session.id, session.tenant, session.page) == (
            binding.session_id, binding.tenant, binding.page,
        )  # fmt: skip

    def notices(self, unit: UnitOfWork, binding: ToolBinding | None = None) -> list[dict[str, Any]]:
        """The change-set resolutions not yet told to the agent, taken in the write ``unit`` (each once).

        ``binding``: the call's, when the unit is not yet bound to it (an
        outside agent's calls work on a change set whatever the session's setting).
        """
        if binding is not None:
            _to_change_set(unit, binding)
        if not unit.session.approve_on_save:
            return []  # only approve_on_save sessions have change sets: no query
        return self._sets.pending_notices(unit)

    @staticmethod
    def with_notices(result: ToolResult, notices: list[dict[str, Any]]) -> ToolResult:
        """``result`` carrying ``notices`` (a checking call's, taken before it read)."""
        if not notices or "notices" in result:
            return result
        return {**result, "notices": notices}

    def _run(self, name: object, arguments: object, call: _Call) -> ToolResult:
        """Parse the arguments and run the tool; refusals become coded error results."""
        tool = self._tools.get(name) if isinstance(name, str) else None
        if tool is None:
            return failure("unknown_tool", call.revision)
        assert isinstance(name, str)
        try:
            parsed = self._arguments.parse(name, arguments)
        except InvalidArguments as e:
            return failure("invalid_arguments", call.revision, **e.to_json())
        try:
            result = tool(call, parsed)
        except PageSessionError as e:
            if e.code == "invalid_state":
                raise
            result = error_result(e, call.revision)
        except Refused as e:
            result = error_result(e, call.revision)
        # Any other result (a failed write too: a notice is often the reason
        # for a stale revision) carries the notices when there are any.
        return self.with_notices(result, self._notices(call))

    def view(self, unit: UnitOfWork, *, checking: bool = False) -> _View:
        """What a tool reads in ``unit``: the page and its revision; with ``checking``, what the checks weigh."""
        doc, revision = self._sets.view(unit, shared=True)
        if not checking:
            return doc, revision, (), ()
        session = unit.session
        said = self._turns.messages_of(unit.conn, session.id, session.tenant, PERSON_MESSAGES)
        vouched = read_vouched(unit.conn, self._ws.pages, session)
        return doc, revision, tuple(said), vouched

    # -- the nine tools ------------------------------------------------------------

    def _get(self, call: _Call, args: dict[str, Any]) -> ToolResult:
        page = self._page(call)
        view = page_view(page.doc, args.get("node"), args.get("depth"))
        return success(page.revision, note=UNTRUSTED_NOTE, page=view, notices=self._notices(call))

    def _outline(self, call: _Call, _args: dict[str, Any]) -> ToolResult:
        page = self._page(call)
        return success(page.revision, note=UNTRUSTED_NOTE, outline=outline(page.doc))

    def _types(self, call: _Call, _args: dict[str, Any]) -> ToolResult:
        page = self._page(call)
        return success(page.revision, **page.node_types.describe(page.doc["breakpoints"]))

    def _find(self, call: _Call, args: dict[str, Any]) -> ToolResult:
        page = self._page(call)
        matches, total = find(
            page.doc, args.get("text"), args.get("type"), args.get("limit", _FIND_LIMIT)
        )
        return success(page.revision, note=UNTRUSTED_NOTE, matches=matches, total=total)

    def _facts(self, call: _Call, _args: dict[str, Any]) -> ToolResult:
        facts = call.session.facts
        return success(
            call.revision,
            brief=call.session.brief,
            facts=facts if isinstance(facts, dict | list) else {},
        )

    def _apply(self, call: _Call, args: dict[str, Any]) -> ToolResult:
        session = call.session
        links = self._site_links(session)
        if not call.unit.writes:
            raise Refused("forbidden")  # a write needs the caller's write unit
        if session.approve_on_save:
            written = self._sets.apply_agent_ops(
                call.unit, args["ops"], based_on=args["basedOn"], links=links, actor=call.actor
            )
        else:
            written = self._ws.agent_apply(
                call.unit, args["ops"], based_on=args["basedOn"], links=links,
                turn_id=call.turn_id, actor=call.actor,
            )  # fmt: skip
        return success(written.revision, applied=len(written.ops), notices=self._notices(call))

    def _changes_since(self, call: _Call, args: dict[str, Any]) -> ToolResult:
        session = call.session
        if session.approve_on_save:
            entries = self._sets.changes_since(call.unit, args["revision"])
        else:
            entries = self._ws.changes_since(call.unit, args["revision"])
        # The person behind a human edit is not the model's business: only which kind of actor wrote.
        changes = [
            {
                "revision": entry["revision"],
                "actor": "agent" if entry["actor"] == AGENT_ACTOR else "human",
                "op": entry["op"],
            }
            for entry in entries
        ]
        revision = max([call.revision, *(change["revision"] for change in changes)])
        return success(revision, note=UNTRUSTED_NOTE, changes=changes, notices=self._notices(call))

    def _check(self, call: _Call, args: dict[str, Any]) -> ToolResult:
        page = self._page(call)
        findings = self._checks(call).run(page.doc, only=args.get("checks"))
        return success(page.revision, findings=_json(findings))

    def _ready(self, call: _Call, args: dict[str, Any]) -> ToolResult:
        page = self._page(call)
        errors = [f for f in self._checks(call).run(page.doc) if f.severity == "error"]
        if errors:
            return failure("checks_failing", page.revision, findings=_json(errors))
        return success(page.revision, ready=True, summary=args["summary"])

    # -- helpers -------------------------------------------------------------------

    def _page(self, call: _Call) -> PageSession:
        # Loading validates (and migrates) the stored draft: a corrupt one
        # raises invalid_state here, which ``call`` rethrows. The tools only
        # read it: the draft is loaded shared, and one the workspace knows valid
        # (its last write, or an earlier read) is not validated again.
        if not call.session.approve_on_save:
            return self._ws.page_of(call.session, call.doc)
        return PageSession(call.doc, node_types=self._ws.node_types)

    def _checks(self, call: _Call) -> PageChecks:
        session = call.session
        return self._checks_factory(session, self._site_links(session), call.said, call.vouched)

    def _default_checks(
        self, session: SessionRecord, links: SiteLinks, said: Sequence[str], vouched: Sequence[str]
    ) -> PageChecks:
        return PageChecks(
            facts=fact_texts(session.facts),
            brief=session.brief,
            site_origin=links.site_origin,
            allowed_origins=links.allowed_origins,
            assets=self._ws.assets,
            person_said=said,
            vouched=vouched,
        )

    def _notices(self, call: _Call) -> list[dict[str, Any]]:
        return self.notices(call.unit) if call.unit.writes else []


def fact_texts(facts: object) -> dict[str, str]:
    """The host's facts as ``{name: text}`` for the checks (lists joined, nested names dotted)."""
    out: dict[str, str] = {}

    def add(name: str, value: object, depth: int) -> None:
        if isinstance(value, str):
            out[name] = value
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out[name] = json.dumps(value)
        elif isinstance(value, list) and depth < 4:
            parts = [v if isinstance(v, str) else json.dumps(v) for v in value if not isinstance(v, dict | list)]
            out[name] = "; ".join(parts)
        elif isinstance(value, dict) and depth < 4:
            for key, item in value.items():
                add(f"{name} {key}" if name else str(key), item, depth + 1)

    if isinstance(facts, dict):
        add("", facts, 0)
    return out


def _json(findings: list[Finding]) -> list[dict[str, str | None]]:
    return [finding.to_json() for finding in findings]


def _well_formed(binding: object) -> bool:
    return (
        isinstance(binding, ToolBinding)
        and all(
            isinstance(v, str) and v and is_unicode_text(v)
            for v in (binding.session_id, binding.tenant, binding.page)
        )
        and binding.scoped
        and is_agent_actor(binding.actor)
    )


def _to_change_set(unit: UnitOfWork, binding: ToolBinding) -> None:
    """An outside agent's binding (``change_set``) works on the session as approve_on_save."""
    session = unit.session
    if binding.change_set and not session.approve_on_save:
        unit.work_as(dataclasses.replace(session, approve_on_save=True))
