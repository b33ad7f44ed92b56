"""A real ``Charlotte`` (SQLite, the inline queue, the offline model) for follow-up turns.

``Follow.turn(message)`` sends one turn through the session API and returns what
the person would see of it: the reply, whether it ended ready, the tools it
called (and which were refused), and the draft after it. Predicates on the
draft read it by node type, section and order, never against a stored page.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.units import in_unit

from charlotte import Charlotte, InMemoryAssetLibrary, Settings
from charlotte.session import CharlotteSession

BRIEF = (
    "Crumb & Co is a neighbourhood bakery in Leeds baking sourdough and pastries every morning. "
    "The page should have a menu, about us, opening hours and contact."
)
FACTS = {
    "name": "Crumb & Co",
    "phone": "0113 496 0321",
    "email": "hello@crumbandco.test",
    "address": "12 Kirkgate, Leeds LS1 6BY",
    "opening_hours": "Tue-Fri 08:00-16:00, Sat 09:00-14:00",
    "menu": "Sourdough loaf £4.50, Cinnamon bun £2.80",
}


@dataclass(frozen=True)
class Turn:
    """One finished turn as the person sees it."""

    reply: str
    ready: bool
    calls: list[str]
    refused: list[str]  # codes of the tool results that were errors
    revision_before: int
    revision: int
    page: dict[str, Any]

    @property
    def nodes(self) -> dict[str, Any]:
        nodes: dict[str, Any] = self.page["nodes"]
        return nodes

    def roots(self) -> list[str]:
        tops = [n for n in self.nodes.values() if n["parent"] is None]
        return [n["id"] for n in sorted(tops, key=lambda n: n["order"])]

    def under(self, root: str) -> list[dict[str, Any]]:
        """Every node below ``root``."""
        out, frontier = [], {root}
        while frontier:
            kids = [n for n in self.nodes.values() if n["parent"] in frontier]
            out += kids
            frontier = {n["id"] for n in kids}
        return out

    def words(self, root: str | None = None, kind: str | None = None) -> list[str]:
        """The words of the nodes (of ``kind``) on the page or under ``root``."""
        nodes = self.under(root) if root else list(self.nodes.values())
        return [
            str(n["props"].get("content", n["props"].get("label", "")))
            for n in nodes
            if (kind is None or n["type"] == kind) and "props" in n
        ]

    def root_titled(self, words: str) -> str | None:
        """The root whose first heading contains ``words`` (case-insensitive)."""
        for root in self.roots():
            headings = self.words(root, "heading")
            if headings and words.lower() in headings[0].lower():
                return root
        return None


class Follow:
    """One Charlotte on one SQLite file; ``open()`` gives a session with a first build done."""

    def __init__(self, path: Path, allowed_origins: tuple[str, ...] = ()) -> None:
        settings = Settings(
            database_url=f"sqlite:///{path}", queue="inline", model="offline",
            allowed_origins=allowed_origins,
        )  # fmt: skip
        # The host's asset library: the images a gallery may show.
        assets = InMemoryAssetLibrary(
            {"shop-front": "/media/shop.jpg", "loaves": "/media/loaves.jpg"}
        )
        self.charlotte = Charlotte(settings, model_factory=None, assets=assets)
        self.charlotte.migrate()
        self.count = 0

    def open(self, facts: dict[str, str] | None = None, brief: str = BRIEF) -> Session:
        self.count += 1
        handle = (
            self.charlotte.for_user("ann").tenant("crumb").page(f"home-{self.count}")
            .brief(brief).facts(FACTS if facts is None else facts).approve_on_save(False).open()
        )  # fmt: skip
        session = Session(handle)
        first = session.turn("Build the page from the brief and the facts.")
        assert first.ready, first.reply
        session.first_reply = first.reply
        return session

    def close(self) -> None:
        self.charlotte.close()


class Session:
    """A session handle that plays turns and reads what each did."""

    def __init__(self, handle: CharlotteSession) -> None:
        self.handle = handle
        self.first_reply = ""  # the build turn's reply

    def last_seq(self) -> int:
        seq, events = 0, self.handle.events(0, 1_000)
        while events:
            seq = events[-1]["seq"]
            events = self.handle.events(seq, 1_000)
        return seq

    def turn(self, message: str) -> Turn:
        before = self.handle.draft()["revision"]
        after = self.last_seq()
        sent = self.handle.send(message)
        assert sent["status"] == "finished", sent
        events = self.handle.events(after, 1_000)
        reply = "".join(e["payload"]["text"] for e in events if e["type"] == "text.delta")
        results = [e["payload"] for e in events if e["type"] == "tool.result"]
        finished = next(e["payload"] for e in events if e["type"] == "turn.finished")
        draft = self.handle.draft()
        return Turn(
            reply=reply,
            ready=bool(finished.get("ready")),
            calls=[r["name"] for r in results],
            refused=[r.get("code", "") for r in results if r["is_error"]],
            revision_before=before,
            revision=draft["revision"],
            page=draft["page"],
        )

    def edit(self, ops: list[dict[str, Any]]) -> None:
        """A person's edit of the draft between turns."""
        self.handle.edit(ops, self.handle.draft()["revision"])

    def agent_edit(self, ops: list[dict[str, Any]]) -> None:
        """A write by the agent between turns (as an earlier model's turn would have made it)."""
        workspace = self.handle._app.workspace
        in_unit(workspace, self.handle.id, self.handle.tenant).agent_apply(ops, based_on=self.handle.draft()["revision"])
