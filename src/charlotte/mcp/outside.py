"""``OutsideTools``: an outside agent's tool calls, under the rules charlotte's own agent works by.

Framework-free (``charlotte.mcp.server`` serves it over MCP). A call names a
tool of ``catalogue.tool_specs`` and its arguments; the caller (``Caller``:
the host's user, the tenant, the client's name) comes from the transport,
never from the arguments. A page tool call goes through the same path as the
built-in agent's (``runtime.tool_calls.call_tool`` → ``PageTools.call``): the
same schemas, bounds and coded results, ``tool.called``/``tool.result`` in
the session's log with what the tool wrote, in one transaction. What differs:

- the actor is the outside agent's, ``agent:<client>`` (``outside_actor``:
  bounded, letters, digits, ``.``, ``_`` and ``-`` only);
- its writes go to the session's change set whatever the session's own
  ``approve_on_save`` (a person approves them in the builder), unless the
  host's ``direct_writes(user, session)`` says yes for this user; the
  resolutions reach the agent as ``notices``, once (``PageTools``);
- in the call's write unit, with the session row locked, before anything is
  written: the host's authorizer (``view`` to read, ``edit`` for
  ``cms_apply``), the turn lock (``cms_apply`` while the session is not
  ``idle``, i.e. a turn of the built-in agent is queued or running, is
  ``busy``: the same status a turn claims the session by, so the two never
  interleave their writes), and the caps (``limits.OutsideLimits``). A
  refusal rolls the unit back: nothing is written, not even ``tool.called``.

Every answer is a tool result (``charlotte.tools.results``): an error the
call did not expect becomes ``internal``, its text never leaves (the log gets
the traceback with messages escaped).
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeGuard

from charlotte.access import page_sessions, valid_tenant
from charlotte.errors import Refused
from charlotte.events import OUTSIDE_AGENT_PREFIX
from charlotte.mcp.catalogue import MAX_SESSION_ID, ToolSpec, tool_specs
from charlotte.mcp.limits import OutsideLimits
from charlotte.policy.text import is_person_text
from charlotte.runtime.logged import escaped_traceback
from charlotte.runtime.recorder import StreamRecorder
from charlotte.runtime.tool_calls import call_tool
from charlotte.storage import SessionRecord, UnitOfWork
from charlotte.tools import PageTools, ToolBinding
from charlotte.tools.results import ToolResult, failure

if TYPE_CHECKING:
    from charlotte.app import Charlotte

__all__ = ["MAX_CLIENT_NAME", "Caller", "DirectWrites", "OutsideTools", "outside_actor"]

log = logging.getLogger(__name__)

#: The longest client name an actor keeps (``agent:`` and this many characters).
MAX_CLIENT_NAME: Final = 64
_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._-]+")

#: ``fn(user, session) -> bool``: may this user's outside agent write to the draft directly?
DirectWrites = Callable[[Any, SessionRecord], bool]


def outside_actor(client_name: object) -> str:
    """``agent:<client>``: the client's name with anything but letters, digits, ``.``, ``_``, ``-`` as ``-``.

    >>> outside_actor("Claude Desktop"), outside_actor("\\n"), outside_actor(None)
    ('agent:Claude-Desktop', 'agent:client', 'agent:client')
    """
    name = _UNSAFE.sub("-", client_name[: MAX_CLIENT_NAME * 4]) if isinstance(client_name, str) else ""
    name = name.strip("-.")[:MAX_CLIENT_NAME].strip("-.")
    return OUTSIDE_AGENT_PREFIX + (name or "client")


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks: the host's user and tenant (from the transport) and the client's name (its actor)."""

    user: Any
    #: None (or no valid tenant key): every call is ``forbidden``.
    tenant: str | None
    client: object = None

    @property
    def actor(self) -> str:
        """The actor the log records the caller's calls as (``outside_actor``)."""
        return outside_actor(self.client)


class OutsideTools:
    """The tools an outside agent calls (see module docstring)."""

    def __init__(self, charlotte: Charlotte, *, direct_writes: DirectWrites | None = None) -> None:
        self._app = charlotte
        self._tools: PageTools = charlotte.tools
        self._direct = direct_writes
        self._limits = OutsideLimits(charlotte)
        self._specs = tool_specs(self._tools)
        self._own: Mapping[str, Callable[[Caller, str, dict[str, Any]], ToolResult]] = {
            "charlotte_pages": self._pages,
            "charlotte_sessions": self._sessions,
            "charlotte_open_session": self._open_session,
            "charlotte_change_set": self._change_set,
        }

    def specs(self) -> list[ToolSpec]:
        """Every tool offered, in order (the specs are shared: a server lists them, never changes them)."""
        return list(self._specs)

    def call(self, caller: Caller, name: object, arguments: object) -> ToolResult:
        """Run tool ``name`` for ``caller``: a result, coded on refusal (see module docstring)."""
        try:
            if caller.user is None:
                return failure("unauthorized", None)
            tenant = caller.tenant
            if not valid_tenant(tenant):
                return failure("forbidden", None)
            assert isinstance(tenant, str)
            if not isinstance(arguments, dict):
                return _bad("$.arguments", "an object", type(arguments).__name__)
            own = self._own.get(name) if isinstance(name, str) else None
            if own is not None:
                return own(caller, tenant, arguments)
            if not isinstance(name, str) or name not in self._tools.names:
                return failure("unknown_tool", None)
            return self._page_tool(caller, tenant, name, arguments)
        except Refused as refused:
            return failure(refused.code, None, **_detail(refused))
        except Exception as error:
            correlation = uuid.uuid4().hex[:12]
            log.error("outside tool call failed (correlation %s)\n%s", correlation, escaped_traceback(error))
            return failure("internal", None)

    # -- the nine page tools --------------------------------------------------------

    def _page_tool(self, caller: Caller, tenant: str, name: str, arguments: dict[str, Any]) -> ToolResult:
        rest = dict(arguments)
        session_id = rest.pop("session", None)
        if not _session_id(session_id):
            return _bad("$.arguments.session", f"a session id of 1..{MAX_SESSION_ID} characters", _kind(session_id))
        record = self._record(session_id, tenant)
        if record is None:
            return failure("not_found", None)  # another tenant's session too: the caller's tenant has none
        direct = self._direct is not None and self._direct(caller.user, record) is True
        actor = caller.actor
        binding = ToolBinding.for_session(
            record.id, record.tenant, record.page, actor=actor, change_set=not direct
        )
        writes = name == "cms_apply"

        def guard(unit: UnitOfWork) -> None:
            # In the call's first unit, its session row locked: nothing written yet.
            session = unit.session
            if not self._app.allows(caller.user, "edit" if writes else "view", session):
                raise Refused("forbidden")
            if writes and session.status != "idle":
                raise Refused("busy")  # a turn of the built-in agent holds the session
            self._limits.check(unit, actor)

        recorder = StreamRecorder(self._app.engine, record.id, record.tenant, actor=actor)
        return call_tool(
            self._tools.units, self._tools, name, rest, binding,
            stop=guard, log=recorder, call_id=uuid.uuid4().hex[:16],
        )  # fmt: skip

    def _record(self, session_id: str, tenant: str) -> SessionRecord | None:
        units = self._tools.units
        with units.reading() as conn:
            return units.sessions.get(conn, session_id, tenant)

    # -- charlotte's own ------------------------------------------------------------

    def _pages(self, caller: Caller, tenant: str, arguments: dict[str, Any]) -> ToolResult:
        if arguments:
            return _bad("$.arguments", "no arguments", "an object with members")
        return {"pages": self._app.published_pages(tenant)}

    def _sessions(self, caller: Caller, tenant: str, arguments: dict[str, Any]) -> ToolResult:
        unknown = _unknown(arguments, {"page", "before"})
        if unknown is not None:
            return unknown
        listed = page_sessions(
            self._app, tenant, arguments.get("page"), caller.user,  # type: ignore[arg-type]
            before=arguments.get("before"),
        )  # fmt: skip
        return dict(listed)

    def _open_session(self, caller: Caller, tenant: str, arguments: dict[str, Any]) -> ToolResult:
        unknown = _unknown(arguments, {"page", "brief"})
        if unknown is not None:
            return unknown
        builder = self._app.for_user(caller.user).tenant(tenant)
        opened = (
            builder.page(arguments.get("page"))  # type: ignore[arg-type]
            .brief(arguments.get("brief"))  # type: ignore[arg-type]
            .approve_on_save(True)
            .open()
        )
        return {"session": opened.id, "page": arguments["page"], "approve_on_save": True}

    def _change_set(self, caller: Caller, tenant: str, arguments: dict[str, Any]) -> ToolResult:
        unknown = _unknown(arguments, {"session"})
        if unknown is not None:
            return unknown
        session_id = arguments.get("session")
        if not _session_id(session_id):
            return _bad("$.arguments.session", f"a session id of 1..{MAX_SESSION_ID} characters", _kind(session_id))
        handle = self._app.find(session_id, tenant, user=caller.user)
        if handle is None:
            return failure("not_found", None)
        found = handle.change_set()
        # The builder's rendering (html, css) is for a person's eyes: the agent gets the data.
        shown = None if found is None else {k: v for k, v in found.items() if k not in {"html", "css"}}
        return {"change_set": shown}


def _session_id(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and 1 <= len(value) <= MAX_SESSION_ID and is_person_text(value)


def _kind(value: object) -> str:
    return "a string of another length or with characters no id has" if isinstance(value, str) else type(value).__name__


def _bad(path: str, expected: str, got: str) -> ToolResult:
    return failure("invalid_arguments", None, path=path, expected=expected, got=got)


def _unknown(arguments: dict[str, Any], allowed: set[str]) -> ToolResult | None:
    """``invalid_arguments`` naming the first member no schema of the tool has, else None."""
    for key in arguments:
        if key not in allowed:
            shown = key if isinstance(key, str) and key.isidentifier() and len(key) <= 40 else "?"
            return _bad(f"$.arguments.{shown}", "no such member", "a member")
    return None


def _detail(refused: Refused) -> dict[str, Any]:
    detail = refused.detail
    return {"detail": dict(detail)} if isinstance(detail, Mapping) and detail else {}
