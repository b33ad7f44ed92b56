"""``DatabasePageRepository``'s tests beyond the shipped contract, run per database.

``charlotte.testing.page_repository_contract`` holds what every page repository
does; this adds what charlotte's own tables promise besides: a first write's
``ensure_draft`` inserts the row it locks, publishing a page without a draft
stores it as the draft too (one row holds both), and a draft an older version
stored with the escape of a lone surrogate loads repaired. A subclass provides ``engine``.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.databases import unique

from charlotte.page.model import empty_doc
from charlotte.storage import DatabasePageRepository, PageRepository, transaction
from charlotte.testing.page_repository_contract import PageRepositoryContract


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
