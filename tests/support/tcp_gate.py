"""A TCP gate on loopback in front of a server: closed, it hangs up on every connection; open, it forwards.

How a test takes a database away from another process and gives it back:
point that process at ``gate.port`` instead of the server's. ``attempts``
counts the connections the gate has accepted. Every thread is a daemon and
every socket is closed by ``close()``.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Final

_CHUNK: Final = 65536


class TcpGate:
    """Forwards 127.0.0.1:``port`` to ``target`` while open; starts closed."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self._target = (target_host, target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self.port: int = self._listener.getsockname()[1]
        self._open = threading.Event()
        self._closing = threading.Event()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self.attempts = 0
        self._thread = threading.Thread(target=self._accept, name="tcp-gate", daemon=True)
        self._thread.start()

    def open(self) -> None:
        """Forward new connections from now on."""
        self._open.set()

    def close(self) -> None:
        """Stop accepting and close every socket."""
        self._closing.set()
        self._thread.join(timeout=5)
        self._listener.close()
        with self._lock:
            for held in self._sockets:
                held.close()
            self._sockets.clear()

    def _accept(self) -> None:
        while not self._closing.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self.attempts += 1
            if not self._open.is_set():
                client.close()  # the database is "down": the client sees the server hang up
                continue
            try:
                upstream = socket.create_connection(self._target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._sockets.extend((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(_CHUNK):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
