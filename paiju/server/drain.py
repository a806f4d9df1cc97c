"""Draining a process on SIGTERM (docs/operate.md): it stops seating people at new tables
(a join is refused, ``draining``), says it is not ready (``/api/ready`` 503, the metric
``paiju_draining``), tells its players (the ``draining`` frame), lets the live hands play on
to their ends for up to ``PAIJU_DRAIN_SECONDS``, starting no other, then shuts down as
before: in a cluster the hands still live are handed over to another process at once (their
leases released), alone they are rebuilt by the next start. The process exits 0.

At the bound, the tables whose hands are still live stop where they are (their log is whole:
the next owner goes on from it), so that no hand ends on this process in the moments before
its sockets close, its settlement unseen; a hand that ended just before the bound has a few
seconds more (:data:`ENDING_SECONDS`) to write its close and send its settlement, so that
its players see their hand's end, not a reconnect.

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

__all__ = ["ENDING_SECONDS", "DrainingServer", "drain", "live_hands"]

log = logging.getLogger("paiju.drain")

#: after the bound, the most a hand that has just ended waits for its close to be durable and
#: its settlement sent (a commit takes milliseconds; a storage stall pauses a table at 2 s)
ENDING_SECONDS = 5.0


def live_hands(hub: Hub) -> int:
    """How many of this process's tables play a hand now."""
    return sum(1 for runner in hub.tables.values() if runner.machine.live)


def _busy(hub: Hub) -> bool:
    """A running table has a hand live or a write or a frame waiting, or a socket has frames
    still to send."""
    tables = any(not runner.machine.quiet for runner in hub.tables.values() if not runner.stopped)
    return tables or any(not conn.queue.empty() for conn in hub.conns.values())


def _stop_live(hub: Hub) -> int:
    """Stop the tables whose hands are live, where they are: no action is applied here any
    more (their hands go on from their logs elsewhere). How many."""
    live = [runner for runner in hub.tables.values() if runner.machine.live]
    for runner in live:
        runner.stop()
    return len(live)


async def drain(
    services: Services, seconds: float, poll: float = 0.05, ending: float = ENDING_SECONDS
) -> int:
    """Drain this process (see the module): not ready, no new table, no new hand, the
    players told; wait up to ``seconds`` for the live hands to end, then stop those still
    live and give the hands that have just ended up to ``ending`` seconds more to be written
    and shown. How many are still live (to be handed over, or rebuilt by the next start)."""
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
    left = _stop_live(hub)
    end = loop.time() + ending
    while _busy(hub) and loop.time() < end:
        await asyncio.sleep(poll)
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
        """The first SIGTERM of a started server drains; anything else stops work that may
        run for seconds (uvicorn waits for open requests before the app's lifespan ends,
        and a review's request waits on its review), then is uvicorn's.

        >>> import uvicorn
        >>> from types import SimpleNamespace
        >>> services = SimpleNamespace(stopping=False)
        >>> server = DrainingServer(uvicorn.Config(app=None), services, 60)
        >>> server.handle_exit(signal.SIGINT, None)
        >>> services.stopping, server.should_exit
        (True, True)
        """
        if sig == signal.SIGTERM and not self._draining and self.started and self._loop:
            self._draining = True
            self._loop.call_soon_threadsafe(self._begin)
            return
        self.services.stopping = True
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
