"""Every CHOICE of madiao.md is a named option of the Ruleset (issue 15 item 3), with the
rules' name and default; each test here shows an option changing an outcome."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import pytest

from paiju.errors import InvalidRulesetError
from paiju.madiao.cards import Card, parse_cards
from paiju.madiao.chong import Group, base_roles, chong_points
from paiju.madiao.rules import (
    SPECIAL_HANDS,
    Phase,
    Ruleset,
    SpecialHand,
    State,
    acting,
    apply,
    deal,
    events_json,
    legal_actions_for,
    new_hand,
    register_special_hand,
)
from paiju.madiao.scoring import SettleOptions, settle
from paiju.madiao.seats import SEATS, Seat


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def points(draw: str, table: str, top_vs_top: int = 2, **options: bool | str) -> int:
    roles = base_roles(top_vs_top, **options)
    return chong_points(Card.parse(draw), cards(table), [], roles=roles)


def test_defaults_are_the_rules_defaults() -> None:
    r = Ruleset()
    assert (r.first_lead, r.deal_start, r.first_banker_from) == ("banker", "banker", "E")
    assert (r.chong_flow, r.top_vs_top, r.jianling, r.capture_multiplier) == (
        "offer",
        2,
        "on_gap",
        "count",
    )
    assert r.wrap_straights and r.separate_top_leaders and not r.gap_card_leads
    assert not r.shi_runs and not r.shengdai and not r.chong_needs_zhengben
    assert (r.bonus_roles, r.dahuobai, r.tu, r.settlement) == ("q", 3, "off", "kaizhu")
    assert r.qiaomen and r.special_hands == () and r.baopei == "log"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"first_lead": "left"}, "first_lead must be one of"),
        ({"tu": "both"}, "tu must be one of"),
        ({"top_vs_top": -1}, "top_vs_top must be a whole number"),
        ({"wrap_straights": "yes"}, "wrap_straights must be true or false"),
        ({"special_hands": ("八同",)}, "unknown pattern '八同' (known: none: the table is empty)"),
    ],
)
def test_a_ruleset_checks_itself_when_made(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesetError) as info:
        Ruleset(**options)  # type: ignore[arg-type]
    assert message in str(info.value) and info.value.code == "invalid_ruleset"


def test_old_records_rulesets_still_read() -> None:
    old = {"game": "madiao", "first_lead": "next", "chong_flow": "offer", "top_vs_top": 2}
    r = Ruleset.from_json(old)
    assert r.first_lead == "next" and r.tu == "off"  # missing options take their defaults
    s = new_hand(r, 4)
    assert s.leader == (s.banker + 1) % 4
    assert sorted(s.hands[s.banker]) == sorted(s.deck[:8])  # dealt from the banker, as then
    assert Ruleset.from_json(r.to_json()) == r


# --- the deal and the play (§2) -------------------------------------------------------------


def test_deal_start_and_first_lead_first_dealt() -> None:
    for seed in range(20):
        s = new_hand(Ruleset(deal_start="dealer", first_lead="first_dealt"), seed)
        dealer = (s.banker + 1) % 4
        assert sorted(s.hands[dealer]) == sorted(s.deck[:8])  # the dealer is dealt first
        assert s.leader == dealer
        assert new_hand(Ruleset(deal_start="dealer"), seed).leader == s.banker
        assert new_hand(Ruleset(first_lead="first_dealt"), seed).leader == s.banker


def test_first_banker_counted_from_another_seat() -> None:
    for seed in range(12):
        e = new_hand(Ruleset(), seed)
        w = new_hand(Ruleset(first_banker_from="W"), seed)
        assert e.banker == (e.mian.rank - 1) % 4
        assert w.banker == (2 + w.mian.rank - 1) % 4 != e.banker


@pytest.fixture
def eight_of_one_suit() -> Iterator[str]:
    """A house pattern for the hook: a hand holding 百老 (common enough to meet)."""
    name = "測試百老"
    register_special_hand(SpecialHand(name, "holds 百老", 5, lambda cs: Card.parse("bt") in cs))
    yield name
    del SPECIAL_HANDS[name]


def test_a_special_hand_needs_a_name_that_can_be_written() -> None:
    with pytest.raises(InvalidRulesetError, match="name"):
        register_special_hand(SpecialHand("two words", "", 1, lambda cs: False))


def test_special_hands_hook_shows_the_hand_skips_play_and_collects_he(
    eight_of_one_suit: str,
) -> None:
    assert SPECIAL_HANDS.keys() == {eight_of_one_suit}  # the shipped table is empty
    seed = next(s for s in range(50) if new_hand(Ruleset(), s).bailao_holder >= 0)
    plain = new_hand(Ruleset(), seed)
    state, events = deal(Ruleset(special_hands=(eight_of_one_suit,)), seed)
    holder = SEATS[plain.bailao_holder]
    assert plain.phase is Phase.TRICKS and state.phase is Phase.OVER
    shown = [e for e in events_json(events, SEATS[(holder.number) % 4]) if e["kind"] == "seyang"]
    assert shown and shown[0]["seat"] == holder.value and len(shown[0]["cards"]) == 8
    assert state.result is not None and state.result.special == (holder, eight_of_one_suit, 5)
    net = state.result.settlement.net
    assert net[holder] == 15 and all(net[s] == -5 for s in SEATS if s is not holder)
    assert state.result.to_json()["special"] == {
        "seat": holder.value,
        "name": eight_of_one_suit,
        "zhu": 5,
    }
    assert State.from_position(state.to_position()) == state


def _random_hands(
    ruleset: Ruleset, seeds: range
) -> Iterator[tuple[State, list[dict[str, object]]]]:
    for seed in seeds:
        rng = random.Random(seed)
        s = new_hand(ruleset, seed)
        logged: list[dict[str, object]] = []
        while s.phase is not Phase.OVER:
            legal = legal_actions_for(s, acting(s)[0])
            s, events = apply(s, legal[rng.randrange(len(legal))])
            logged += events_json(events, None)
        yield s, logged


def test_baopei_situations_are_logged_or_not_and_never_paid() -> None:
    kinds: set[str] = set()
    for (logged, log_events), (quiet, quiet_events) in zip(
        _random_hands(Ruleset(), range(400)),
        _random_hands(Ruleset(baopei="off"), range(400)),
        strict=True,
    ):
        assert logged.result is not None and quiet.result is not None
        assert logged.result.settlement == quiet.result.settlement  # log only
        assert not [e for e in quiet_events if e["kind"] == "baopei"]
        baopei = [e for e in log_events if e["kind"] == "baopei"]
        assert len(baopei) == len(logged.result.penalties)
        kinds |= {str(e["detail"]) for e in baopei}
    assert kinds == {"zongbai", "zongzhuang"}


def test_zongbai_is_spending_a_guard_of_bailao_that_then_wins() -> None:
    bailao = Card.parse("bt").index
    seen = 0
    for s, _ in _random_hands(Ruleset(), range(400)):
        assert s.result is not None
        winners = [[c for _, c, up in plays if up][-1] for _, plays in s.history]
        for p in s.result.penalties:
            if p.kind != "zongbai":
                continue
            seen += 1
            assert p.card in cards("wtqt") and p.seat.number - 1 != s.bailao_holder
            spent = [c for _, plays in s.history[p.trick - 1 : p.trick] for _, c, _ in plays]
            assert p.card.index in spent and bailao not in spent
            assert bailao in winners[p.trick :]  # 百老 went 上桌 later
    assert seen


def test_zongzhuang_is_letting_the_banker_win_then_put_a_shang_up() -> None:
    from paiju.madiao.cards import ALL_CARDS, Role

    seen = 0
    for s, _ in _random_hands(Ruleset(), range(400)):
        assert s.result is not None
        for p in s.result.penalties:
            if p.kind != "zongzhuang":
                continue
            seen += 1
            k = p.trick - 1
            seat = p.seat.number - 1
            _lead, plays = s.history[k]
            winner = [(x, c) for x, c, up in plays if up][-1]
            assert seat != s.banker and winner[0] == s.banker
            mine = next((c, up) for x, c, up in plays if x == seat)
            assert not mine[1]  # thrown face down
            assert p.card.suit is ALL_CARDS[plays[0][1]].suit  # it held a capture
            nxt_lead, nxt = s.history[k + 1]
            assert nxt_lead == s.banker and ALL_CARDS[nxt[0][1]].role is Role.SHANG
            assert [c for _, c, up in nxt if up][-1] == nxt[0][1]  # the 賞 went 上桌
    assert seen


# --- 開沖 (§4) ---------------------------------------------------------------------------------


def test_chong_flow_offers_a_card_its_drawer_cannot_score() -> None:
    # §4.9's flow test: East's lone 八貫 cannot 沖 七貫 (T6, 斷沖); West's 九貫 scores it (隔青)
    from paiju.madiao.rules import run_chong

    def groups() -> list[Group]:
        return [Group.parse("8m"), Group.parse(""), Group.parse("9m"), Group.parse("")]

    offer = run_chong([Card.parse("7m")], 0, groups(), "offer")
    dead = run_chong([Card.parse("7m")], 0, groups(), "dead")
    assert (offer[0].scorer, offer[0].points) == (Seat.W, 1)
    assert (dead[0].scorer, dead[0].points) == (None, 0)


def test_wrap_straights() -> None:
    # 賞 9, 極 1 and 二 2 on the table: round the ring 9-1-2 is a 順領, and 二 leads too
    assert points("3m", "9m1m2m") == 6
    assert points("3m", "9m1m2m", wrap_straights=False) == 4


def test_jianling_activation() -> None:
    # 9, 7, 6 (間領 missing 8): drawing 5 before the gap, only 賞 leads (隔青 1)
    assert points("5m", "9m7m6m") == 1
    assert points("5m", "9m7m6m", jianling="at_once") == 1 + 2 + 2


def test_gap_card_leads() -> None:
    roles = base_roles(gap_card_leads=True)
    default = Group(cards("9m7m6m"))
    leading = Group(cards("9m7m6m"), roles=roles)
    assert default.take(Card.parse("8m")) == leading.take(Card.parse("8m")) == 8  # T16
    assert default.take(Card.parse("1m")) == 7
    assert leading.take(Card.parse("1m")) == 7 + 2  # the 八 drawn leads, and 一 is beside 九


def test_top_vs_top() -> None:
    assert points("wt", "bt") == 2
    assert points("wt", "bt", top_vs_top=5) == 5


def test_capture_multiplier() -> None:
    def twin(took: str, draw: str, how: str) -> int:
        holder = cards(took)[0]
        return chong_points(
            Card.parse(draw),
            [holder],
            [],
            {holder: tuple(cards(took)[1:])},
            base_roles(capture_multiplier=how),
        )

    assert [twin("qtbt", "2t", how) for how in ("count", "bailao", "off")] == [10, 10, 5]
    assert [twin("wtqt", "2t", how) for how in ("count", "bailao", "off")] == [10, 5, 5]


def test_separate_top_leaders() -> None:
    assert points("2t", "wtqt") == 10
    assert points("2t", "wtqt", separate_top_leaders=False) == 5


def test_shi_runs() -> None:
    # 二十, 三十, 四十: a 順領 from 二十 in 十字 only with shi_runs
    assert points("5t", "2t3t4t") == 2
    assert points("5t", "2t3t4t", shi_runs=True) == 6


def test_shengdai() -> None:
    from paiju.madiao.rules import Ruleset as R

    # a 賞 面張: 八萬 acts as 賞 (§4.7), so it 沖s its 極 at once; a lone 肩 otherwise waits
    plain, promoted = R().roles(Card.parse("9m")), R(shengdai=True).roles(Card.parse("9m"))
    assert chong_points(Card.parse("1m"), cards("8m"), [], roles=plain) == 0
    assert chong_points(Card.parse("1m"), cards("8m"), [], roles=promoted) == 3


def test_chong_needs_zhengben() -> None:
    changed = 0
    for (a, _), (b, _) in zip(
        _random_hands(Ruleset(), range(150)),
        _random_hands(Ruleset(chong_needs_zhengben=True), range(150)),
        strict=True,
    ):
        assert a.result is not None and b.result is not None
        for d in b.result.chong:
            if d.scorer is not None:
                assert len(b.table[d.scorer.number - 1]) >= 2  # only 正本 players 沖
        changed += a.result.chong != b.result.chong
    assert changed


# --- the settlement (§3.4, §3.5, §4.8) -------------------------------------------------------


def _settle(options: SettleOptions, **kw: object) -> dict[Seat, Fraction]:
    tables = kw.pop("tables", [cards("9m8m1m"), cards("5m4s"), cards("3c"), cards("2c")])
    return settle(
        Seat.E,
        [4, 2, 1, 1],
        tables,  # type: ignore[arg-type]
        kw.pop("holder", None),  # type: ignore[arg-type]
        kw.pop("chong", {}),  # type: ignore[arg-type]
        options=options,
        **kw,  # type: ignore[arg-type]
    ).net


def test_bonus_roles() -> None:
    # East holds 賞 9m, 肩 8m, 極 1m: [Q] 3 注, [M] only the 賞
    q = _settle(SettleOptions())
    m = _settle(SettleOptions(bonus_roles="m"))
    assert q[Seat.S] == 0 + 0 - 3 and m[Seat.S] == 0 + 0 - 1
    # [M] 扶正次賞: a 肩 counts as 賞 when the 面張 is its suit's 賞
    fz = _settle(SettleOptions(bonus_roles="m"), mian=Card.parse("9m"))
    assert fz[Seat.S] == -2


def test_dahuobai() -> None:
    tables = [cards("9s8s"), cards("bt5m"), cards("3c"), cards("2c")]
    three = _settle(SettleOptions(), tables=tables, holder=Seat.S)
    five = _settle(SettleOptions(dahuobai=5), tables=tables, holder=Seat.S)
    assert five[Seat.S] - three[Seat.S] == 2  # 2 more; 敲門 unchanged


def test_tu_module() -> None:
    tables = [cards("9s8s"), cards("bt5m"), cards("3c"), cards("2c1c")]
    dealt = [cards("9s8s"), cards("bt8m5m"), cards("3c"), cards("2c1c9t6m")]
    off = _settle(SettleOptions(), tables=tables, holder=Seat.S, dealt=dealt)
    m = _settle(SettleOptions(tu="m"), tables=tables, holder=Seat.S, dealt=dealt)
    q = _settle(SettleOptions(tu="q"), tables=tables, holder=Seat.S, dealt=dealt)
    # South, dealt 百老 with 八萬 (a 雌突): 大活百 3 → 大活百突 6 ([M]) or 10 ([Q]), and its
    # 敲門 from each other 散家 is 2 under [Q]; North, 正本, dealt 九十 with 六萬: 小突 1 or 2
    assert m[Seat.S] - off[Seat.S] == 3  # (North's 小突 is paid by the banker)
    assert m[Seat.N] - off[Seat.N] == 1
    assert q[Seat.N] - off[Seat.N] == 2 - 1  # and 敲門 to South: 2 instead of 1
    assert q[Seat.S] - off[Seat.S] == 7 + 2 * (2 - 1)


def test_qiaomen() -> None:
    tables = [cards("9s8s"), cards("bt5m"), cards("3c"), cards("2c")]
    on = _settle(SettleOptions(), tables=tables, holder=Seat.S)
    off = _settle(SettleOptions(qiaomen=False), tables=tables, holder=Seat.S)
    assert on[Seat.S] - off[Seat.S] == 2 and on[Seat.W] - off[Seat.W] == -1


def test_settlement_split() -> None:
    kaizhu = _settle(SettleOptions())
    split = _settle(SettleOptions(settlement="split"))
    assert kaizhu[Seat.W] == -1 - 3 and split[Seat.W] == -1 - 1  # the banker's 3 注 shared
    assert sum(split.values()) == 0
