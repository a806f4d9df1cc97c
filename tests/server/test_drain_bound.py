"""The drain's bound (paiju/server/drain.py): when ``PAIJU_DRAIN_SECONDS`` runs out, the tables
whose hands are still live stop where they are (no hand may end on the draining process in
the moments before its sockets close, its settlement unseen: under load, a hand whose last
action came just before the bound was settled at shutdown while its player was cut), and a
hand that has just ended is given its moment to be written and shown before the sockets
close. Tables and sockets are stand-ins: what is checked is what the drain waits for."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

from paiju.server.drain import drain
from paiju.server.services import Services


class Machine:
    """A table's state as the drain reads it: ``quiet`` turns true on its ``quiet_after``-th
    reading (``None``: never)."""

    def __init__(self, live: bool, quiet_after: int | None) -> None:
        self.live = live
        self.quiet_after = quiet_after
        self.readings = 0

    @property
    def quiet(self) -> bool:
        self.readings += 1
        return self.quiet_after is not None and self.readings >= self.quiet_after


class Runner:
    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.stopped = False
        self.fed: list[Any] = []

    def feed(self, event: Any) -> None:
        self.fed.append(event)

    def stop(self) -> None:
        self.stopped = True


def _services(tables: dict[int, Runner]) -> Services:
    hub = SimpleNamespace(
        tables=tables, conns={}, where={}, watching={}, draining=False,
        deliver=lambda account, frame: None,
    )  # fmt: skip
    return cast(Services, SimpleNamespace(hub=hub, draining=False))


def test_at_the_bound_live_hands_stop_and_a_hand_just_ended_is_shown_before_the_close() -> None:
    playing = Runner(Machine(live=True, quiet_after=None))  # its hand outlives the bound
    ending = Runner(Machine(live=False, quiet_after=4))  # settled: its close still being written
    idle = Runner(Machine(live=False, quiet_after=1))
    services = _services({1: playing, 2: ending, 3: idle})

    # a bound of 0: the drain is at its bound at once; the grace is far longer than needed, so
    # returning at all means the drain stopped waiting for the table it stopped
    left = asyncio.run(asyncio.wait_for(drain(services, 0.0, poll=0.0, ending=60.0), 30))

    assert left == 1
    assert playing.stopped, "a hand live at the bound must not go on here"
    assert not ending.stopped and not idle.stopped
    assert ending.machine.readings >= 4, "the hand that had ended was not waited for"
    assert all(type(r.fed[0]).__name__ == "Drain" for r in (playing, ending, idle))


def test_the_wait_for_a_hand_just_ended_is_bounded() -> None:
    stuck = Runner(Machine(live=False, quiet_after=None))  # its storage stalls for good
    services = _services({1: stuck})
    left = asyncio.run(asyncio.wait_for(drain(services, 0.0, poll=0.0, ending=0.0), 30))
    assert left == 0 and not stuck.stopped


def test_a_join_in_flight_as_the_drain_begins_opens_no_table_that_plays() -> None:
    """A join reads the player's balance in a thread; a SIGTERM arriving then must not let it
    open a table whose hands start on the draining process (under load, hands started at
    the drain's beginning were cut at its bound)."""
    from paiju.server.config import Settings
    from paiju.server.db import migrate
    from paiju.server.errors import ServerError
    from paiju.server.ledger import new_account
    from paiju.server.protocol import Join
    from paiju.server.services import build

    svc = build(Settings.from_env({"PAIJU_DATABASE_URL": "sqlite://"}))
    migrate(svc.engine)
    with svc.sessions.begin() as s:
        ana = new_account(s, "ana", "!", 100_000).id
    hub = svc.hub
    balances = hub.store.balances

    def balances_then_sigterm(accounts: list[int]) -> dict[int, int]:
        found = balances(accounts)
        hub.draining = True  # the drain begins while the join waits for this
        return found

    hub.store.balances = balances_then_sigterm  # type: ignore[method-assign,assignment]

    async def join() -> str:
        try:
            await hub.join(ana, "ana", Join(type="join", room="mazhan", alone=True))
        except ServerError as err:
            return err.code
        return "seated"

    async def opened_while_draining() -> bool:
        runner = await hub.new_table("mazhan", True, "easy")
        return runner.machine.draining

    try:
        assert asyncio.run(join()) == "draining"
        assert hub.tables == {} and hub.table_of(ana) is None
        # a table opened all the same while draining (any other way in) starts no hand
        assert asyncio.run(opened_while_draining()) is True
    finally:
        svc.close()
