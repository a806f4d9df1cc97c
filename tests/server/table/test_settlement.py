"""Money at the end of a hand (:mod:`paiju.server.table.settlement`): the settlement is the
game's net × 底注 through the ledger's movements, never below zero; the broke are unseated;
the settlement stays with the player until they confirm; an escape costs 400 × 底注 (Ma
Diao 40 ×), a quarter to each other seat (a bot's quarter to the house) (rules §10)."""

from __future__ import annotations

from paiju.server.money import HOUSE
from paiju.server.table import io, settlement
from tests.server.table.helpers import (
    MADIAO,
    TIMING,
    Table,
    alone_hand,
    of,
    player,
    sends,
    timers,
)


def played_out(balance: int = 10_000, seed: int = 1) -> tuple[Table, list[io.Output]]:
    """ana's hand with three bots, played by 托管 to its end; what the machine did then."""
    t = Table(alone=True, seed=seed)
    t.join(1, "ana", balance=balance)
    t.ready(1)
    t.run(1.0)
    t.feed(io.Tuoguan(1, True))
    mark = t.mark()
    while t.machine.phase == "live":
        t.run(0.5)
    return t, t.since(mark)


def close_of(outputs: list[io.Output]) -> io.CloseHand:
    (close,) = [o.write for o in of(io.Store, outputs) if isinstance(o.write, io.CloseHand)]
    return close


def four_people(balances: tuple[int, int, int, int] = (10_000, 900, 10_000, 10_000)) -> Table:
    t = Table(seed=13)
    for acc, balance in enumerate(balances, 1):
        t.join(acc, f"p{acc}", balance=balance)
    for acc in (1, 2, 3, 4):
        t.ready(acc)
    assert t.machine.phase == "live"
    return t


def test_the_settlement_is_the_net_times_the_stake_written_with_the_hand() -> None:
    t, out = played_out()
    close = close_of(out)
    (frame,) = sends(out, 1, "settlement")
    assert frame["stake"] == 10 and frame["result"] == close.result
    paid = sum(x for a, _, x in close.moves if a == 1) - sum(x for _, b, x in close.moves if b == 1)
    assert paid == -close.result["net"]["E"] * 10 == 8600
    assert all(b == HOUSE for a, b, _ in close.moves if a == 1)  # the bots' winnings: the house's
    assert frame["moves"][0] == {"from": "ana", "to": "house", "amount": 10, "reason": "fee"}
    assert [m["amount"] for m in frame["moves"][1:]] == [x for _, _, x in close.moves]
    assert frame["balance"] == 10_000 - 10 - 8600 == t.ledger.balances[1]
    assert frame["balance_change"] == -8610 and frame["ready_seconds"] == TIMING.ready


def test_a_loser_pays_all_they_have_and_no_more_and_is_unseated_when_broke() -> None:
    t, out = played_out(balance=1_700)  # 底注 2: the same hand's net would be 1720
    close = close_of(out)
    assert sum(x for a, _, x in close.moves if a == 1) == 1_700 - 2
    assert sends(out, 1, "settlement")[0]["balance"] == 0 == t.ledger.balances[1]
    assert sends(out, 1, "unseated") == [{"type": "unseated", "why": "too_few_points"}]
    assert t.machine.seat_of(1) is None and t.ledger.total() == t.ledger.issued


def test_the_settlement_stays_with_the_player_until_they_confirm() -> None:
    t, _ = played_out(seed=2)
    settled = t.last(1, "settlement")
    t.disconnect(1)
    t.connect(1)  # a page reloaded between hands
    assert t.kinds(1)[-2:] == ["view", "settlement"] and t.last(1, "settlement") == settled
    assert t.last_view(1)["catch_up"] is True
    t.ready(1)
    t.run(0.5)  # the next hand
    t.disconnect(1)
    t.connect(1)
    assert t.kinds(1).count("settlement") == 2


def test_an_escape_costs_400_stakes_a_quarter_to_each_other_seat() -> None:
    t = four_people()  # 底注 1: the poorest has 900
    mark = t.mark()
    t.leave(2, escape=True)
    (abort,) = [o.write for o in of(io.Store, t.since(mark)) if isinstance(o.write, io.AbortHand)]
    assert abort.escaper == 2
    assert abort.reason == {"aborted": "escape", "escaper": "S", "why": "left"}
    assert abort.moves == [(2, 1, 100), (2, 3, 100), (2, 4, 100), (2, HOUSE, 100)]
    (frame,) = sends(t.since(mark), 1, "escape")
    assert frame["penalty"] == 400 and frame["balance"] == 10_000 - 1 + 100
    assert t.ledger.balances == {1: 10_099, 2: 900 - 1 - 400, 3: 10_099, 4: 10_099}
    assert t.last(2, "unseated")["why"] == "escape"


def test_after_an_escape_a_bot_takes_the_seat_and_the_others_confirm_again() -> None:
    t = four_people()
    mark = t.mark()
    t.leave(2, escape=True)
    assert t.machine.phase == "idle" and t.machine.seats[1] is None
    for acc in (1, 3, 4):
        assert player(t.machine, acc).confirmed is False
    # a seat is empty: no ready clock runs until four sit there again
    assert timers(t.since(mark), "ready:1") == []
    assert timers(t.since(mark), "fill") == [TIMING.bot_wait]
    assert t.last(1, "table")["ready_seconds"] is None
    mark = t.mark()
    t.run(TIMING.bot_wait)
    bot = t.machine.seats[1]
    assert bot is not None and bot.bot is not None and bot.name == "夏雨（中級）"
    assert timers(t.since(mark), "ready:1") == [TIMING.ready]


def test_a_ma_diao_escape_costs_40_stakes() -> None:
    t = alone_hand(MADIAO, seed=3)
    t.leave(1, escape=True)
    escape = t.last(1, "escape")
    assert escape["stake"] == 10 and escape["penalty"] == 400
    assert t.ledger.balances[1] == 10_000 - 10 - 400 and t.ledger.house == 10 + 400


def test_moves_change_the_balances_of_those_seated_here_only() -> None:
    t = four_people()
    settlement.apply_moves(t.machine, [(1, 3, 50), (4, HOUSE, 7), (99, 1, 5)])
    balances = [player(t.machine, acc).balance for acc in (1, 2, 3, 4)]
    assert balances == [10_000 - 1 - 50 + 5, 900 - 1, 10_000 - 1 + 50, 10_000 - 1 - 7]
