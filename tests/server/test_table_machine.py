"""The table machine on its own: the online table's rules (Mazhan §10) as executable
examples, with a fake clock and a fake storage (tests/server/machine_sim.py)."""

from __future__ import annotations

import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.mazhan.bots.strong import StrongBot
from paiju.mazhan.views import observe
from paiju.server.rooms import ROOMS, Room
from paiju.server.table import TableMachine, Timing, frames, io, restore
from tests.server.machine_sim import Ledger, Sim, _action_text

MAZHAN = ROOMS["mazhan"]
MADIAO = ROOMS["madiao"]


def alone_hand(room: Room = MAZHAN, seed: int = 1, **kw: object) -> Sim:
    sim = Sim(room, alone=True, seed=seed, **kw)  # type: ignore[arg-type]
    sim.join(1, "ana")
    sim.ready(1)
    sim.run(1.0)
    assert sim.machine.phase == "live"
    return sim


def test_a_hand_alone_with_three_bots_settles_through_the_ledger() -> None:
    sim = alone_hand()
    assert sim.kinds(1)[:2] == ["seated", "table"]
    start = sim.last(1, "hand_start")
    assert start["stake"] == 10 and start["fee"] == 10
    sim.play_until_over(1)
    settlement = sim.last(1, "settlement")
    assert settlement["moves"][0] == {"from": "ana", "to": "house", "amount": 10, "reason": "fee"}
    assert settlement["balance"] == sim.ledger.balances[1]
    assert settlement["balance"] - 10_000 == settlement["balance_change"]
    assert sim.ledger.total() == sim.ledger.issued
    hand = next(iter(sim.ledger.hands.values()))
    assert hand["status"] == "done"


def test_nothing_is_shown_before_it_is_durable() -> None:
    sim = Sim(MAZHAN, alone=True, auto_store=False)
    sim.join(1, "ana")
    assert sim.frames[1] == []  # the seat is not written yet
    sim.settle_storage()
    assert sim.kinds(1)[0] == "seated"
    sim.ready(1)
    sim.run(0.1)  # the bots sit down, the hand is dealt: not written yet
    assert sim.machine.phase == "starting" and "hand_start" not in sim.kinds(1)
    sim.settle_storage()
    assert "hand_start" in sim.kinds(1)
    sim.feed(io.Tuoguan(1, True))
    sim.settle_storage()
    seen = len(sim.frames[1])
    while not any(isinstance(w, io.Step) for _, w in sim.writes):
        sim.run(0.5)  # someone plays; the step is queued, not written
    assert len(sim.frames[1]) == seen  # nobody sees it yet
    sim.settle_storage()
    assert len(sim.frames[1]) > seen


def test_every_hand_waits_for_every_confirmation() -> None:
    sim = alone_hand()
    sim.play_until_over(1)
    hands = len(sim.ledger.hands)
    sim.run(19.0)  # bots confirmed at once; the person has not
    assert len(sim.ledger.hands) == hands and sim.machine.phase == "idle"
    assert sim.last(1, "settlement")  # still there
    sim.ready(1)
    sim.run(1.0)
    assert len(sim.ledger.hands) == hands + 1 and sim.machine.phase == "live"


def test_not_confirming_in_time_unseats_for_free() -> None:
    sim = alone_hand()
    sim.play_until_over(1)
    balance = sim.ledger.balances[1]
    # a page that never says it has shown the settlement: the ready clock starts anyway
    # once the reading bound is over
    sim.run(sim.timing.reading + 19.0)
    assert "unseated" not in sim.kinds(1)
    sim.run(2.0)
    assert sim.last(1, "unseated")["why"] == "not_ready"
    assert sim.ledger.balances[1] == balance
    assert 1 not in sim.ledger.seats
    assert sim.empty


def test_leaving_between_hands_is_free_and_during_a_hand_is_an_escape() -> None:
    sim = alone_hand()
    sim.play_until_over(1)
    balance = sim.ledger.balances[1]
    sim.leave(1)
    assert sim.last(1, "unseated")["why"] == "left"
    assert sim.ledger.balances[1] == balance

    sim = alone_hand(seed=2)
    sim.leave(1, escape=True)
    escape = sim.last(1, "escape")
    assert escape["penalty"] == 400 * 10 and escape["why"] == "left"
    assert sim.ledger.balances[1] == 10_000 - 10 - 4_000
    assert sim.ledger.house == 10 + 4_000  # the bots' quarters go to the house
    assert sim.ledger.total() == sim.ledger.issued


def test_four_timeouts_in_a_row_are_an_escape() -> None:
    sim = alone_hand(seed=3)
    sim.run(4 * 15 * 3)
    escape = sim.last(1, "escape")
    assert escape["why"] == "timeouts" and escape["penalty"] == 4_000


def test_a_timeout_plays_the_drawn_tile_and_counts() -> None:
    sim = alone_hand(seed=4)
    for _ in range(200):
        if sim.my_turn(1) and sim.machine.hand is not None:
            break
        sim.run(0.5)
    view = sim.last_view(1)
    assert view["clock"]["seat"] == view["view"]["seat"]
    seen = len(sim.frames[1])
    sim.run(15.1)
    seat = sim.machine.seat_of(1)
    assert seat is not None
    player = sim.machine.seats[seat]
    assert player is not None and player.timeouts == 1
    mine = [f["your_action"] for f in sim.frames[1][seen:] if f["type"] == "view"]
    assert any("discard" in (a or "") for a in mine)
    # the player is told: every view now says one timeout in a row, until they act
    assert sim.last_view(1)["timeouts"] == 1
    for _ in range(400):
        if sim.my_turn(1) or sim.machine.hand is None or sim.machine.phase != "live":
            break
        sim.run(0.5)
    assert sim.my_turn(1)
    legal = sim.last_view(1)["view"]["legal"]
    sim.act(1, legal[0]["action"])
    assert sim.last_view(1)["timeouts"] == 0 and player.timeouts == 0


def test_an_absent_players_turns_are_played_but_only_the_disconnect_clock_escapes() -> None:
    # rules §10: reconnecting within 180 s resumes the hand, however many of the seat's
    # turns the server played meanwhile; the 4th timeout in a row counts only a present player
    sim = alone_hand(seed=5)
    sim.disconnect(1)
    sim.run(170.0)
    seat = sim.machine.seat_of(1)
    assert seat is not None, "unseated while the disconnect clock still ran"
    player = sim.machine.seats[seat]
    assert player is not None and player.timeouts == 0
    played = sum(1 for w in sim.durable if isinstance(w, io.Step) and w.action.startswith(
        sim.machine.game.seats[seat].value))  # fmt: skip
    assert played >= 4  # the seat's turns went on without them
    sim.connect(1)
    assert sim.last_view(1)["catch_up"] is True
    assert all(f["type"] != "escape" for f in sim.frames[1])


def test_the_time_away_from_a_hand_adds_up_across_reconnects() -> None:
    # one 180-s allowance per hand: 100 s away, back for a moment, then 81 s away is 181 s
    sim = alone_hand(seed=5, timing=Timing(turn=60, ready=20, bot_wait=10, bot_delay=0.3))
    sim.disconnect(1)
    sim.run(100.0)
    sim.connect(1)
    sim.disconnect(1)
    sim.run(79.0)
    assert sim.machine.seat_of(1) is not None  # 179 s so far
    sim.run(2.0)
    assert sim.machine.seat_of(1) is None
    aborts = [w for w in sim.durable if isinstance(w, io.AbortHand)]
    assert aborts[-1].reason["why"] == "disconnected"


def test_staying_away_too_long_is_an_escape_and_coming_back_resumes() -> None:
    # a slow clock, so the hand outlasts the player's absences (their turns are played)
    sim = alone_hand(seed=5, timing=Timing(turn=60, ready=20, bot_wait=10, bot_delay=0.3))
    sim.disconnect(1)
    sim.run(100.0)
    sim.connect(1)
    kinds = sim.kinds(1)
    assert kinds[-3:] == ["table", "hand_start", "view"] or "view" in kinds[-3:]
    sim.disconnect(1)
    sim.run(181.0)
    assert sim.machine.seat_of(1) is None
    assert sim.ledger.hands[max(sim.ledger.hands)]["status"] == "aborted"
    aborts = [w for w in sim.durable if isinstance(w, io.AbortHand)]
    assert aborts[-1].reason["why"] == "disconnected"


@pytest.mark.parametrize("room", [MAZHAN, MADIAO], ids=["mazhan", "madiao"])
def test_a_returning_seat_gets_the_hand_so_far_as_it_would_have_seen_it(room: Room) -> None:
    # two tables dealt and played alike: at one the player stays, at the other they reload
    # (a new connection) after 40 s; the returning view's events are every event the staying
    # player was shown, so a reload keeps the move log whole
    stay, back = alone_hand(room, seed=21), alone_hand(room, seed=21)
    back.disconnect(1)
    stay.run(40.0)
    back.run(40.0)
    assert stay.machine.hand is not None and back.machine.hand is not None
    assert stay.machine.hand.state == back.machine.hand.state
    back.connect(1)
    views = [f for f in stay.frames[1] if f["type"] == "view"]
    shown = [e for f in views for e in f["events"]]
    returning = [f for f in back.frames[1] if f["type"] == "view"][-1]
    assert returning["catch_up"] is True and not any(f["catch_up"] for f in views)
    assert returning["events"] == shown and len(shown) > 10
    assert returning["view"] == views[-1]["view"]
    # the hand starts again on screen with the balance the fee left, not the fee taken twice
    starts = [f for f in back.frames[1] if f["type"] == "hand_start"]
    assert len(starts) == 2 and starts[0]["balance"] == starts[1]["balance"] == 10_000 - 10


def test_a_storage_outage_pauses_the_table_and_it_resumes_by_itself() -> None:
    sim = alone_hand(seed=6)
    sim.feed(io.Tuoguan(1, True))
    sim.fail_storage()
    sim.run(2.0)  # someone moves; the step cannot be written
    sim.feed(io.Tuoguan(1, False))
    assert "paused" in sim.kinds(1)
    before = len(sim.frames[1])
    sim.run(600.0)  # no clock runs out, nobody escapes while paused
    assert len(sim.frames[1]) == before
    assert sim.machine.hand is not None
    sim.restore_storage()
    assert "resumed" in sim.kinds(1)
    sim.play_until_over(1)
    assert sim.last(1, "settlement")
    assert sim.ledger.total() == sim.ledger.issued


def test_bad_stale_and_out_of_turn_actions_change_nothing() -> None:
    sim = alone_hand(seed=7)
    for _ in range(200):
        if sim.my_turn(1):
            break
        sim.run(0.5)
    view = sim.last_view(1)
    version = view["version"]
    steps = sim.machine.hand.seq  # type: ignore[union-attr]
    sim.act(1, _action_text(view["view"]["legal"][0]), version + 1000)
    assert sim.frames[1][-1]["code"] == "stale_version"
    sim.act(1, "E dance", version)
    assert sim.frames[1][-1]["code"] == "bad_action"
    other = "S" if view["view"]["seat"] != "S" else "W"
    sim.act(1, f"{other} discard 1m", version)
    assert sim.frames[1][-1]["code"] == "not_your_turn"
    assert sim.machine.hand.seq == steps  # type: ignore[union-attr]


def test_an_account_seated_elsewhere_is_refused() -> None:
    ledger = Ledger()
    a = Sim(MAZHAN, ledger=ledger, table_id=1)
    b = Sim(MAZHAN, ledger=ledger, table_id=2)
    a.join(1, "ana")
    b.join(1, "ana")
    assert b.frames[1][-1]["code"] == "already_seated"
    assert b.machine.seat_of(1) is None and ledger.seats[1] == 1


def test_a_fenced_write_lets_the_table_go() -> None:
    sim = alone_hand(seed=8)
    sim.auto_store = False
    sim.feed(io.Tuoguan(1, True))
    while not sim.writes:
        sim.run(0.5)
    op = sim.writes[0][0]
    sim.writes.clear()
    sim.feed(io.Failed(op, "fenced"))
    assert sim.lost and sim.machine.lost
    assert sim.machine.handle(io.Ready(1), sim.now) == []


def test_tuoguan_plays_for_the_person() -> None:
    sim = alone_hand(seed=9)
    sim.feed(io.Tuoguan(1, True))
    for _ in range(1200):
        if "settlement" in sim.kinds(1):
            break
        sim.run(0.5)
    assert sim.last(1, "settlement")
    # a page that comes back on the settlement gets the hand's whole log with it
    shown = [e for f in sim.frames[1] if f["type"] == "view" for e in f["events"]]
    sim.disconnect(1)
    sim.connect(1)
    again = [f for f in sim.frames[1] if f["type"] == "view"][-1]
    assert again["catch_up"] is True and again["events"] == shown and len(shown) > 20
    assert sim.kinds(1)[-1] == "settlement"


def test_a_ma_diao_hand_passes_the_bank() -> None:
    sim = alone_hand(MADIAO, seed=10)
    banker = sim.last(1, "hand_start")["dealer"]
    sim.play_until_over(1, pick=0)
    assert sim.ledger.total() == sim.ledger.issued
    sim.ready(1)
    sim.run(1.0)
    nxt = sim.last(1, "hand_start")["dealer"]
    assert "ESWN".index(nxt) == ("ESWN".index(banker) + 1) % 4


def test_too_few_points_after_a_hand_unseats() -> None:
    sim = Sim(MAZHAN, alone=True, seed=11)
    sim.join(1, "ana", balance=805)
    sim.ready(1)
    sim.run(1.0)
    sim.play_until_over(1)
    if sim.ledger.balances[1] < 800:
        assert sim.last(1, "unseated")["why"] == "too_few_points"
    else:
        assert sim.machine.seat_of(1) is not None


def test_a_live_hand_is_rebuilt_from_its_log() -> None:
    sim = alone_hand(seed=12)
    sim.run(8.0)
    hand_id = max(sim.ledger.hands)
    start: io.StartHand = sim.ledger.hands[hand_id]["start"]
    steps = [w.action for w in sim.durable if isinstance(w, io.Step) and w.hand == hand_id]
    machine, outputs = restore(
        start.table, MAZHAN, Timing(), random.Random(0), hand_id=hand_id,
        hand_no=start.hand_no, seed=start.seed, stake=start.stake, setup=start.setup,
        seats=start.seats, actions=steps, balances={1: sim.ledger.balances[1]}, now=0.0,
    )  # fmt: skip
    assert machine.hand is not None and machine.hand.seq == len(steps)
    assert machine.hand.state.version == sim.machine.hand.state.version  # type: ignore[union-attr]
    # the hand's events are rebuilt with it: a player who comes back sees the whole log
    assert machine.hand.logs == sim.machine.hand.logs  # type: ignore[union-attr]
    assert len(machine.hand.logs[0]) > 100
    assert any(isinstance(o, io.SetTimer) and o.key == "away:1" for o in outputs)


# --- random sequences: the machine's invariants --------------------------------------------

ACCOUNTS = (1, 2, 3, 4, 5)


@st.composite
def scripts(draw: st.DrawFn) -> list[tuple[str, int, int]]:
    kinds = ["join", "ready", "act", "leave", "disconnect", "connect", "wait", "outage",
             "recover", "tuoguan"]  # fmt: skip
    n = draw(st.integers(10, 60))
    return [
        (
            draw(st.sampled_from(kinds)),
            draw(st.sampled_from(ACCOUNTS)),
            draw(st.integers(0, 50)),
        )
        for _ in range(n)
    ]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=scripts(), seed=st.integers(0, 2**32), room=st.sampled_from([MAZHAN, MADIAO]))
def test_random_inputs_keep_money_seats_and_hands_right(
    script: list[tuple[str, int, int]], seed: int, room: object
) -> None:
    ledger = Ledger()
    sims = [Sim(room, ledger=ledger, table_id=t, seed=seed + t) for t in (1, 2)]  # type: ignore[arg-type]
    rng = random.Random(seed)
    for kind, acc, x in script:
        sim = sims[x % 2]
        if kind == "join":
            sim.join(acc, f"p{acc}")
        elif kind == "ready":
            sim.ready(acc)
        elif kind == "act" and sim.machine.seat_of(acc) is not None and sim.frames[acc]:
            views = [f for f in sim.frames[acc] if f["type"] == "view"]
            if views and views[-1]["view"]["legal"]:
                legal = views[-1]["view"]["legal"]
                version = views[-1]["version"] + (1 if x % 7 == 0 else 0)
                sim.act(acc, _action_text(rng.choice(legal)), version)
        elif kind == "leave":
            sim.leave(acc, escape=x % 2 == 0)
        elif kind == "disconnect":
            sim.disconnect(acc)
        elif kind == "connect":
            sim.connect(acc)
        elif kind == "wait":
            sim.run(float(x))
        elif kind == "outage":
            sim.fail_storage()
            sim.run(float(x))
        elif kind == "recover":
            sim.restore_storage()
        elif kind == "tuoguan":
            sim.feed(io.Tuoguan(acc, x % 2 == 0))
    for sim in sims:
        sim.restore_storage()
        sim.run(50.0)
    # money: conserved, nobody below zero, the machines agree with the books
    assert ledger.total() == ledger.issued
    for sim in sims:
        for p in sim.machine.seats:
            if p is not None and p.account is not None:
                assert p.balance == ledger.balances[p.account]
    # one seat per account, and the books agree with the tables
    seated = [acc for sim in sims for acc in sim.machine.accounts]
    assert len(seated) == len(set(seated))
    for sim in sims:
        for acc in sim.machine.accounts:
            assert ledger.seats.get(acc) == sim.machine.id
    # every hand is settled once or still live at its table
    live = [h for h, rec in ledger.hands.items() if rec["status"] == "live"]
    assert len(live) <= 2
    for sim in sims:
        hand = sim.machine.hand
        if hand is not None and hand.id is not None:
            assert hand.id in live


@pytest.mark.parametrize("room", [MAZHAN, MADIAO], ids=["mazhan", "madiao"])
def test_four_people_at_one_table_play_whole_hands(room: object) -> None:
    sim = Sim(room, seed=13)  # type: ignore[arg-type]
    for acc in (1, 2, 3, 4):
        sim.join(acc, f"p{acc}")
    for acc in (1, 2, 3, 4):
        sim.ready(acc)
    assert sim.machine.phase == "live"
    for _ in range(2000):
        if sim.machine.phase != "live":
            break
        moved = False
        for acc in (1, 2, 3, 4):
            views = [f for f in sim.frames[acc] if f["type"] == "view"]
            if (
                views
                and views[-1]["view"]["legal"]
                and sim.machine.seat_of(acc) in (sim.machine._movers())
            ):
                sim.act(acc, _action_text(views[-1]["view"]["legal"][-1]), views[-1]["version"])
                moved = True
                break
        if not moved:
            sim.run(0.5)
    assert all(sim.last(acc, "settlement") for acc in (1, 2, 3, 4))
    assert sim.ledger.total() == sim.ledger.issued


@pytest.mark.parametrize("room", [MAZHAN, MADIAO], ids=["mazhan", "madiao"])
def test_a_view_is_serialised_once_with_each_public_block_once_per_change(room: object) -> None:
    """The machine serialises a view where it makes it, splicing in each seat's public
    block serialised once: the bytes read back as the game's own view JSON, and a block a
    move left unchanged is not serialised again."""
    m = TableMachine(1, room, Timing(), random.Random(5))  # type: ignore[arg-type]
    g = m.game
    state = g.new_hand(m.ruleset, 11, g.first_deal(random.Random(2)).setup)
    rng = random.Random(3)
    reused = 0
    for _ in range(60):
        if g.is_over(state):
            break
        before, before_json = dict(m._blocks), dict(m._block_json)
        for seat in g.seats:
            view = g.observe(state, seat).to_json()
            assert orjson.loads(frames.view_json(m, view)) == view
        reused += sum(
            1 for k, block in m._blocks.items()
            if k in before and before[k] is block and before_json[k] is m._block_json[k]
        )  # fmt: skip
        mover = g.acting(state)[0]
        state, _ = g.apply(state, rng.choice(g.legal_actions(state, mover)))
    if room is MAZHAN:  # its views share their seats' blocks between states
        assert reused > 60


@pytest.mark.parametrize("room", [MAZHAN, MADIAO], ids=["mazhan", "madiao"])
def test_the_bots_are_kept_from_hand_to_hand_and_their_chance_is_each_hands_own(
    room: object,
) -> None:
    """A table makes its bots once (the seats move round between hands; each bot goes with
    its name); each hand's bots draw from generators of that hand's own (``bot_rng``), never
    from the last hand's (a decision of the last hand may still be running)."""
    sim = Sim(room, alone=True)  # type: ignore[arg-type]
    sim.join(1, "ana")
    sim.settle_storage()
    sim.ready(1)
    sim.run(5.0)
    m = sim.machine
    assert m.hand is not None
    first_bots, first_rngs = set(map(id, m.hand.bots)), list(m.hand.rngs)
    sim.play_until_over(1)
    sim.ready(1)
    sim.run(5.0)
    hand = m.hand
    assert hand is not None and hand.no == 2
    assert set(map(id, hand.bots)) == first_bots
    assert all(new is not old for new, old in zip(hand.rngs, first_rngs, strict=True))


def test_a_private_table_waits_for_friends_and_fills_with_bots_only_when_asked() -> None:
    sim = Sim(MAZHAN, code="ABC234")
    sim.join(1, "ana")
    sim.ready(1)
    sim.run(600.0)  # a public table would have had bots after 10 s
    assert sim.machine.phase == "idle" and sim.machine.accounts == [1]
    assert sim.machine.open_seats == 0  # no stranger is sent here
    assert sim.machine.friend_seats == 3
    assert sim.last(1, "table")["code"] == "ABC234"
    sim.join(2, "bo")  # a friend with the code (the hub routes by it)
    assert sim.last(2, "table")["code"] == "ABC234"
    sim.ready(2)
    sim.run(60.0)
    assert sim.machine.phase == "idle" and sim.machine.friend_seats == 2
    sim.connected.add(3)  # a socket with no seat here
    sim.feed(io.Fill(3))
    assert sim.last(3, "error")["code"] == "not_seated"
    sim.feed(io.Tuoguan(2, True))  # the friend lets 托管 play
    sim.feed(io.Fill(2))
    sim.run(1.0)
    assert sim.machine.phase == "live" and sim.machine.friend_seats == 0
    seats = sim.last(1, "table")["seats"]
    assert [s["bot"] for s in seats.values()] == [False, False, True, True]
    sim.feed(io.Fill(1))
    assert sim.last(1, "error")["code"] == "hand_live"
    sim.play_until_over(1)
    assert sim.ledger.total() == sim.ledger.issued
    # between hands a friend who comes late takes a bot's seat
    assert sim.machine.friend_seats == 2
    sim.join(3, "cy")
    people = [s for s in sim.last(3, "table")["seats"].values() if not s["bot"]]
    assert sorted(p["name"] for p in people) == ["ana", "bo", "cy"]
    assert sim.machine.friend_seats == 1
    for acc in (1, 2, 3):
        sim.ready(acc)
    sim.run(1.0)
    assert sim.machine.phase == "live"
    sim.play_until_over(1)
    assert sim.ledger.total() == sim.ledger.issued


def test_a_leave_the_player_did_not_confirm_as_an_escape_costs_nothing() -> None:
    """A second tap on Ready lands on Leave just as the hand begins: the leave was sent for a
    table between hands, so it is refused (``escape_unconfirmed``, saying what an escape would cost)
    and the hand goes on; only a leave that says ``escape`` is one."""
    sim = alone_hand(seed=2)
    assert sim.machine.phase == "live"
    balance = sim.ledger.balances[1]
    sim.leave(1)
    error = sim.last(1, "error")
    assert error["code"] == "escape_unconfirmed" and "4000 points" in error["message"]
    assert sim.machine.phase == "live" and sim.machine.seat_of(1) is not None
    assert sim.ledger.balances[1] == balance
    assert "escape" not in sim.kinds(1)
    sim.leave(1, escape=True)
    assert sim.last(1, "escape")["penalty"] == 4000
    assert sim.ledger.balances[1] == balance - 4000


def test_a_seat_takes_the_balance_as_the_seat_is_claimed() -> None:
    """The join read a balance, and before the seat's claim is written a hand elsewhere
    takes points away: the table plays on the balance as the claim found it, and one now
    below the room's minimum is unseated, the bot that made room for them back in its
    seat."""
    sim = Sim(MAZHAN, code="QQQ234")
    sim.join(1, "ana")
    sim.join(2, "bo")
    sim.feed(io.Fill(1))  # bots in the two empty seats
    sim.leave(2)  # between hands: bo's seat is empty, a bot may take it
    sim.feed(io.Fill(1))
    seats_before = [None if p is None else p.name for p in sim.machine.seats]
    assert sum(p is not None and p.bot is not None for p in sim.machine.seats) == 3
    sim.auto_store = False
    sim.join(2, "bo")  # takes a bot's seat; the claim is not yet written
    sim.ledger.balances[2] -= 9_500  # a penalty elsewhere, written first
    sim.ledger.issued -= 9_500
    sim.settle_storage()
    sim.auto_store = True
    assert sim.last(2, "unseated")["why"] == "too_few_points"
    assert [None if p is None else p.name for p in sim.machine.seats] == seats_before
    sim.ledger.balances[2] += 9_500
    sim.ledger.issued += 9_500
    sim.join(2, "bo")
    seat = sim.machine.seat_of(2)
    assert seat is not None
    p = sim.machine.seats[seat]
    assert p is not None and p.balance == sim.ledger.balances[2]


def test_a_public_table_fills_itself_and_refuses_a_fill() -> None:
    sim = Sim(MAZHAN)
    sim.join(1, "ana")
    assert sim.machine.friend_seats == 0 and sim.machine.open_seats == 3
    assert sim.last(1, "table").get("code") is None
    sim.feed(io.Fill(1))
    assert sim.last(1, "error")["code"] == "not_private"


def test_a_table_waiting_for_players_runs_no_ready_clock_until_four_sit_there() -> None:
    """A person who sits down in a room and waits for players is not unseated for not
    confirming while the table fills (rules §10, as docs/rules-decisions.md clarifies): the
    clock starts when the bots take the empty seats, and then runs its 20 s."""
    sim = Sim(MAZHAN)
    sim.join(1, "ana")
    assert sim.last(1, "table")["ready_seconds"] is None
    sim.run(9.5)  # the bots sit after 10 s
    assert sim.machine.seat_of(1) == 0
    sim.run(1.0)
    assert all(p is not None for p in sim.machine.seats)
    assert sim.last(1, "table")["ready_seconds"] == 20
    sim.run(19.0)
    assert sim.machine.seat_of(1) == 0
    sim.run(2.0)
    assert sim.last(1, "unseated")["why"] == "not_ready"


def test_a_seat_claim_that_fails_leaves_no_clock_running_and_the_bots_come() -> None:
    """A person's seat claim is still being written when the bots fill the table; it then
    fails (they sit elsewhere): the seat is empty again, so the clocks stand, and a bot takes
    the seat after the usual wait, so the table does not stall."""
    ledger = Ledger()
    elsewhere = Sim(MAZHAN, ledger=ledger, table_id=2)
    elsewhere.join(3, "cy")  # cy sits at table 2 already
    sim = Sim(MAZHAN, ledger=ledger, table_id=1)
    sim.join(1, "ana")
    sim.auto_store = False
    sim.run(9.99)
    sim.join(3, "cy")  # cy's seat claim is being written...
    sim.run(0.02)  # ...when the bots come (the fill fires at 10 s)
    sim.settle_storage()  # cy's claim fails: seat_taken
    sim.auto_store = True
    assert any(p is None for p in sim.machine.seats)
    assert sim.last(1, "table")["ready_seconds"] is None  # the clock stands
    sim.ready(1)
    sim.run(10.5)  # the bots' wait
    assert all(p is not None for p in sim.machine.seats)
    assert sim.machine.phase == "live"


def test_a_table_for_friends_runs_its_ready_clock_only_while_four_sit_there() -> None:
    """Friends gathering are not unseated for not confirming; once four sit there (friends
    or bots) the clock runs as at any table, and stands again when a seat empties."""
    sim = Sim(MAZHAN, code="QQQ234")
    sim.join(1, "ana")
    sim.run(600.0)
    assert sim.machine.seat_of(1) == 0
    assert sim.last(1, "table")["ready_seconds"] is None
    sim.join(2, "bo")
    sim.ready(2)
    sim.feed(io.Fill(2))  # four sit there now: ana's clock starts
    assert sim.last(1, "table")["ready_seconds"] == 20
    sim.run(21.0)
    assert sim.last(1, "unseated")["why"] == "not_ready"
    assert sim.machine.phase == "idle" and sim.machine.seat_of(2) is not None
    sim.join(3, "cy")  # takes ana's empty seat: four again, cy's clock runs
    assert sim.last(3, "table")["ready_seconds"] == 20
    sim.leave(2)  # a seat empties: cy's clock stands
    assert sim.last(3, "table")["ready_seconds"] is None
    sim.run(600.0)
    assert sim.machine.seat_of(3) is not None


def test_a_bot_that_gave_its_seat_to_a_friend_sits_down_again_if_the_seat_fails() -> None:
    """Between hands a friend takes a bot's seat; when the friend's seat cannot be written
    (they sit at another table already) the bot is back, and the table says so."""
    ledger = Ledger()
    sim = Sim(MAZHAN, code="QQQQ2345", ledger=ledger, table_id=1)
    sim.join(1, "ana")
    sim.ready(1)
    sim.feed(io.Fill(1))
    sim.run(1.0)
    sim.play_until_over(1)
    other = Sim(MAZHAN, ledger=ledger, table_id=2)
    other.join(3, "cy")  # cy sits at another table
    sim.join(3, "cy")
    assert sim.frames[3][-1]["code"] == "already_seated"
    seats = sim.last(1, "table")["seats"]
    assert [s is not None and s["bot"] for s in seats.values()].count(True) == 3
    assert sim.machine.friend_seats == 3


def test_a_join_by_code_during_a_hand_is_table_playing() -> None:
    sim = Sim(MAZHAN, code="QQQQ2345")
    sim.join(1, "ana")
    sim.ready(1)
    sim.feed(io.Fill(1))
    sim.run(1.0)
    assert sim.machine.phase == "live"
    sim.join(2, "bo")
    assert sim.frames[2][-1]["code"] == "table_playing"


def test_a_restored_private_table_keeps_its_code_and_its_bots_level() -> None:
    sim = Sim(MAZHAN, code="XYZW7890")
    sim.machine.level = "easy"
    sim.join(1, "ana")
    sim.ready(1)
    sim.feed(io.Fill(1))
    sim.run(1.0)
    hand_id = max(sim.ledger.hands)
    start: io.StartHand = sim.ledger.hands[hand_id]["start"]
    m, _ = restore(
        start.table, MAZHAN, Timing(), random.Random(0), hand_id=hand_id,
        hand_no=start.hand_no, seed=start.seed, stake=start.stake, setup=start.setup,
        seats=start.seats, actions=[], balances={1: 10_000}, now=0.0, code="XYZW7890",
    )  # fmt: skip
    assert m.code == "XYZW7890" and m.open_seats == 0 and m.friend_seats == 0  # live
    assert m.level == "easy" and MAZHAN.level != "easy"


def _play_with_hints(sim: Sim, account: int, ask: bool) -> list[str]:
    """Play the person's turns by the hint (asked) or by the last legal action; the actions
    played, in order."""
    played: list[str] = []
    for _ in range(4000):
        if sim.machine.phase != "live":
            break
        view = sim.last_view(account)
        legal = [_action_text(a) for a in view["view"]["legal"]]
        if legal and sim.machine.seat_of(account) in sim.machine._movers():
            if ask:
                sim.feed(io.Hint(account, view["version"]))
                hint = sim.frames[account][-1]
                assert hint == {
                    "type": "hint",
                    "version": view["version"],
                    "action": hint["action"],
                }
                assert hint["action"] in legal
                sim.feed(io.Hint(account, view["version"]))  # asked again: the same answer
                assert sim.frames[account][-1] == hint
                action = hint["action"]
            else:
                action = legal[-1]
            sim.act(account, action, view["version"])
            played.append(action)
        else:
            sim.run(0.5)
    return played


@pytest.mark.parametrize("room", [MAZHAN, MADIAO], ids=["mazhan", "madiao"])
def test_alone_with_bots_a_hint_names_a_legal_action_and_changes_nothing(room: Room) -> None:
    """A hint is the room's default bot's choice at the seat's own view; asking for one
    changes nothing: the hand played by the hints, replayed without asking (the same deal,
    the same actions), ends exactly alike, the bots' choices included."""
    sim = alone_hand(room, seed=5)
    played = _play_with_hints(sim, 1, ask=True)
    assert played and sim.machine.phase != "live"
    again = alone_hand(room, seed=5)
    for action in played:  # the same actions, no hint asked
        while not (
            again.machine.seat_of(1) in again.machine._movers()
            and again.last_view(1)["view"]["legal"]
        ):
            again.run(0.5)
        again.act(1, action, again.last_view(1)["version"])
    while again.machine.phase == "live":
        again.run(0.5)
    assert again.last(1, "settlement")["result"] == sim.last(1, "settlement")["result"]
    assert sim.ledger.total() == sim.ledger.issued


def test_a_hint_is_refused_out_of_turn_stale_without_a_hand_and_beside_another_person() -> None:
    sim = Sim(MAZHAN, seed=3)
    sim.join(1, "ana")
    sim.feed(io.Hint(1, 0))
    assert sim.frames[1][-1]["code"] == "no_hand"
    assert sim.machine.handle(io.Hint(9, 0), sim.now)[0].frame["code"] == "not_seated"  # type: ignore[union-attr]
    sim.join(2, "bo")
    sim.ready(1)
    sim.ready(2)
    sim.run(30.0)  # bots take the last two seats; the hand goes live
    assert sim.machine.phase == "live"
    view = sim.last_view(1)
    sim.feed(io.Hint(1, view["version"]))
    assert sim.frames[1][-1]["code"] == "hints_off"  # a person sits at this table too

    alone = alone_hand(seed=7)
    while True:
        view = alone.last_view(1)
        if alone.machine.seat_of(1) in alone.machine._movers() and view["view"]["legal"]:
            break
        alone.feed(io.Hint(1, view["version"]))
        assert alone.frames[1][-1]["code"] == "not_your_turn"
        alone.run(0.5)
    alone.feed(io.Hint(1, view["version"] + 1))
    assert alone.frames[1][-1]["code"] == "stale_version"
    steps = alone.machine.hand.seq  # type: ignore[union-attr]
    alone.feed(io.Hint(1, view["version"]))
    assert alone.frames[1][-1]["type"] == "hint"
    assert alone.machine.hand.seq == steps  # type: ignore[union-attr]


def test_a_hint_is_the_normal_bots_move_at_the_seats_own_view_claims_included() -> None:
    """The hint is ``strong``'s choice (the normal level: not the room's cheap default, not
    the hard level's search) read from the seat's own view, in a claim window as on a turn."""
    sim = alone_hand(seed=11)
    checked = {"turn": 0, "claim": 0}
    for _ in range(4000):
        if sim.machine.phase != "live" or (checked["turn"] and checked["claim"]):
            break
        view = sim.last_view(1)
        legal = view["view"]["legal"]
        if not (legal and sim.machine.seat_of(1) in sim.machine._movers()):
            sim.run(0.5)
            continue
        hand = sim.machine.hand
        assert hand is not None
        seat = sim.machine.game.seats[sim.machine.seat_of(1)]  # type: ignore[index]
        expected = StrongBot().act(
            observe(hand.state, seat),
            sim.machine.game.legal_actions(hand.state, seat),
            random.Random(hand.seed * 7919 + view["version"] * 4 + seat.number - 1),
        )
        sim.feed(io.Hint(1, view["version"]))
        assert sim.frames[1][-1]["action"] == str(expected)
        checked["claim" if view["view"]["window"] else "turn"] += 1
        # pass a claim (the hand goes on), else play the hint
        passes = [_action_text(a) for a in legal if _action_text(a).endswith(" pass")]
        sim.act(1, passes[0] if passes else str(expected), view["version"])
    assert checked["turn"] and checked["claim"], checked


def test_a_hint_is_refused_at_a_table_for_friends_even_with_the_friend_on_tuoguan() -> None:
    sim = Sim(MAZHAN, code="ABC234")
    sim.join(1, "ana")
    sim.join(2, "bo")
    sim.ready(1)
    sim.ready(2)
    sim.feed(io.Tuoguan(2, True))
    sim.feed(io.Fill(1))
    sim.run(1.0)
    assert sim.machine.phase == "live"
    for _ in range(400):
        if sim.my_turn(1) and sim.machine.seat_of(1) in sim.machine._movers():
            break
        sim.run(0.5)
    sim.feed(io.Hint(1, sim.last_view(1)["version"]))
    assert sim.frames[1][-1]["code"] == "hints_off"
