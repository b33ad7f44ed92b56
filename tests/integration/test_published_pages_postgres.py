"""The published page by its key through ``Charlotte``, on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.support.databases import named_postgres_schema, postgres_url
from tests.support.published_pages_contract import PublishedPagesContract

from charlotte import Settings


@pytest.mark.postgres
class TestPublishedPagesOnPostgres(PublishedPagesContract):
    @pytest.fixture
    def settings(self) -> Iterator[Settings]:
        url = postgres_url()
        with named_postgres_schema(url, "charlotte_published") as (schema, _engine):
            yield Settings(database_url=url, database_schema=schema, queue="inline")
