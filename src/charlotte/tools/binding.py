"""``ToolBinding``: the one session a run's tool calls may act on."""

from __future__ import annotations

from dataclasses import dataclass

from charlotte.events import AGENT_ACTOR


@dataclass(frozen=True, slots=True)
class ToolBinding:
    """Session, tenant and page of a run, and its scope ``charlotte:<session_id>``.

    Only the TurnRunner creates one, from the stored session, and hands it to
    the model runtime as the run's dependencies: the model can never name
    another page, tenant or session, because none of them is an argument.

    >>> ToolBinding.for_session("s1", "tenant-a", "home").scope
    'charlotte:s1'
    """

    session_id: str
    tenant: str
    page: str
    scope: str
    #: The turn the run belongs to: its draft writes carry it (what undoing the turn reads).
    turn_id: str | None = None
    #: Who the writes are attributed to in the log: ``agent``, or an outside agent ``agent:<client>``.
    actor: str = AGENT_ACTOR
    #: The writes go to the session's change set whatever the session's own setting (an outside agent's).
    change_set: bool = False

    @classmethod
    def for_session(
        cls,
        session_id: str,
        tenant: str,
        page: str,
        turn_id: str | None = None,
        *,
        actor: str = AGENT_ACTOR,
        change_set: bool = False,
    ) -> ToolBinding:
        """The binding of one session, with its scope."""
        return cls(session_id, tenant, page, scope_of(session_id), turn_id, actor, change_set)

    @property
    def scoped(self) -> bool:
        """True when ``scope`` is exactly the scope of ``session_id``."""
        return (
            isinstance(self.session_id, str)
            and bool(self.session_id)
            and isinstance(self.scope, str)
            and self.scope == scope_of(self.session_id)
        )


def scope_of(session_id: str) -> str:
    """The scope a binding for ``session_id`` carries."""
    return f"charlotte:{session_id}"
