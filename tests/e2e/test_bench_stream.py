"""The stream benchmark's many-client run at a tiny size: every event reaches every client.

``bench/stream.py`` is a benchmark (figures, not pass/fail); this only checks
that its many-client run still works end to end (sessions opened on a real
uvicorn child, streams in client processes, commits round the sessions, every
(client, event) pair measured) and that it ends every process it starts, so
``make bench`` keeps measuring what it says.
"""

from __future__ import annotations

import os

import pytest
from bench import load, stream

pytestmark = pytest.mark.timeout(180)


def test_many_clients_over_several_sessions_get_every_event() -> None:
    before = set(load.descendants(os.getpid()))
    # 4 sessions x 3 clients in 2 client processes, 3 events per session.
    found = stream.measure_many(4, 3, 3, gap=0.005, per_process=6)
    assert found["stream_all_received_12_clients"] is True, found
    assert found["stream_client_errors_12_clients"] == []
    assert found["stream_events_12_clients"] == 12
    assert found["stream_pairs_12_clients"] == 36  # every client, every event of its session
    p50, p95 = found["stream_p50_ms_12_clients"], found["stream_p95_ms_12_clients"]
    assert 0 < p50 <= p95 <= found["stream_max_ms_12_clients"]
    assert p95 < 5_000  # woken by the notifier, not by the 15 s heartbeat
    assert found["stream_client_lag_ms_12_clients"]["p95"] is not None
    assert found["peak_rss_mb_stream_12_clients"] > 0
    assert set(load.descendants(os.getpid())) <= before  # the server and the client processes are gone
