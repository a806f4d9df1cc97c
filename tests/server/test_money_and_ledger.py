"""§10 money rules and the ledger, on SQLite and on PostgreSQL."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session, sessionmaker

from paiju.server.accounts import account_for_token, login, register
from paiju.server.errors import ServerError
from paiju.server.ledger import HOUSE, apply, audit, house
from paiju.server.models import Account, LedgerEntry
from paiju.server.money import escape_penalty, settle_hand, stake_for, table_fees


def test_s10_stake_ladder() -> None:
    assert stake_for([8000]) == 10  # the rules' example
    assert [stake_for([b]) for b in (800, 1599, 1600, 3999, 4000, 16000, 80000)] == [
        1,
        1,
        2,
        2,
        5,
        20,
        100,
    ]
    assert stake_for([1_000_000, 5_000_000]) == 1000


def test_s10_escape_split() -> None:
    moves = escape_penalty("e", ["a", "b", "c"], 100_000, 5)
    assert sum(a for _, _, a in moves) == 2000  # 400 × 底注
    assert [a for _, to, a in moves if to != HOUSE] == [500, 500, 500]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 5000), min_size=4, max_size=4),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 4000)), max_size=8),
)
def test_settlement_never_overdraws_and_conserves_points(
    balances: list[int], pays: list[tuple[int, int, int]]
) -> None:
    b = dict(enumerate(balances))
    payments = [(p, q, a) for p, q, a in pays if p != q]
    moves = settle_hand(b, payments)
    after = dict(b)
    after[HOUSE] = 0  # type: ignore[index]
    for src, dst, amount in moves:
        assert amount > 0
        after[src] -= amount  # type: ignore[index]
        after[dst] += amount  # type: ignore[index]
    assert all(v >= 0 for v in after.values())
    assert sum(after.values()) == sum(balances)
    owed: dict[int, int] = {}
    for p, _, a in payments:
        owed[p] = owed.get(p, 0) + a
    for p, total in owed.items():
        paid = sum(a for s, _, a in moves if s == p)
        assert paid == min(total, b[p])


def test_accounts_register_login_and_tokens(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as s:
        register(s, "ana", "secret-pw", 10_000)
        with pytest.raises(ServerError) as taken:
            register(s, "ana", "other-pw", 10_000)
        assert taken.value.code == "name_taken"
        token = login(s, "ana", "secret-pw")
        with pytest.raises(ServerError) as bad:
            login(s, "ana", "wrong-pw")
        assert bad.value.code == "bad_credentials"
    with sessions() as s:
        acc = account_for_token(s, token)
        assert acc is not None and acc.name == "ana" and acc.balance == 10_000
        assert acc.password_hash.startswith("$argon2")
        assert audit(s) == (10_000, 10_000)


def test_ledger_balances_after_every_scenario(sessions: sessionmaker[Session]) -> None:
    rng = random.Random(4)
    with sessions.begin() as s:
        ids = [register(s, f"p{i}", "secret-pw", 5_000 + 1_000 * i).id for i in range(4)]
    for hand in range(30):
        with sessions.begin() as s:
            accounts = {i: s.get(Account, i) for i in ids}
            balances = {i: a.balance for i, a in accounts.items() if a is not None}
            stake = stake_for(list(balances.values()))
            fees = table_fees(balances, stake)
            assert apply(s, fees, "fee", f"fee:{hand}")
            balances = {i: s.get(Account, i).balance for i in ids}  # type: ignore[union-attr]
            winner = rng.choice(ids)
            pays = [(i, winner, rng.randrange(0, 400) * stake) for i in ids if i != winner]
            moves = settle_hand(balances, pays)
            apply(s, moves, "hand", f"hand:{hand}")
        with sessions() as s:
            total, issued = audit(s)
            assert total == issued
            assert all(a.balance >= 0 for a in s.scalars(sa.select(Account)))


def test_an_event_is_applied_once(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as s:
        a = register(s, "ana", "secret-pw", 1000).id
        b = register(s, "bo", "secret-pw", 1000).id
        assert apply(s, [(a, b, 100)], "hand", "hand:7")
    with sessions.begin() as s:
        assert not apply(s, [(a, b, 100)], "hand", "hand:7")
    with sessions() as s:
        assert s.get(Account, a).balance == 900  # type: ignore[union-attr]
        assert (
            s.scalar(
                sa.select(sa.func.count())
                .select_from(LedgerEntry)
                .where(LedgerEntry.event_key == "hand:7")
            )
            == 2
        )


def test_an_overdraft_rolls_the_whole_event_back(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as s:
        a = register(s, "ana", "secret-pw", 100).id
        b = register(s, "bo", "secret-pw", 100).id
    with pytest.raises(ServerError) as err, sessions.begin() as s:
        apply(s, [(b, a, 50), (a, HOUSE, 500)], "hand", "hand:1")
    assert err.value.code == "insufficient_funds"
    with sessions() as s:
        assert s.get(Account, a).balance == 100  # type: ignore[union-attr]
        assert s.get(Account, b).balance == 100  # type: ignore[union-attr]
        assert house(s).balance == 0
        assert audit(s) == (200, 200)


def test_two_processes_creating_the_house_at_once_make_one(
    sessions: sessionmaker[Session],
) -> None:
    """The house account is made on first use; two servers may both try at once (the
    second waits for the first's transaction and then finds its row)."""
    import threading
    import time

    first = sessions()
    first.begin()
    mine = house(first).id
    theirs: list[int] = []

    def other() -> None:
        with sessions.begin() as s:
            theirs.append(house(s).id)

    t = threading.Thread(target=other)
    t.start()
    time.sleep(0.3)  # the other insert now waits on ours
    first.commit()
    first.close()
    t.join(timeout=30)
    assert theirs == [mine]
    with sessions() as s:
        count = s.scalar(sa.select(sa.func.count()).where(Account.is_house.is_(True)))
        assert count == 1


def test_movements_that_cancel_out_are_recorded_and_change_no_balance(
    sessions: sessionmaker[Session],
) -> None:
    with sessions.begin() as s:
        a = register(s, "ca", "secret-pw", 1_000).id
    with sessions.begin() as s:
        assert apply(s, [(a, HOUSE, 40), (HOUSE, a, 40)], "hand", "hand:cancel")
    with sessions() as s:
        acc = s.get(Account, a)
        assert acc is not None and acc.balance == 1_000
        assert audit(s) == (1_000, 1_000)
        assert (
            len(
                s.scalars(
                    sa.select(LedgerEntry).where(LedgerEntry.event_key == "hand:cancel")
                ).all()
            )
            == 4
        )
