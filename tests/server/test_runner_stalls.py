"""A process that stood still (a stall, SIGSTOP, a starved CPU) is the house's fault (issue
35, found by an attack: a player's answer waiting in the socket while the process was frozen
lost to the turn timer firing first on resume). A timer that fires well after it was due
gives what came in meanwhile the first word."""

from __future__ import annotations

import asyncio

from paiju.server.table import io
from paiju.server.table.runner import LATE, TableRunner


class _Machine:
    id = 1

    def handle(self, event: io.Input, now: float) -> list[io.Output]:
        return []


def test_a_timer_fired_late_waits_and_the_answer_sent_in_the_stall_comes_first() -> None:
    async def run() -> list[io.Input]:
        runner = TableRunner(_Machine(), None, None)  # type: ignore[arg-type]
        fed: list[io.Input] = []
        runner.feed = fed.append  # type: ignore[method-assign,assignment]
        loop = asyncio.get_running_loop()
        # the turn's timer comes due two seconds late: the process stood still that long
        runner._fire("turn", 7, loop.time() - 2.0)
        assert fed == [] and "turn" in runner._timers  # not yet: it fires again after a grace
        fed.append(io.Act(1, "S discard 2p", 3))  # read from the socket meanwhile
        runner._timers["turn"]._run()  # the grace's end (its handle, run as the loop would)
        runner._timers["turn"].cancel()
        runner._fire("turn", 8, loop.time() - LATE / 2)  # on time (a busy loop's jitter)
        runner._fire("settle", 9, loop.time() - 2.0)  # charges nobody: a slow process plays on
        return fed

    fed = asyncio.run(run())
    assert fed == [
        io.Act(1, "S discard 2p", 3),
        io.TimerFired("turn", 7),
        io.TimerFired("turn", 8),
        io.TimerFired("settle", 9),
    ]
