"""Draining a process on SIGTERM (docs/operate.md): it stops seating people at new tables
(a join is refused, ``draining``), says it is not ready (``/api/ready`` 503, the metric
``paiju_draining``), tells its players (the ``draining`` frame), lets the live hands play on
to their ends for up to ``PAIJU_DRAIN_SECONDS``, starting no other, then shuts down as
before: in a cluster the hands still live are handed over to another process at once (their
leases released), alone they are rebuilt by the next start. The process exits 0.

A second SIGTERM (or a SIGINT) stops it at once, as before.

>>> from paiju.server.config import Settings
>>> from paiju.server.services import build
>>> svc = build(Settings.from_env({"PAIJU_DATABASE_URL": "sqlite://"}))
>>> asyncio.run(drain(svc, 5.0)), svc.draining, svc.hub.draining
(0, True, True)
>>> svc.close()
"""

from __future__ import annotations

import asyncio
import logging
import signal
from types import FrameType

import uvicorn

from paiju.server.hub import Hub
from paiju.server.services import Services
from paiju.server.table import io

__all__ = ["DrainingServer", "drain", "live_hands"]

log = logging.getLogger("paiju.drain")


def live_hands(hub: Hub) -> int:
    """How many of this process's tables play a hand now."""
    return sum(1 for runner in hub.tables.values() if runner.machine.live)


def _busy(hub: Hub) -> bool:
    """A hand is live, a write or a frame waits, or a socket has frames still to send."""
    tables = any(not runner.machine.quiet for runner in hub.tables.values())
    return tables or any(not conn.queue.empty() for conn in hub.conns.values())


async def drain(services: Services, seconds: float, poll: float = 0.05) -> int:
    """Drain this process (see the module): not ready, no new table, no new hand, the
    players told; wait up to ``seconds`` for the live hands to end. How many are still live
    (to be handed over, or rebuilt by the next start)."""
    loop = asyncio.get_running_loop()
    hub = services.hub
    services.draining = hub.draining = True
    live = live_hands(hub)
    log.info(
        "draining: %d live hands, %d tables; waiting up to %.0f s",
        live,
        len(hub.tables),
        seconds,
        extra={"event": "drain", "live": live, "tables": len(hub.tables)},
    )
    for runner in list(hub.tables.values()):
        runner.feed(io.Drain())
    frame = {"type": "draining", "seconds": seconds}
    for account in set(hub.conns) | set(hub.where) | set(hub.watching):
        hub.deliver(account, frame)
    end = loop.time() + seconds
    while _busy(hub) and loop.time() < end:
        await asyncio.sleep(poll)
    left = live_hands(hub)
    log.info(
        "drained: %d hands left live",
        left,
        extra={"event": "drained", "live": left},
    )
    return left


class DrainingServer(uvicorn.Server):
    """uvicorn's server, draining on the first SIGTERM (:func:`drain`) before it shuts down,
    and exiting 0 after (uvicorn alone would close every socket at once, then raise the
    signal again)."""

    def __init__(self, config: uvicorn.Config, services: Services, seconds: float) -> None:
        super().__init__(config)
        self.services = services
        self.seconds = seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._draining = False
        self._tasks: set[asyncio.Task[None]] = set()  # held: a task only referenced dies

    async def serve(self, sockets: list[object] | None = None) -> None:  # type: ignore[override]
        """Serve (uvicorn's), noting the loop the signal's drain runs on."""
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)  # type: ignore[arg-type]

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """The first SIGTERM of a started server drains; anything else is uvicorn's."""
        if sig == signal.SIGTERM and not self._draining and self.started and self._loop:
            self._draining = True
            self._loop.call_soon_threadsafe(self._begin)
            return
        super().handle_exit(sig, frame)

    def _begin(self) -> None:
        task = asyncio.get_running_loop().create_task(self._drain())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drain(self) -> None:
        try:
            await drain(self.services, self.seconds)
        finally:
            self.should_exit = True
