"""Searching bots (``hard``) share one thread of the process, and a deep queue of their
decisions is answered by their cheaper fallback: a server full of hard tables plays slower
bots, not a slower table for everyone (the event loop keeps its share of the interpreter)."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

from paiju.server.table import io
from paiju.server.table import runner as table_runner
from paiju.server.table.runner import SEARCHES_WAITING, TableRunner


class _Machine:
    id = 1

    def handle(self, event: io.Input, now: float) -> list[io.Output]:
        return []


class _Cheap:
    def __init__(self) -> None:
        self.calls = 0

    def act(self, view: Any, legal: Any, rng: random.Random) -> str:
        self.calls += 1
        return "cheap"


class _Searching:
    """A search that runs until it is let go, and the thread it ran on."""

    heavy = True

    def __init__(self, go: threading.Event) -> None:
        self.go = go
        self.fallback = _Cheap()
        self.threads: set[str] = set()

    def act(self, view: Any, legal: Any, rng: random.Random) -> str:
        self.threads.add(threading.current_thread().name)
        assert self.go.wait(60), "never let go"
        return "searched"


def test_a_deep_queue_of_searches_is_answered_by_the_fallback() -> None:
    async def run() -> None:
        go = threading.Event()
        bot = _Searching(go)
        runner = TableRunner(_Machine(), None, None)  # type: ignore[arg-type]
        moves: list[io.BotMove] = []
        done = asyncio.Event()

        def fed(move: io.BotMove) -> None:  # on the loop's thread, as the runner feeds
            moves.append(move)
            if len(moves) == 10:
                done.set()

        runner.feed = fed  # type: ignore[method-assign,assignment]
        decide = [io.Decide(s, s, bot, None, ("x",), random.Random(s)) for s in range(10)]
        for d in decide:
            runner._decide(d)
        # the first SEARCHES_WAITING wait for the one thread; the rest were played at once
        # by the fallback
        assert bot.fallback.calls == len(decide) - SEARCHES_WAITING
        assert [m.action for m in moves] == ["cheap"] * (len(decide) - SEARCHES_WAITING)
        assert table_runner._Searches.waiting == SEARCHES_WAITING
        go.set()
        await asyncio.wait_for(done.wait(), 60)
        assert [m.action for m in moves].count("searched") == SEARCHES_WAITING
        assert table_runner._Searches.waiting == 0
        assert len(bot.threads) == 1 and next(iter(bot.threads)).startswith("paiju-search")

    asyncio.run(run())
