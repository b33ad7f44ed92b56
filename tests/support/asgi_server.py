"""An ASGI application under uvicorn on loopback, in a thread of the test process: its base URL."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from tests.support.waiting import eventually


@contextmanager
def serve_app(application: Any, *, lifespan: str = "auto") -> Iterator[str]:
    """``application`` served on a free loopback port until the block ends; always shut down."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no ~40 ms wait per kept-alive answer
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        application, log_level="warning", lifespan=lifespan, timeout_graceful_shutdown=5
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        eventually(lambda: server.started)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()
    assert not thread.is_alive(), "uvicorn did not shut down"
