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
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import sqlalchemy as sa

from charlotte.checks import Finding, PageChecks
from charlotte.checks.facts import PERSON_MESSAGES
from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.errors import InvalidArguments, PageSessionError, Refused
from charlotte.events import AGENT_ACTOR, NewEvent
from charlotte.page.session import PageSession
from charlotte.policy.text import is_unicode_text
from charlotte.storage import SessionRecord, TurnStore, read_connection, transaction
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
#: The tools that run the checks: they read the person's messages with the page.
_CHECKING: Final = frozenset({"cms_check", "cms_ready"})
#: What a tool reads: the page, its revision, the person's messages, what people vouched for.
_View = tuple[dict[str, Any], int, tuple[str, ...], tuple[str, ...]]


class _Call:
    """What a tool gets: the bound session, and the page it reads, loaded on first use.

    ``cms_apply`` never needs it on success (the Workspace loads and locks the
    draft in its own transaction), so a write decodes the document once, not
    twice. ``conn``: the open write transaction a ``cms_apply`` joins, when
    the call runs inside one (see ``PageTools.call``); reads join it too.
    ``events``: with ``conn``, where the write puts its events for the
    caller's one append. ``said``: the person's messages in the session,
    read with the page for the checking tools (else empty).
    """

    __slots__ = ("_load", "_view", "conn", "events", "session", "turn_id")

    def __init__(
        self,
        session: SessionRecord,
        load: Callable[[], _View],
        conn: sa.Connection | None = None,
        turn_id: str | None = None,
        events: list[NewEvent] | None = None,
    ) -> None:
        self.session = session
        self.turn_id = turn_id
        self._load = load
        self._view: _View | None = None
        self.conn = conn
        self.events = events

    def _loaded(self) -> _View:
        if self._view is None:
            self._view = self._load()
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
    def names(self) -> tuple[str, ...]:
        """The nine tool names."""
        return TOOL_NAMES

    def call(
        self,
        name: object,
        arguments: object,
        binding: ToolBinding,
        *,
        before: Callable[[sa.Connection], None] | None = None,
        after: Callable[[sa.Connection, ToolResult | None, Sequence[NewEvent]], None] | None = None,
    ) -> ToolResult:
        """Run tool ``name`` with ``arguments`` on the session ``binding`` names; a JSON-able result.

        ``before`` runs first, inside the transaction that loads the session
        (the runner reads its stop flag there instead of opening a
        transaction of its own); with it, that transaction is a write
        transaction, and every tool but the checking ones (``cms_check``,
        ``cms_ready``, which may run long on a large page and so read in a
        transaction of their own) runs inside it: a ``cms_apply``'s check,
        write and events commit together, one commit per write, and a read
        reads there. An exception ``before`` raises rolls the transaction
        back, cancels the call and propagates as is.

        ``after`` runs at the end of that transaction, before it commits,
        whenever ``before`` returned: with the result and the events the
        call's write made, not yet appended (the runner appends them between
        its ``tool.called`` and ``tool.result``: one append for the whole
        call); with no result for a checking call, which runs after the
        commit. Without ``after``, the call appends its write's events itself.
        """
        if not _well_formed(binding):
            return failure("forbidden", None)
        turn_id = binding.turn_id if isinstance(binding.turn_id, str) else None
        checking = isinstance(name, str) and name in _CHECKING
        opened = read_connection if before is None else transaction
        with opened(self._ws.engine) as conn:
            if before is not None:
                before(conn)
            joined = before is not None and not checking
            events: list[NewEvent] = []
            # A joined call reads its session row locked: a write goes on with
            # it (the lock every write takes first), and the call's events need it anyway.
            read = self._ws.sessions.lock if joined else self._ws.sessions.get
            session = read(conn, binding.session_id, binding.tenant)
            if session is None:
                result: ToolResult | None = failure("not_found", None)
            elif session.tenant != binding.tenant or session.page != binding.page:
                result = failure("forbidden", None)
            elif joined:
                result = self._run(name, arguments, self._joined(session, conn, turn_id, events))
            else:
                result = None  # a checking call: it runs below, apart
            if after is not None:
                after(conn, result, events)
            elif events:
                self._ws.events.append_many(conn, binding.session_id, events, tenant=binding.tenant)
        if result is not None:
            return result
        assert session is not None
        return self._run(
            name, arguments, _Call(session, lambda: self._view(session, checking), turn_id=turn_id)
        )

    def _joined(
        self, session: SessionRecord, conn: sa.Connection, turn_id: str | None, events: list[NewEvent]
    ) -> _Call:
        """A call that reads and writes inside ``conn``; its write's events go to ``events``."""
        return _Call(
            session, lambda: (*self._sets.view(conn, session, shared=True), (), ()), conn, turn_id, events
        )

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
        if "notices" in result:
            return result
        # Any other result (a failed write too: a notice is often the reason
        # for a stale revision) carries the notices when there are any.
        notices = self._notices(call)
        return {**result, "notices": notices} if notices else result

    def _view(self, session: SessionRecord, checking: bool) -> _View:
        with read_connection(self._ws.engine) as conn:
            doc, revision = self._sets.view(conn, session, shared=True)
            if not checking:
                return doc, revision, (), ()
            said = self._turns.messages_of(conn, session.id, session.tenant, PERSON_MESSAGES)
            vouched = read_vouched(conn, self._ws.pages, session)
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
        if session.approve_on_save:
            written = self._sets.apply_agent_ops(
                session.id, session.tenant, args["ops"], based_on=args["basedOn"], links=links,
                conn=call.conn, events=call.events, locked=call.session,
            )  # fmt: skip
        else:
            written = self._ws.agent_apply(
                session.id, session.tenant, args["ops"], based_on=args["basedOn"], links=links,
                conn=call.conn, turn_id=call.turn_id, events=call.events, locked=call.session,
            )  # fmt: skip
        return success(written.revision, applied=len(written.ops), notices=self._notices(call))

    def _changes_since(self, call: _Call, args: dict[str, Any]) -> ToolResult:
        session = call.session
        if session.approve_on_save:
            entries = self._sets.changes_since(session.id, session.tenant, args["revision"])
        elif call.conn is not None:
            entries = self._ws.draft_changes(call.conn, session, args["revision"])
        else:
            entries = self._ws.changes_since(session.id, session.tenant, args["revision"])
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
        # Only approve_on_save sessions have change sets: skip the query otherwise.
        if not call.session.approve_on_save:
            return []
        return self._sets.pending_notices(call.session.id, call.session.tenant, call.conn)


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
    )
