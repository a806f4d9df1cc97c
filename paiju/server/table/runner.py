"""A table machine on the event loop: this module does the I/O the machine decides.

Frames go to the accounts' connections (through the hub), writes to the writer thread (its
answers come back onto the loop as inputs), timers are the loop's, bots decide on the loop
(or in a worker thread for a bot marked ``heavy``). Nothing here blocks the loop.

>>> TableRunner.__doc__.splitlines()[0]
'One table: its machine, its timers, its in-flight writes.'
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextvars
import dataclasses
import logging
import math
import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from paiju.server.metrics import NOWHERE
from paiju.server.table import TableMachine, io
from paiju.server.writer import Answer, Writer

if TYPE_CHECKING:
    from paiju.server.hub import Hub

__all__ = ["SEARCHES_WAITING", "Inbox", "TableRunner"]

#: Searching bots' decisions (``hard``) queued on a process beyond which a decision is made
#: by the bot's cheaper fallback instead (``strong``, ``heuristic``).
SEARCHES_WAITING = 4


class _Searches:
    """The process's one thread for searching bots. A search holds the interpreter for its
    whole budget (200 ms); several at once, in the default pool's threads, left the event
    loop a sliver of it: 128 tables of hard bots made a new socket wait up to 13 s for its
    `hello`. One thread shares the interpreter with the loop about evenly, and a queue
    longer than :data:`SEARCHES_WAITING` is answered by the cheaper bots."""

    waiting = 0  # read and written on the event loop's thread only
    _pool: concurrent.futures.ThreadPoolExecutor | None = None

    @classmethod
    def pool(cls) -> concurrent.futures.ThreadPoolExecutor:
        if cls._pool is None:
            cls._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="paiju-search")
        return cls._pool


log = logging.getLogger("paiju.table")


class Inbox:
    """Calls from other threads (the writer's answers) run on one event loop, in the order
    they came, with one wake-up of the loop for all that came meanwhile (a batch of writes
    answers many tables at once) instead of one each.

    >>> async def main() -> list[int]:
    ...     got: list[int] = []
    ...     inbox = Inbox(asyncio.get_running_loop())
    ...     for i in range(3):
    ...         inbox.put(got.append, i)
    ...     await asyncio.sleep(0)
    ...     return got
    >>> asyncio.run(main())
    [0, 1, 2]
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._calls: collections.deque[tuple[Callable[[Any], None], Any]] = collections.deque()
        self._scheduled = False

    def put(self, fn: Callable[[Any], None], arg: Any) -> None:
        """Run ``fn(arg)`` on the loop soon (from any thread)."""
        self._calls.append((fn, arg))
        if not self._scheduled:
            self._scheduled = True
            self.loop.call_soon_threadsafe(self._run)

    def _run(self) -> None:
        self._scheduled = False  # first: a call put from now on schedules another run
        calls = self._calls
        while calls:
            fn, arg = calls.popleft()
            try:
                fn(arg)
            except Exception:  # one table's failure must not hold back the others' answers
                log.exception("an answer from another thread failed")


#: Bots' think times end on a multiple of this (seconds of the loop's clock), so that the
#: many tables' bot timers come due together: one wake-up of the loop for all of them.
TICK = 0.02
_TICK_MIN = 0.1  # shorter think times (tests, the fast pace) are kept exact
#: A timer that may charge a player (a turn's, the away clock's, the ready clock's) and
#: fires this much after it was due says the process stood still: it fires again this much
#: later, once the input that came meanwhile has been read (a turn answered in the stall
#: is no timeout); the other timers fire as they come (a slow process plays on)
LATE = 0.25
_CHARGING = ("turn", "away:", "ready:")
_NEVER_LATE = math.inf


def _on_tick(when: float) -> float:
    """The first tick at or after ``when``.

    >>> _on_tick(1.001), _on_tick(1.02), _on_tick(0.0)
    (1.02, 1.02, 0.0)
    """
    return math.ceil(round(when / TICK, 9)) * TICK


_INBOXES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Inbox] = weakref.WeakKeyDictionary()


def _inbox(loop: asyncio.AbstractEventLoop) -> Inbox:
    inbox = _INBOXES.get(loop)
    if inbox is None:
        inbox = _INBOXES[loop] = Inbox(loop)
    return inbox


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
        self.inbox = _inbox(self.loop)
        self.clock = clock or self.loop.time
        self.stopped = False
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._busy = False
        self._queue: list[io.Input] = []
        # a timer is the loop's handle and the key and token it fires with: no copy of the
        # context, no bound method and no input made per timer (the garbage collector walks
        # whatever is new; the input is made when the timer fires)
        self._context = contextvars.copy_context()
        self._fire_cb = self._fire
        self.metrics = getattr(hub, "metrics", None) or NOWHERE
        self._acted: float | None = None  # when the last action came, until its first view

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
                paused = self.machine._paused
                if isinstance(event, io.Act | io.BotMove):
                    self._acted = time.perf_counter()
                try:
                    outputs = self.machine.handle(event, self.clock())
                except Exception:  # a bug in the machine must not take the server down
                    log.exception("table %s: %s failed", self.id, type(event).__name__)
                    continue
                if self.machine._paused and not paused:
                    self.metrics.pauses.inc()
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
                if self._acted is not None and out.frame.get("type") == "view":
                    self.metrics.frame.observe(time.perf_counter() - self._acted)
                    self._acted = None
                if out.ack:  # a turn: its clock starts once the frame is shown
                    self.hub.deliver(out.account, out.frame, self._shown(out.account, out.ack))
                else:
                    self.hub.deliver(out.account, out.frame)
            elif isinstance(out, io.Store):
                kind = type(out.write).__name__
                self.metrics.write(kind)
                self.writer.submit(out.write, self._answerer(out.op, kind == "Step"))
            elif isinstance(out, io.SetTimer):
                old = self._timers.pop(out.key, None)
                if old is not None:
                    old.cancel()
                key, token, ctx = out.key, out.token, self._context
                if key == "bot":
                    # a bot's think time ends on a tick: the tables' bots share wake-ups
                    when = self.loop.time() + out.delay
                    if out.delay >= _TICK_MIN:
                        when = _on_tick(when)
                    timer = self.loop.call_at(
                        when, self._fire_cb, key, token, _NEVER_LATE, context=ctx
                    )
                else:
                    due = self.loop.time() + out.delay
                    timer = self.loop.call_at(due, self._fire_cb, key, token, due, context=ctx)
                self._timers[key] = timer
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

    def _fire(self, key: str, token: int, due: float) -> None:
        if self.loop.time() - due > LATE and key.startswith(_CHARGING):
            # the process stood still (a stall, a pause, starved of CPU): what players sent
            # meanwhile waits in its sockets, and is read first; the house's stall is no
            # player's timeout, escape or unseating
            again = self.loop.call_later(LATE, self._fire_cb, key, token, _NEVER_LATE)
            self._timers[key] = again
            return
        self.feed(io.TimerFired(key, token))

    def _shown(self, account: int, ack: int) -> Callable[[], None]:
        """What the hub calls once a turn's frame is handed to the account's connection: the
        machine hears it after the outputs being carried out now (never in their midst)."""
        delivered = io.Delivered(account, ack)

        def shown() -> None:
            self.loop.call_soon(self.feed, delivered)

        return shown

    def _answerer(self, op: int, step: bool = False) -> Callable[[Answer], None]:
        asked = time.perf_counter() if step else 0.0

        def answer(value: Answer) -> None:  # from the writer's thread
            if step and isinstance(value, io.Stored):
                self.metrics.durable.observe(time.perf_counter() - asked)
            self.inbox.put(self.feed, dataclasses.replace(value, op=op))

        return answer

    def _decide(self, d: io.Decide) -> None:
        if self.stopped:
            return
        if getattr(d.bot, "heavy", False):
            fallback = getattr(d.bot, "fallback", None)
            if _Searches.waiting >= SEARCHES_WAITING and fallback is not None:
                # the searches are queued deep: this decision is the cheap bot's, at once
                # (a slower bot, not a slower server)
                self._decided_now(d, fallback)
                return
            _Searches.waiting += 1
            asked = time.perf_counter()
            task = self.loop.run_in_executor(_Searches.pool(), d.bot.act, d.view, d.legal, d.rng)
            hist = self.metrics.bot_decisions.labels("search")
            task.add_done_callback(lambda _f: hist.observe(time.perf_counter() - asked))
            task.add_done_callback(lambda f: self._searched(d, f))
            return
        self._decided_now(d, d.bot)

    def _decided_now(self, d: io.Decide, bot: Any) -> None:
        """``bot`` decides ``d`` here, on the loop's thread (a cheap bot)."""
        try:
            with self.metrics.timed("loop"):
                action = bot.act(d.view, d.legal, d.rng)
        except Exception:
            log.exception("table %s: a bot failed; playing its first legal action", self.id)
            action = d.legal[0]
        self.feed(io.BotMove(d.seat, d.token, action))

    def _searched(self, d: io.Decide, future: asyncio.Future[Any]) -> None:
        _Searches.waiting -= 1
        self._decided(d, future)

    def _decided(self, d: io.Decide, future: asyncio.Future[Any]) -> None:
        try:
            action = future.result()
        except Exception:
            log.exception("table %s: a bot failed; playing its first legal action", self.id)
            action = d.legal[0]
        self.feed(io.BotMove(d.seat, d.token, action))
