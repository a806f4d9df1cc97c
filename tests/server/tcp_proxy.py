"""A TCP proxy a test controls: a server talks to PostgreSQL or Redis through it, and the test
cuts the connection (every open connection is closed, new ones are refused) and restores it.

>>> import socket
>>> with socket.socket() as upstream:
...     upstream.bind(("127.0.0.1", 0)); upstream.listen()
...     proxy = TcpProxy(upstream.getsockname()[1]).start()
...     proxy.cut(); proxy.cutting
...     proxy.restore(); proxy.cutting
...     proxy.stop()
True
False
"""

from __future__ import annotations

import contextlib
import socket
import threading

__all__ = ["TcpProxy"]


class TcpProxy:
    """Listens on a free loopback port and relays every connection to ``upstream_port``."""

    def __init__(self, upstream_port: int, upstream_host: str = "127.0.0.1") -> None:
        self.upstream = (upstream_host, upstream_port)
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(128)
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self.cutting = False
        self.refused = 0
        self._stopped = False
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def start(self) -> TcpProxy:
        """Start relaying."""
        self._thread.start()
        return self

    def cut(self) -> None:
        """Close every open connection and refuse new ones until :meth:`restore`."""
        with self._lock:
            self.cutting = True
            for s in list(self._open):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    s.close()
            self._open.clear()

    def restore(self) -> None:
        """Accept and relay connections again."""
        with self._lock:
            self.cutting = False

    def stop(self) -> None:
        """Stop listening and close everything."""
        self._stopped = True
        self.cut()
        with contextlib.suppress(OSError):
            self._listener.close()

    def _accept(self) -> None:
        while not self._stopped:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                refuse = self.cutting
            if refuse:
                self.refused += 1
                with contextlib.suppress(OSError):
                    client.close()
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self._lock:
                if self.cutting:  # cut while connecting
                    client.close()
                    server.close()
                    continue
                self._open.update((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
            with self._lock:
                self._open.discard(src)
                self._open.discard(dst)
