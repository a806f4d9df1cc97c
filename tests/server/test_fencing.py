"""The database fences a table two processes both believe they own (a lease lost without the
owner knowing, e.g. a stalled event loop): each step of a hand's log and the hand's close are
written once, the second writer lets the table go, and the hand that finishes is one legal
game whose money is counted once. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from functools import partial

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from paiju.games import game
from paiju.server.errors import HandConflict
from paiju.server.hub import Hub
from paiju.server.ledger import audit
from paiju.server.models import Hand, HandAction
from paiju.server.store import Store
from paiju.server.table import Timing

QUICK = Timing(turn=5.0, bot_wait=0.01, disconnect=30.0, bot_delay=0.0, next_hand=60.0)


def _bots_only_hand(store: Store, seed: int) -> int:
    table_id = store.create_table("mazhan", "mazhan")
    rules = game("mazhan")
    seats = {
        s.value: {"account": None, "name": f"bot{s.value}", "bot": "greedy"} for s in rules.seats
    }
    return store.start_hand(
        table_id, "mazhan", seed, rules.default_ruleset().to_json(), {}, seats, 1, []
    )


def test_a_step_is_logged_once(sessions: sessionmaker[Session]) -> None:
    store = Store(sessions)
    hand_id = _bots_only_hand(store, 5)
    store.log_action(hand_id, 1, "E discard 1m")
    with pytest.raises(HandConflict) as err:
        store.log_action(hand_id, 1, "E discard 2m")
    assert err.value.code == "table_moved"


def test_a_hand_is_closed_once(sessions: sessionmaker[Session]) -> None:
    store = Store(sessions)
    hand_id = _bots_only_hand(store, 6)
    store.abort_hand(hand_id, {"aborted": "escape"}, [])
    with pytest.raises(HandConflict):
        store.finish_hand(hand_id, {"winner": "E"}, [])
    with sessions() as s:
        hand = s.get(Hand, hand_id)
        assert hand is not None and hand.status == "aborted"


@pytest.mark.parametrize("background", [False, True], ids=["sync-log", "background-log"])
def test_two_owners_of_one_hand_end_with_one_game(
    sessions: sessionmaker[Session], background: bool
) -> None:
    """Two hubs (two processes, each with its own store) rebuild the same live hand and both
    play it: one is fenced off at its first conflicting write and stops; the other finishes;
    the log replays from the deal to the end."""
    hand_id = _bots_only_hand(Store(sessions), 7)
    stores = [Store(sessions, background=background) for _ in range(2)]

    async def play() -> tuple[Hub, Hub]:
        loop = asyncio.get_running_loop()
        live = stores[0].live_hands()[0]
        a, b = Hub(stores[0], QUICK), Hub(stores[1], QUICK)
        for store, hub in zip(stores, (a, b), strict=True):
            if store.action_log is not None:
                store.action_log.on_conflict = partial(loop.call_soon_threadsafe, hub.hand_conflict)
        table_a, table_b = a.restore_hand(live), b.restore_hand(live)
        assert table_a is not None and table_b is not None
        for _ in range(2000):
            await asyncio.sleep(0.005)
            with sessions() as s:
                hand = s.get(Hand, hand_id)
                assert hand is not None
                if hand.status != "live" and (table_a.stopped or table_b.stopped):
                    break
        return a, b

    a, b = asyncio.run(play())
    for store in stores:
        store.close()
    assert [len(a.tables), len(b.tables)].count(0) == 1  # exactly one let the table go
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
    rules = game("mazhan")
    state = rules.new_hand(rules.default_ruleset(), 7, {})
    for text in log:
        state, _ = rules.apply(state, rules.parse_action(text))
    assert state.phase.value == "over"  # one legal game, from the deal to the end
