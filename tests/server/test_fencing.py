"""The database fences a table two processes both believe they own (a lease lost without the
owner knowing, e.g. a stalled event loop): each step of a hand's log and the hand's close are
written once, the second writer lets the table go, and the hand that finishes is one legal
game whose money is counted once. A process retrying its own write (its answer was lost)
is not fenced. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from paiju.games import game
from paiju.server.hub import Hub
from paiju.server.ledger import audit
from paiju.server.models import Hand, HandAction
from paiju.server.store import Store
from paiju.server.table import Timing, io
from paiju.server.writer import Writer

QUICK = Timing(turn=5.0, ready=60.0, bot_wait=0.01, disconnect=30.0, bot_delay=0.0, claim_pause=0.0)


def _bots_only_hand(store: Store, seed: int) -> int:
    table_id = store.create_table("mazhan", "mazhan")
    g = game("mazhan")
    seats = {s.value: {"account": None, "name": f"bot{s.value}", "bot": "greedy"} for s in g.seats}
    start = io.StartHand(
        table_id, 1, "mazhan", seed, g.default_ruleset().to_json(), {}, seats, 1, []
    )
    with store.sessions.begin() as s:
        hand = store.start_hand(s, start)
    assert isinstance(hand, int)
    return hand


def test_a_step_is_logged_once_and_a_retry_is_not_a_conflict(
    sessions: sessionmaker[Session],
) -> None:
    mine, theirs = Store(sessions, "mine"), Store(sessions, "theirs")
    hand_id = _bots_only_hand(mine, 5)
    with sessions.begin() as s:
        assert mine.log_steps(s, [io.Step(hand_id, 1, "E discard 1m")]) == [None]
    with sessions.begin() as s:  # the same write again: its answer was lost
        assert mine.log_steps(s, [io.Step(hand_id, 1, "E discard 1m")]) == [None]
    with sessions.begin() as s:
        assert theirs.log_steps(s, [io.Step(hand_id, 1, "E discard 1m")]) == ["fenced"]
        assert theirs.log_steps(s, [io.Step(hand_id, 2, "S pass")]) == [None]


def test_a_hand_is_closed_once(sessions: sessionmaker[Session]) -> None:
    mine, theirs = Store(sessions, "mine"), Store(sessions, "theirs")
    hand_id = _bots_only_hand(mine, 6)
    abort = io.AbortHand(hand_id, {"aborted": "escape"}, [], escaper=0)
    with sessions.begin() as s:
        assert mine.abort_hand(s, abort) is None
    with sessions.begin() as s:
        assert mine.abort_hand(s, abort) is None  # a retry
        assert theirs.close_hand(s, io.CloseHand(hand_id, {"winner": "E"}, [])) == "fenced"
    with sessions() as s:
        hand = s.get(Hand, hand_id)
        assert hand is not None and hand.status == "aborted"


def test_a_retried_hand_start_is_the_same_hand(sessions: sessionmaker[Session]) -> None:
    mine, theirs = Store(sessions, "mine"), Store(sessions, "theirs")
    table = mine.create_table("mazhan", "mazhan")
    start = io.StartHand(table, 1, "mazhan", 9, {"game": "mazhan"}, {}, {}, 1, [])
    with sessions.begin() as s:
        first = mine.start_hand(s, start)
    with sessions.begin() as s:
        assert mine.start_hand(s, start) == first
        assert theirs.start_hand(s, start) == "fenced"


def test_two_owners_of_one_hand_end_with_one_game(sessions: sessionmaker[Session]) -> None:
    """Two hubs (two processes, each with its own store and writer) rebuild the same live
    hand and both play it: one is fenced off at its first conflicting write and lets the
    table go; the other finishes; the log replays from the deal to the end."""
    hand_id = _bots_only_hand(Store(sessions, "setup"), 7)
    stores = [Store(sessions, "a"), Store(sessions, "b")]
    writers = [Writer(store) for store in stores]

    async def play() -> tuple[Hub, Hub]:
        live = stores[0].live_hands()[0]
        a, b = (Hub(st, w, QUICK) for st, w in zip(stores, writers, strict=True))
        done = asyncio.Event()
        table_a, table_b = await a.restore_hand(live), await b.restore_hand(live)
        assert table_a is not None and table_b is not None
        lost: list[object] = []

        def on_lost(runner: object) -> None:
            lost.append(runner)

        a.on_lost = b.on_lost = on_lost

        async def watch() -> None:
            while True:
                await asyncio.sleep(0.01)  # the event loop's own pace: the tables play on it
                closed = await asyncio.to_thread(_status, sessions, hand_id)
                if closed != "live" and lost:
                    done.set()
                    return

        await asyncio.wait_for(watch(), timeout=120)
        await done.wait()
        return a, b

    a, b = asyncio.run(play())
    for w in writers:
        w.close()
    assert [len(a.tables), len(b.tables)].count(0) >= 1  # one let the table go
    with sessions() as s:
        hand = s.get(Hand, hand_id)
        assert hand is not None and hand.status == "done"
        total, issued = audit(s)
        assert total == issued
        log = list(
            s.scalars(
                sa.select(HandAction.action)
                .where(HandAction.hand_id == hand_id)
                .order_by(HandAction.seq)
            )
        )
    g = game("mazhan")
    state = g.new_hand(g.default_ruleset(), 7, {})
    for text in log:
        state, _ = g.apply(state, g.parse_action(text))
    assert g.is_over(state)  # one legal game, from the deal to the end


def _status(sessions: sessionmaker[Session], hand_id: int) -> str:
    with sessions() as s:
        hand = s.get(Hand, hand_id)
        assert hand is not None
        return hand.status


def test_once_fenced_nothing_more_of_that_hand_is_written(
    sessions: sessionmaker[Session],
) -> None:
    """A process whose step collided writes nothing more for that hand: not the steps
    queued behind it (they could fill seats of the other process's log), not its close."""
    mine, theirs = Store(sessions, "mine"), Store(sessions, "theirs")
    hand_id = _bots_only_hand(mine, 8)
    with sessions.begin() as s:
        mine.insert_steps(s, [io.Step(hand_id, 1, "E discard 1m")])
    writer = Writer(theirs)
    answers: list[object] = []
    for write in (
        io.Step(hand_id, 1, "E discard 2m"),
        io.Step(hand_id, 2, "S pass"),
        io.CloseHand(hand_id, {"winner": None}, []),
    ):
        writer.submit(write, answers.append)
    writer.close()
    assert [getattr(a, "code", None) for a in answers] == ["fenced"] * 3
    with sessions() as s:
        log = list(s.scalars(sa.select(HandAction.action).where(HandAction.hand_id == hand_id)))
        hand = s.get(Hand, hand_id)
    assert log == ["E discard 1m"] and hand is not None and hand.status == "live"


def test_a_process_fenced_off_a_hand_writes_it_again_once_it_takes_it_over(
    sessions: sessionmaker[Session],
) -> None:
    """Found by an attack (an owner frozen past its lease): the process that took the hand
    over was fenced once, and its writer kept the hand fenced for the process's life, so
    every later take-over of it was fenced at its first step: the hand never ended. Taking a
    hand over lets go of its fence."""
    hand_id = _bots_only_hand(Store(sessions, "setup"), 9)
    store = Store(sessions, "b")
    writer = Writer(store)
    writer.fenced.add(hand_id)  # fenced off it once, earlier in this process's life

    async def take_over() -> str:
        hub = Hub(store, writer, QUICK)
        runner = await hub.restore_hand(store.live_hands()[0])
        assert runner is not None
        for _ in range(12000):  # the table plays on the loop (bots only) until it is done
            status = await asyncio.to_thread(_status, sessions, hand_id)
            if status != "live" or not hub.tables:
                return status
            await asyncio.sleep(0.01)
        return "live"

    asyncio.run(take_over())
    # the table leaves the hub once its hand is over, maybe before the writer has committed
    # the hand's close (a busy machine): what is queued is written first, then read
    writer.close()
    assert _status(sessions, hand_id) == "done"


def test_a_step_in_the_way_that_was_rolled_back_is_written_not_fenced(
    sessions: sessionmaker[Session],
) -> None:
    """A conflict with a row that is gone when looked at (another process's transaction
    rolled back) is no fence: the step is written."""
    mine = Store(sessions, "mine")
    hand_id = _bots_only_hand(mine, 10)
    with sessions.begin() as s:
        real = s.execute  # the batch's insert and the step's own meet a row that then vanishes

        calls = {"n": 0}

        def flaky(statement: object, *args: object, **kwargs: object) -> object:
            if calls["n"] < 2 and "INSERT INTO hand_actions" in str(statement):
                calls["n"] += 1
                raise sa.exc.IntegrityError("INSERT", {}, Exception("in the way"))
            return real(statement, *args, **kwargs)  # type: ignore[call-overload]

        s.execute = flaky  # type: ignore[method-assign,assignment]
        assert mine.log_steps(s, [io.Step(hand_id, 1, "E discard 1m")]) == [None]
    with sessions() as s:
        log = list(s.scalars(sa.select(HandAction.action).where(HandAction.hand_id == hand_id)))
    assert log == ["E discard 1m"]
