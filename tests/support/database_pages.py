"""``DatabasePageRepository``'s tests beyond the shipped contract, run per database.

``charlotte.testing.page_repository_contract`` holds what every page repository
does; this adds what charlotte's own tables promise besides: a first write's
``ensure_draft`` inserts the row it locks, publishing a page without a draft
stores it as the draft too (one row holds both), and a draft an older version
stored with the escape of a lone surrogate loads repaired; a repository with
``SharedDrafts`` (the fast path) stores, loads and refuses exactly what one
without it (the plain path: every draft encoded and decoded afresh) does. A
subclass provides ``engine``.
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.databases import unique

from charlotte.errors import StorageError
from charlotte.page.model import empty_doc
from charlotte.storage import DatabasePageRepository, PageRepository, transaction
from charlotte.storage._shared_drafts import SharedDrafts
from charlotte.testing.page_repository_contract import PageRepositoryContract

_PROPS = st.dictionaries(
    st.sampled_from(["content", "n", "items"]),
    st.text(max_size=6)
    | st.integers()
    | st.floats()  # NaN and infinity: refused, as they are not JSON
    | st.sampled_from(["\ud800", "a\udfffb"])  # lone surrogates: refused
    | st.lists(st.integers(), max_size=3),
    max_size=3,
)
#: Each write: what it does, and the nodes it replaces (a new object) or removes (None).
_WRITES = st.lists(
    st.tuples(
        st.sampled_from(["write", "write", "write", "rolled back", "another writer"]),
        st.dictionaries(st.sampled_from("abcdef"), st.none() | _PROPS, max_size=3),
        st.booleans(),
    ),
    min_size=1,
    max_size=8,
)


def _next(doc: dict[str, Any], changes: dict[str, Any], retitle: bool) -> dict[str, Any]:
    """``doc`` changed as a write changes it: copy on write, untouched nodes the same objects."""
    nodes = dict(doc["nodes"])
    for node_id, props in changes.items():
        if props is None:
            nodes.pop(node_id, None)
        else:
            nodes[node_id] = {"id": node_id, "type": "section", "parent": None, "order": "V", "props": props}
    meta = {**doc["meta"], "title": f"Title {doc['seq'] + 1}"} if retitle else doc["meta"]
    return {**doc, "nodes": nodes, "meta": meta, "seq": doc["seq"] + 1}


class _RolledBack(Exception):
    pass


def _outcome(
    engine: sa.Engine,
    repository: DatabasePageRepository,
    page: str,
    doc: dict[str, Any],
    *,
    shared: bool = False,
    roll_back: bool = False,
) -> str:
    """``ok``, ``rolled back`` or the ``StorageError`` code of one save in a transaction of its own."""
    try:
        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, doc, shared=shared)
            if roll_back:
                raise _RolledBack
    except StorageError as error:
        return error.code
    except _RolledBack:
        return "rolled back"
    return "ok"


def _stored(engine: sa.Engine, page: str) -> str:
    with transaction(engine) as conn:
        return str(
            conn.execute(
                sa.text("SELECT draft FROM charlotte_pages WHERE tenant = 'tenant-a' AND page = :page"),
                {"page": page},
            ).scalar_one()
        )


class DatabasePageRepositoryContract(PageRepositoryContract):
    """The shipped contract, and what ``charlotte_pages`` adds, for ``DatabasePageRepository``."""

    @pytest.fixture
    def repository(self) -> PageRepository:
        return DatabasePageRepository()

    def test_ensure_draft_inserts_the_row_a_first_write_locks(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        with transaction(engine) as conn:
            repository.ensure_draft(conn, "tenant-a", page, empty_doc(page))
        with transaction(engine) as conn:
            assert repository.load_draft(conn, "tenant-a", page) == (empty_doc(page), 0)

    def test_a_draft_an_older_version_stored_with_a_lone_surrogate_loads_repaired_and_saves_again(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        doc = empty_doc(page)
        doc["seq"] = 1
        doc["meta"]["title"] = "Fresh bread"
        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, doc)
            # What an older version wrote: the escape of a lone surrogate.
            conn.execute(
                sa.text("UPDATE charlotte_pages SET draft = REPLACE(draft, 'Fresh', :escape) WHERE page = :page"),
                {"escape": "Fr\\ud800sh", "page": page},
            )
        with transaction(engine) as conn:
            loaded = repository.load_draft(conn, "tenant-a", page)
            assert loaded is not None
            assert loaded[0]["meta"]["title"] == "Fr\ufffdsh bread"
            repository.save_draft(conn, "tenant-a", page, {**loaded[0], "seq": 2})
        with transaction(engine) as conn:
            again = repository.load_draft(conn, "tenant-a", page)
        assert again is not None and again[1] == 2

    def test_publishing_a_page_without_a_draft_stores_both(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        doc = {**empty_doc(page), "seq": 5}
        with transaction(engine) as conn:
            repository.save_published(conn, "tenant-a", page, doc)
            assert repository.load_published(conn, "tenant-a", page) == (doc, 5)
            assert repository.load_draft(conn, "tenant-a", page) == (doc, 5)

    @settings(
        max_examples=40,
        deadline=None,
        # One method run by each database's subclass: the other contracts' suppressions.
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.differing_executors,
        ],
    )
    @given(writes=_WRITES)
    def test_shared_drafts_store_load_and_refuse_what_the_plain_path_does(
        self, engine: sa.Engine, writes: list[tuple[str, dict[str, Any], bool]]
    ) -> None:
        # Page ``fast`` through SharedDrafts (shared saves and loads, as the
        # workspace writes), page ``plain`` through a repository without it.
        fast, plain = unique("fast"), unique("plain")
        shared = DatabasePageRepository(SharedDrafts())
        fresh = DatabasePageRepository()
        doc: dict[str, Any] = {**empty_doc("home"), "seq": 0}
        for page in (fast, plain):
            assert _outcome(engine, fresh, page, doc) == "ok"
        for what, changes, retitle in writes:
            new = _next(doc, changes, retitle)
            if what == "another writer":  # the row changes under the held draft
                outcomes = {_outcome(engine, fresh, page, new) for page in (fast, plain)}
            else:
                fast_outcome = _outcome(
                    engine, shared, fast, new, shared=True, roll_back=what == "rolled back"
                )
                plain_outcome = _outcome(engine, fresh, plain, new) if what == "write" else fast_outcome
                outcomes = {fast_outcome, plain_outcome}
            assert len(outcomes) == 1, outcomes  # the same outcome, refusals by the same code
            if outcomes == {"ok"}:
                doc = new
            assert _stored(engine, fast) == _stored(engine, plain)
            with transaction(engine) as conn:
                held = shared.load_draft(conn, "tenant-a", fast, shared=True)
                decoded = fresh.load_draft(conn, "tenant-a", plain)
            assert held == decoded and held is not None and held[0] == doc
