"""provider_http: how long a provider asks charlotte to wait, read from its headers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx2
import pytest

from charlotte.runtime.provider_http import RETRIED_STATUSES, retry_after_seconds


@pytest.mark.parametrize(
    ("headers", "wait"),
    [
        ({"Retry-After": "2"}, 2.0),
        ({"Retry-After": "0.25"}, 0.25),
        ({"retry-after-ms": "1500", "Retry-After": "9"}, 1.5),  # the finer one wins
        ({"Retry-After": "-3"}, 0.0),
        ({"Retry-After": "soon"}, None),
        ({"retry-after-ms": "x"}, None),
        ({}, None),
    ],
)
def test_retry_after_reads_seconds_and_milliseconds(
    headers: dict[str, str], wait: float | None
) -> None:
    assert retry_after_seconds(httpx2.Headers(headers)) == wait


def test_retry_after_reads_an_http_date() -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    wait = retry_after_seconds(httpx2.Headers({"Retry-After": when}))
    assert wait is not None and 28.0 <= wait <= 30.0
    past = format_datetime(datetime.now(UTC) - timedelta(hours=1), usegmt=True)
    assert retry_after_seconds(httpx2.Headers({"Retry-After": past})) == 0.0


def test_only_not_now_answers_are_retried() -> None:
    assert {429, 500, 502, 503, 504, 529} == RETRIED_STATUSES
    assert not {400, 401, 403, 404, 422} & RETRIED_STATUSES
