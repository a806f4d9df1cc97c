"""A table machine on the event loop: this module does the I/O the machine decides.

Frames go to the accounts' connections (through the hub), writes to the writer thread (its
answers come back onto the loop as inputs), timers are the loop's, bots decide on the loop
(or in a worker thread for a bot marked ``heavy``). Nothing here blocks the loop.

>>> TableRunner.__doc__.splitlines()[0]
'One table: its machine, its timers, its in-flight writes.'
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from paiju.server import table_io as io
from paiju.server.table_machine import TableMachine
from paiju.server.writer import Answer, Writer

if TYPE_CHECKING:
    from paiju.server.hub import Hub

__all__ = ["TableRunner"]

log = logging.getLogger("paiju.table")


class TableRunner:
    """One table: its machine, its timers, its in-flight writes."""

    def __init__(
        self,
        machine: TableMachine,
        hub: Hub,
        writer: Writer,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.machine = machine
        self.hub = hub
        self.writer = writer
        self.loop = asyncio.get_running_loop()
        self.clock = clock or self.loop.time
        self.stopped = False
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._busy = False
        self._queue: list[io.Input] = []

    @property
    def id(self) -> int:
        """The table's id."""
        return self.machine.id

    def feed(self, event: io.Input) -> None:
        """Give the machine an input and carry out what it decides (inputs that arrive while
        outputs are being carried out wait their turn, in order)."""
        if self.stopped:
            return
        self._queue.append(event)
        if self._busy:
            return
        self._busy = True
        try:
            while self._queue and not self.stopped:
                event = self._queue.pop(0)
                try:
                    outputs = self.machine.handle(event, self.clock())
                except Exception:  # a bug in the machine must not take the server down
                    log.exception("table %s: %s failed", self.id, type(event).__name__)
                    continue
                self._carry_out(outputs)
        finally:
            self._busy = False

    def start(self, outputs: list[io.Output]) -> None:
        """Carry out the outputs of a machine built outside (a restored hand)."""
        self._carry_out(outputs)

    def stop(self) -> None:
        """Stop for good: cancel the timers; later inputs are ignored."""
        self.stopped = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    def _carry_out(self, outputs: list[io.Output]) -> None:
        for out in outputs:
            if isinstance(out, io.Send):
                self.hub.deliver(out.account, out.frame)
            elif isinstance(out, io.Store):
                self.writer.submit(out.write, self._answerer(out.op))
            elif isinstance(out, io.SetTimer):
                old = self._timers.pop(out.key, None)
                if old is not None:
                    old.cancel()
                self._timers[out.key] = self.loop.call_later(
                    out.delay, self.feed, io.TimerFired(out.key, out.token)
                )
            elif isinstance(out, io.CancelTimer):
                handle = self._timers.pop(out.key, None)
                if handle is not None:
                    handle.cancel()
            elif isinstance(out, io.Decide):
                self.loop.call_soon(self._decide, out)
            elif isinstance(out, io.Changed):
                self.hub.table_changed(self)
            elif isinstance(out, io.Empty):
                self.hub.drop(self)
            elif isinstance(out, io.Lost):
                self.hub.let_go(self)

    def _answerer(self, op: int) -> Callable[[Answer], None]:
        def answer(value: Answer) -> None:  # from the writer's thread
            self.loop.call_soon_threadsafe(self.feed, dataclasses.replace(value, op=op))

        return answer

    def _decide(self, d: io.Decide) -> None:
        if self.stopped:
            return
        if getattr(d.bot, "heavy", False):
            task = self.loop.run_in_executor(None, d.bot.act, d.view, d.legal, d.rng)
            task.add_done_callback(lambda f: self._decided(d, f))
            return
        try:
            action = d.bot.act(d.view, d.legal, d.rng)
        except Exception:
            log.exception("table %s: a bot failed; playing its first legal action", self.id)
            action = d.legal[0]
        self.feed(io.BotMove(d.seat, d.token, action))

    def _decided(self, d: io.Decide, future: asyncio.Future[Any]) -> None:
        try:
            action = future.result()
        except Exception:
            log.exception("table %s: a bot failed; playing its first legal action", self.id)
            action = d.legal[0]
        self.feed(io.BotMove(d.seat, d.token, action))
