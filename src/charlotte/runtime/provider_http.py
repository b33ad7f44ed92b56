"""The HTTP client the provider SDKs are handed: charlotte's bounded retries, and timeouts.

Why charlotte retries here, and not the SDKs: the OpenAI and Anthropic
clients retry on their own (``max_retries``), but their backoff is fixed
(0.5 s doubling to 8 s) and they honour any ``Retry-After`` up to 60 s — a
turn could sit a minute per attempt, and a test could not make it short. So
the SDK clients are built with ``max_retries=0`` and this transport, under
them, sends a request again when the provider answers 429 or a 5xx or the
connection cannot be opened: at most ``retries`` times, waiting
``first_wait x 2ⁿ`` or the provider's ``Retry-After`` (``retry-after-ms``
too), never more than ``max_wait`` for one wait. Every wait is bounded, so a
request gives up within ``retries x max_wait`` plus the attempts
themselves, and the last answer (or connection error) goes up to the SDK,
which pydantic-ai turns into its error categories (``runtime/models.py``
turns those into codes). Only the response head is waited for here: a
stream that went quiet is the ``TurnWatch``'s business. A stop cancels a
wait at once.

This policy is not the turn queues' claim retry (``runtime/queues.py``
``RETRY_DELAYS``, ``contrib/celery.py`` ``CLAIM_RETRY_COUNTDOWNS``), and shares
no table with it: those run a whole turn again after a database error, this
sends one model request again after the provider's "not now", following the
provider's ``Retry-After`` within ``max_wait``, and a stop cancels its wait.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Final

import httpx2

__all__ = ["RETRIED_STATUSES", "RetryingTransport", "provider_http_client", "retry_after_seconds"]

log = logging.getLogger(__name__)

#: The answers that mean "not now" rather than "no": rate limits and server trouble.
RETRIED_STATUSES: Final = frozenset({429, 500, 502, 503, 504, 529})

#: How long opening a connection to the provider may take.
CONNECT_SECONDS: Final = 10.0


def retry_after_seconds(headers: httpx2.Headers) -> float | None:
    """The wait a response asks for: ``retry-after-ms``, or ``Retry-After`` in seconds or as a date."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


class RetryingTransport(httpx2.AsyncBaseTransport):
    """Sends a request again on 429, 5xx or a refused connection, with bounded waits (module docstring)."""

    def __init__(
        self,
        inner: httpx2.AsyncBaseTransport,
        *,
        retries: int,
        first_wait: float,
        max_wait: float,
    ) -> None:
        self._inner = inner
        self._retries = retries
        self._first_wait = first_wait
        self._max_wait = max_wait

    def _wait(self, attempt: int, asked: float | None) -> float:
        wait = asked if asked is not None else self._first_wait * (2**attempt)
        return min(wait, self._max_wait)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        attempt = 0
        while True:
            try:
                response = await self._inner.handle_async_request(request)
            except (httpx2.ConnectError, httpx2.ConnectTimeout):
                if attempt >= self._retries:
                    raise
                wait = self._wait(attempt, None)
                log.info("model provider not reachable; retry %d in %.2fs", attempt + 1, wait)
            else:
                if response.status_code not in RETRIED_STATUSES or attempt >= self._retries:
                    return response
                wait = self._wait(attempt, retry_after_seconds(response.headers))
                log.info(
                    "model provider answered %d; retry %d in %.2fs",
                    response.status_code,
                    attempt + 1,
                    wait,
                )
                await response.aclose()
            attempt += 1
            await asyncio.sleep(wait)

    async def aclose(self) -> None:
        await self._inner.aclose()


def provider_http_client(*, retries: int, first_wait: float, max_wait: float) -> httpx2.AsyncClient:
    """A fresh client for one model: connect within ``CONNECT_SECONDS``, retried as above.

    Reading has no timeout of its own: the turn's ``TurnWatch`` ends a
    stream that sends nothing for ``model_idle_timeout_seconds``.
    """
    transport = RetryingTransport(
        httpx2.AsyncHTTPTransport(), retries=retries, first_wait=first_wait, max_wait=max_wait
    )
    timeout = httpx2.Timeout(None, connect=CONNECT_SECONDS)
    return httpx2.AsyncClient(transport=transport, timeout=timeout)
