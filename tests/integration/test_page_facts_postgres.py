"""A page's facts and what people vouched for outlive a session, on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.support.databases import named_postgres_schema, postgres_url
from tests.support.page_facts_contract import PageFactsContract

from charlotte import Settings


@pytest.mark.postgres
class TestPageFactsOnPostgres(PageFactsContract):
    @pytest.fixture
    def settings(self) -> Iterator[Settings]:
        url = postgres_url()
        with named_postgres_schema(url, "charlotte_page_facts") as (schema, _engine):
            yield Settings(database_url=url, database_schema=schema, queue="inline")
