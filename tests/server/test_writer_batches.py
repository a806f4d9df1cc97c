"""A busy room's batch of writes (steps, hand starts and hand closes) goes to PostgreSQL in
three round trips (``Store.starts_and_closes``), and it leaves the database exactly as the
same writes made one by one do: the same hands, the same answers (a retried start is the
same hand, a retried close is settled once, another process's hand is fenced off) and the
same ledger, row for row. A batch the ledger refuses (too few points) is sent again write
by write, and only the refused write fails."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from paiju.server import ledger
from paiju.server.db import make_engine, make_sessions
from paiju.server.money import HOUSE
from paiju.server.store import Store
from paiju.server.table import io
from paiju.server.writer import Answer, Writer, _Item
from tests.server.security_servers import empty_database


@pytest.fixture
def fresh(postgres_url: str) -> Iterator[Any]:
    """A function emptying the run's PostgreSQL database and making the house, four
    accounts of 1,000 points and four tables: (sessions, accounts, tables), on a new engine
    each call (the house's id is cached per engine)."""
    engines: list[sa.Engine] = []

    def make() -> tuple[sessionmaker[Session], list[int], list[int]]:
        empty_database(postgres_url)
        engine = make_engine(postgres_url)
        engines.append(engine)
        sessions = make_sessions(engine)
        with sessions.begin() as s:
            ledger.house(s)
            accounts = [ledger.new_account(s, f"p{i}", "", 1000).id for i in range(4)]
        store = Store(sessions, "mine")
        return sessions, accounts, [store.create_table("mazhan", "mazhan") for _ in range(4)]

    yield make
    for engine in engines:
        engine.dispose()


def _start(table: int, hand_no: int, payer: int) -> io.StartHand:
    seats = {"E": {"account": payer, "name": "p", "bot": None}}
    return io.StartHand(
        table, hand_no, "mazhan", 7, {"game": "mazhan"}, {}, seats, 10, [(payer, HOUSE, 10)]
    )


def _state(sessions: sessionmaker[Session]) -> dict[str, list[tuple[Any, ...]]]:
    queries = {
        "accounts": "SELECT id, balance FROM accounts ORDER BY id",
        "hands": "SELECT id, table_id, hand_no, writer, seed, seats::text, stake, status, "
        "result::text FROM hands ORDER BY id",
        "steps": "SELECT hand_id, seq, action, writer FROM hand_actions ORDER BY hand_id, seq",
        "ledger": "SELECT account_id, amount, balance_after, reason, hand_id, event_key, seq "
        "FROM ledger ORDER BY event_key, seq",
    }
    with sessions() as s:
        return {k: [tuple(r) for r in s.execute(sa.text(q))] for k, q in queries.items()}


def _batches(accounts: list[int], tables: list[int], hands: list[Any]) -> list[list[io.Write]]:
    """Two batches of a busy room: four hand starts; then steps, closes (one asked for twice,
    the second time with another result; one of a hand another process closed), a new hand
    (asked for twice), and a retried start."""
    a0, a1, a2, _a3 = accounts
    first: list[io.Write] = [_start(t, 1, a) for t, a in zip(tables, accounts, strict=True)]
    if not hands:
        return [first]
    h0, h1, h2, _h3 = hands
    second: list[io.Write] = [
        io.Step(h0, 1, "E discard 1m"),
        io.Step(h1, 1, "E discard 2m"),
        io.CloseHand(h0, {"winner": "E"}, [(a0, a1, 100), (HOUSE, a0, 30)]),
        io.CloseHand(h1, {"winner": None}, [(a1, HOUSE, 5), (a2, a1, 0)]),
        _start(tables[0], 2, a0),
        _start(tables[1], 1, a1),  # a retry: its answer was lost
        io.CloseHand(h0, {"winner": "W"}, [(a0, a1, 100), (HOUSE, a0, 30)]),  # asked twice
        io.CloseHand(h2, {"winner": "S"}, [(a2, a0, 50)]),  # another process closed it
        _start(tables[0], 2, a0),  # asked twice in one batch
    ]
    return [first, second]


def _one_by_one(store: Store, s: Session, writes: list[io.Write]) -> list[Any]:
    answers: list[Any] = []
    for w in writes:
        if isinstance(w, io.Step):
            answers.append(store.log_steps(s, [w])[0])
        elif isinstance(w, io.StartHand):
            answers.append(store.start_hand(s, w))
        else:
            assert isinstance(w, io.CloseHand)
            answers.append(store.close_hand(s, w))
    return answers


def _play(fresh: Any, together: bool) -> tuple[list[list[Any]], dict[str, Any]]:
    sessions, accounts, tables = fresh()
    mine, theirs = Store(sessions, "mine"), Store(sessions, "theirs")
    with sessions.begin() as s:  # another process started the fourth table's hand first
        theirs.start_hand(s, _start(tables[3], 1, accounts[3]))
    answers: list[list[Any]] = []
    hands: list[Any] = []
    for batch in (0, 1):
        writes = _batches(accounts, tables, hands)[batch]
        with sessions.begin() as s:
            if together:
                steps = [w for w in writes if isinstance(w, io.Step)]
                run = [w for w in writes if isinstance(w, io.StartHand | io.CloseHand)]
                got = iter(mine.starts_and_closes(s, steps, run))
                answers.append([None if isinstance(w, io.Step) else next(got) for w in writes])
            else:
                answers.append(_one_by_one(mine, s, writes))
        if batch == 0:
            hands = list(answers[0])
            with sessions.begin() as s:  # and closed the third table's hand (it took it over)
                assert theirs.close_hand(s, io.CloseHand(hands[2], {"by": "them"}, [])) is None
    with sessions() as s:
        balances, issued = ledger.audit(s)
    assert balances == issued  # the books balance
    return answers, _state(sessions)


def test_a_batch_together_is_the_same_as_write_by_write(fresh: Any) -> None:
    together, state = _play(fresh, together=True)
    one_by_one, expected = _play(fresh, together=False)
    assert together == one_by_one
    first, second = together
    assert first[3] == "fenced" and all(isinstance(h, int) for h in first[:3])
    assert second[5] == first[1]  # the retried start is the same hand
    assert second[7] == "fenced"  # the hand another process closed
    assert second[8] == second[4]  # the start asked twice is one hand, its fee paid once
    assert state == expected
    settled = [row for row in state["ledger"] if row[5] == f"hand:{first[0]}:settle"]
    assert len(settled) == 4  # the close asked for twice is settled once


def test_a_batch_the_ledger_refuses_is_sent_again_write_by_write(fresh: Any) -> None:
    sessions, accounts, tables = fresh()
    store = Store(sessions, "mine")
    writer = Writer(store)
    try:
        with sessions.begin() as s:
            hands = [
                int(store.start_hand(s, _start(t, 1, a)))
                for t, a in zip(tables, accounts, strict=True)
            ]
        writes: list[io.Write] = [
            io.CloseHand(hands[0], {}, [(accounts[0], accounts[1], 500)]),
            io.CloseHand(hands[1], {}, [(accounts[2], accounts[1], 5_000)]),  # has 990
            _start(tables[0], 2, accounts[0]),
        ]
        items = [_Item(w, lambda _a: None) for w in writes]
        # one batch, as a busy room's writes come together (the writer's thread is idle)
        answers: list[Answer] = writer._transaction(items)
    finally:
        writer.close()
    assert answers[0] == io.Stored(0) and answers[1] == io.Failed(0, "fenced")
    assert isinstance(answers[2], io.Stored) and answers[2].result > max(map(int, hands))
    with sessions() as s:
        balances = dict(s.execute(sa.text("SELECT id, balance FROM accounts")).all())
        assert ledger.audit(s)[0] == ledger.audit(s)[1]
    assert [balances[a] for a in accounts] == [990 - 500 - 10, 990 + 500, 990, 990]


def test_a_batch_with_a_step_written_before_is_sorted_out_write_by_write(fresh: Any) -> None:
    """A step already in the log (the batch's commit was cut off after it landed) stops the
    pipeline; the batch is sent again write by write and each write is answered."""
    sessions, accounts, tables = fresh()
    store = Store(sessions, "mine")
    writer = Writer(store)
    try:
        with sessions.begin() as s:
            hand = int(store.start_hand(s, _start(tables[0], 1, accounts[0])))
            store.log_steps(s, [io.Step(hand, 1, "E discard 1m")])
        writes: list[io.Write] = [
            io.Step(hand, 1, "E discard 1m"),
            io.Step(hand, 2, "S pass"),
            io.CloseHand(hand, {"winner": "E"}, [(HOUSE, accounts[0], 25)]),
            _start(tables[1], 1, accounts[1]),
        ]
        answers = writer._transaction([_Item(w, lambda _a: None) for w in writes])
    finally:
        writer.close()
    assert answers[:3] == [io.Stored(0), io.Stored(0), io.Stored(0)]
    assert isinstance(answers[3], io.Stored) and isinstance(answers[3].result, int)
    state = _state(sessions)
    assert [row[1:3] for row in state["steps"]] == [(1, "E discard 1m"), (2, "S pass")]
    assert dict(state["accounts"])[accounts[0]] == 1000 - 10 + 25
