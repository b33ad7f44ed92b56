"""The page's social image (``meta.seo.image``) is an asset like an image node's, on every write path.

Run against every database (subclass per backend, ``engine`` fixture): an
agent's and a person's ``set_meta`` naming an asset the library does not know
is ``authored_asset`` on ``#meta`` (field ``meta.seo.image``) and writes
nothing; a write that leaves the meta alone never asks about it; publishing
and approving a change set check it with today's library.
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.change_sets import open_change_set
from tests.support.databases import unshared_session
from tests.support.units import in_unit
from tests.support.workspace_contract import MutableAssets, section

from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.errors import Refused
from charlotte.storage import (
    DatabaseEventLog,
    DatabasePageRepository,
    SessionRecord,
    read_connection,
)


def set_image(asset: str) -> dict[str, Any]:
    return {"t": "set_meta", "patch": {"title": "Rose Bakery", "seo": {"image": asset}}}


class MetaAssetsContract:
    """Every check of the meta's social image; subclasses bind ``engine`` to a database."""

    @pytest.fixture
    def engine(self) -> sa.Engine:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    @pytest.fixture
    def assets(self) -> MutableAssets:
        return MutableAssets({"logo"})

    @pytest.fixture
    def ws(self, engine: sa.Engine, assets: MutableAssets) -> Workspace:
        return Workspace(engine, assets=assets, links=SiteLinks("https://bakery.test", ()))

    def snapshot(self, engine: sa.Engine, s: SessionRecord) -> tuple[Any, ...]:
        repo = DatabasePageRepository()
        with read_connection(engine) as conn:
            draft = repo.load_draft(conn, s.tenant, s.page)
            published = repo.load_published(conn, s.tenant, s.page)
        events = DatabaseEventLog().read(engine, s.id, 0, 1000)
        return draft, published, [(e.seq, e.type) for e in events]

    @pytest.mark.parametrize("who", ["agent", "person"])
    def test_an_unknown_social_image_is_refused_and_writes_nothing(
        self, ws: Workspace, engine: sa.Engine, who: str
    ) -> None:
        s = unshared_session(engine)
        unit = in_unit(ws, s.id, s.tenant)
        unit.agent_apply([section("hero")], based_on=0)
        before = self.snapshot(engine, s)
        write = unit.agent_apply if who == "agent" else lambda ops, based_on: unit.human_edit(
            ops, based_on=based_on, user="ann"
        )
        with pytest.raises(Refused) as caught:
            write([set_image("https://evil.example/x.png")], based_on=1)
        assert caught.value.reason == "authored_asset"
        assert caught.value.detail == {"field": "meta.seo.image", "node": "#meta"}
        assert self.snapshot(engine, s) == before
        write([set_image("logo")], based_on=1)  # the library's asset is written
        assert unit.draft()[0]["meta"]["seo"] == {"image": "logo"}

    def test_a_write_leaving_the_meta_alone_does_not_check_its_image(
        self, ws: Workspace, engine: sa.Engine, assets: MutableAssets
    ) -> None:
        s = unshared_session(engine)
        unit = in_unit(ws, s.id, s.tenant)
        unit.agent_apply([section("hero"), set_image("logo")], based_on=0)
        assets.ids.discard("logo")  # the host deleted the asset since
        unit.agent_apply([section("more")], based_on=2)  # editing goes on
        with pytest.raises(Refused) as caught:  # the meta written again: checked again
            unit.human_edit([{"t": "set_meta", "patch": {"slug": "/home"}}], based_on=3, user="ann")
        assert caught.value.reason == "authored_asset"

    def test_publish_checks_the_social_image(
        self, ws: Workspace, engine: sa.Engine, assets: MutableAssets
    ) -> None:
        s = unshared_session(engine)
        unit = in_unit(ws, s.id, s.tenant)
        unit.agent_apply([section("hero"), set_image("logo")], based_on=0)
        assets.ids.discard("logo")
        before = self.snapshot(engine, s)
        with pytest.raises(Refused) as caught:
            unit.publish("ann")
        assert (caught.value.reason, caught.value.detail) == (
            "authored_asset", {"field": "meta.seo.image", "node": "#meta"}
        )
        assert self.snapshot(engine, s) == before
        assets.ids.add("logo")
        assert unit.publish("ann") == 2

    def test_approving_a_change_set_checks_the_social_image_with_todays_library(
        self, ws: Workspace, engine: sa.Engine, assets: MutableAssets
    ) -> None:
        s = unshared_session(engine, approve_on_save=True)
        in_unit(ws, s.id, s.tenant).human_edit([section("hero")], based_on=0, user="ann")
        change_sets = in_unit(ChangeSets(ws), s.id, s.tenant)
        change_sets.apply_agent_ops([set_image("logo"), section("more")], based_on=1)
        assert open_change_set(ChangeSets(ws), s.id, s.tenant) is not None
        assets.ids.clear()
        resolution = change_sets.approve("ann")
        assert (resolution.status, resolution.code, resolution.at) == ("conflicted", "authored_asset", 0)
        assert in_unit(ws, s.id, s.tenant).draft()[1] == 1
