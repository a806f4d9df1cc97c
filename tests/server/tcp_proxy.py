"""A TCP proxy a test controls: a server talks to PostgreSQL or Redis through it, and the test
breaks the connection in the ways a network does.

- :meth:`TcpProxy.cut`: every open connection is closed, new ones are refused (an outage the
  client hears about at once), until :meth:`TcpProxy.restore`.
- :meth:`TcpProxy.stall`: nothing is relayed in either direction and nothing is closed; new
  connections are accepted and held (a black hole: the kernel still acknowledges every
  byte, so TCP keepalives and ``tcp_user_timeout`` never fire), until
  :meth:`TcpProxy.restore`, when everything held goes on where it stopped.
- :meth:`TcpProxy.lose_open`: the connections open now are black holes for good (never
  relayed again, never closed) while new ones are relayed as usual (a connection silently
  lost by a firewall or a NAT that forgot it).

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
from collections.abc import Iterator

__all__ = ["TcpProxy", "echo_server"]


class _Link:
    """One relayed connection: the client's socket and, once it is made, the upstream one."""

    __slots__ = ("client", "lost", "server")

    def __init__(self, client: socket.socket) -> None:
        self.client = client
        self.server: socket.socket | None = None
        self.lost = False  # black-holed for good (lose_open)


class TcpProxy:
    """Listens on a free loopback port and relays every connection to ``upstream_port``."""

    def __init__(self, upstream_port: int, upstream_host: str = "127.0.0.1") -> None:
        self.upstream = (upstream_host, upstream_port)
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(128)
        self.port: int = self._listener.getsockname()[1]
        # one condition guards the state and wakes the relays a stall or a lost link holds
        self._lock = threading.Condition()
        self._open: set[socket.socket] = set()
        self._links: set[_Link] = set()
        self.cutting = False
        self.stalling = False
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
            self._links.clear()
            self._lock.notify_all()

    def stall(self) -> None:
        """Relay nothing, close nothing, and hold new connections unanswered until
        :meth:`restore`.

        >>> with echo_server() as port:
        ...     proxy = TcpProxy(port).start()
        ...     a = socket.create_connection(("127.0.0.1", proxy.port), timeout=5)
        ...     a.sendall(b"1"); a.recv(9)
        ...     proxy.stall()
        ...     b = socket.create_connection(("127.0.0.1", proxy.port), timeout=0.2)
        ...     a.settimeout(0.2); a.sendall(b"2"); b.sendall(b"3")
        ...     _silent(a), _silent(b)
        ...     proxy.restore(); a.settimeout(5); b.settimeout(5)
        ...     a.recv(9), b.recv(9)
        ...     a.close(); b.close(); proxy.stop()
        b'1'
        (True, True)
        (b'2', b'3')
        """
        with self._lock:
            self.stalling = True

    def lose_open(self) -> None:
        """Black-hole the connections open now for good (never relayed again, never
        closed); connections made from now on are relayed as usual.

        >>> with echo_server() as port:
        ...     proxy = TcpProxy(port).start()
        ...     a = socket.create_connection(("127.0.0.1", proxy.port), timeout=5)
        ...     a.sendall(b"1"); a.recv(9)
        ...     proxy.lose_open(); proxy.restore()
        ...     a.settimeout(0.2); a.sendall(b"2"); _silent(a)
        ...     b = socket.create_connection(("127.0.0.1", proxy.port), timeout=5)
        ...     b.sendall(b"3"); b.recv(9)
        ...     a.close(); b.close(); proxy.stop()
        b'1'
        True
        b'3'
        """
        with self._lock:
            for link in self._links:
                link.lost = True

    def restore(self) -> None:
        """Accept and relay connections again (a lost connection stays lost)."""
        with self._lock:
            self.cutting = False
            self.stalling = False
            self._lock.notify_all()

    def stop(self) -> None:
        """Stop listening and close everything."""
        with self._lock:
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
                if not refuse:
                    link = _Link(client)
                    self._open.add(client)
                    self._links.add(link)
            if refuse:
                self.refused += 1
                with contextlib.suppress(OSError):
                    client.close()
                continue
            threading.Thread(target=self._connect, args=(link,), daemon=True).start()

    def _connect(self, link: _Link) -> None:
        """Open the upstream side of a link once it may be relayed (a connection accepted
        in a stall waits, unanswered, for the stall to end)."""
        if not self._wait_to_relay(link):
            return
        try:
            server = socket.create_connection(self.upstream, timeout=5)
        except OSError:
            self._close(link.client)
            return
        server.settimeout(None)
        with self._lock:
            if link.client not in self._open:  # cut meanwhile
                server.close()
                return
            link.server = server
            self._open.add(server)
        threading.Thread(target=self._pipe, args=(link, link.client, server), daemon=True).start()
        threading.Thread(target=self._pipe, args=(link, server, link.client), daemon=True).start()

    def _wait_to_relay(self, link: _Link) -> bool:
        """Hold while the proxy stalls or the link is lost; False once the link is closed
        (a cut, or the proxy stopped)."""
        with self._lock:
            self._lock.wait_for(
                lambda: (
                    self._stopped
                    or link.client not in self._open
                    or not (self.stalling or link.lost)
                )
            )
            return not self._stopped and link.client in self._open

    def _pipe(self, link: _Link, src: socket.socket, dst: socket.socket) -> None:
        try:
            while self._wait_to_relay(link):
                data = src.recv(65536)
                # what arrives as a stall begins, an end of stream too, is held and passed
                # on when it ends (or never, if the link is lost meanwhile)
                if not self._wait_to_relay(link) or not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                self._close(s, shutdown_only=True)
            with self._lock:
                self._open.discard(src)
                self._open.discard(dst)
                self._links.discard(link)

    def _close(self, s: socket.socket, shutdown_only: bool = False) -> None:
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        if not shutdown_only:
            with contextlib.suppress(OSError):
                s.close()
        with self._lock:
            self._open.discard(s)


def _silent(s: socket.socket) -> bool:
    """Nothing comes on ``s`` before its timeout, and it is not closed."""
    try:
        s.recv(9)
    except TimeoutError:
        return True
    return False


@contextlib.contextmanager
def echo_server() -> Iterator[int]:
    """A loopback server that sends back what it receives, on every connection; its port.

    >>> with echo_server() as port, socket.create_connection(("127.0.0.1", port)) as s:
    ...     s.sendall(b"hi"); s.recv(9)
    b'hi'
    """
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve(conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):
            while data := conn.recv(65536):
                conn.sendall(data)

    def accept() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()
