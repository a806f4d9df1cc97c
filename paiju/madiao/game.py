"""Ma Diao behind the :class:`~paiju.games.Game` protocol.

Match level (rules §2): the players sit in seats drawn at random; the first banker comes
from the first hand's 面張; after each hand the bank passes to the next seat.

>>> g = MADIAO
>>> deal = g.first_deal(random.Random(3))
>>> state = g.new_hand(g.default_ruleset(), 11, deal.setup)
>>> g.setup_of(state)["banker"] in "ESWN", g.next_deal(deal, state).hand
(True, 1)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from paiju.games import (
    PARTS,
    Calculator,
    Deal,
    HandOutcome,
    RoomKind,
    SummaryReport,
    Transfer,
    register,
)
from paiju.games.adapter import RulesGame
from paiju.madiao import rules as md
from paiju.madiao.chong import parse_chong_input
from paiju.madiao.scoring import diao_name
from paiju.madiao.seats import SEATS, Seat
from paiju.madiao.views import View, observe

__all__ = ["MADIAO", "MaDiaoGame", "chong_calculator"]

_SEAT_LETTERS = ("E", "S", "W", "N")


def chong_calculator(data: object) -> dict[str, Any]:
    """One player's 開沖 draws scored (rules §7's input: ``table``, ``draws``,
    ``captured``): the points of each draw (0: 斷沖, the card is not added) and their total.

    >>> chong_calculator({"table": "9m", "draws": "76854m"})
    {'points': [1, 1, 2, 2, 2], 'total': 8}
    >>> chong_calculator({"table": "9m"})
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidHandError: input: missing field 'draws'

    Raises :class:`~paiju.errors.InvalidHandError` naming the first thing wrong
    (:func:`paiju.madiao.chong.parse_chong_input`).
    """
    points = parse_chong_input(data)
    return {"points": points, "total": sum(points)}


class MaDiaoTally:
    """Net by seat, the banker's net, 正本 and 開沖 rates, 吊 outcomes and 百老 bonuses."""

    def __init__(self) -> None:
        self.sums: Counter[str] = Counter()
        self.diao: Counter[str] = Counter()
        self.bailao: Counter[str] = Counter()

    def add(self, result: Mapping[str, Any]) -> None:
        """Count one hand.

        >>> from paiju.bots.driver import play_match
        >>> from paiju.bots.uniform import RandomBot
        >>> t = MaDiaoTally()
        >>> t.add(play_match(md.Ruleset(), [RandomBot()] * 4, 2, 1)[0].result)
        >>> sum(t.summary(1)["diao_outcomes"].values())
        1
        """
        banker = result["banker"]
        self.sums["banker_net"] += result["net"][banker]
        self.diao[diao_name([result["seats"][s]["tricks"] for s in _SEAT_LETTERS])] += 1
        for seat, s in result["seats"].items():
            self.sums["zhengben"] += s["zhengben"]
            self.sums["chong"] += s["chong"]
            self.sums[f"net_{seat}"] += result["net"][seat]
            for b in s["bonuses"]:
                if b["name"] in ("大活百", "小活百", "死百"):
                    self.bailao[b["name"]] += 1

    def summary(self, hands: int) -> dict[str, Any]:
        """The summary over ``hands`` hands.

        >>> MaDiaoTally().summary(0)["zhengben_rate"]
        0.0
        """
        n = hands or 1
        return {
            "mean_net_by_seat": {s: self.sums[f"net_{s}"] / n for s in _SEAT_LETTERS},
            "banker_mean_net": self.sums["banker_net"] / n,
            "zhengben_rate": self.sums["zhengben"] / (4 * n),
            "chong_points_per_hand": self.sums["chong"] / n,
            "diao_outcomes": dict(self.diao),
            "bailao": dict(self.bailao),
        }


#: The Ma Diao game.


class MaDiaoGame(RulesGame[md.State, md.Action, View, md.Ruleset]):
    """The Ma Diao game (one instance, :data:`MADIAO`): its rules module's hand level
    (:class:`~paiju.games.adapter.RulesGame`), its deals, settlement and timeouts.

    >>> MADIAO.default_ruleset().chong_flow, str(MADIAO.parse_action("S zhuo wt"))
    ('offer', 'S zhuo wt')
    """

    name = "madiao"
    rules = md
    action = md.Action
    viewer = staticmethod(observe)
    tallies = MaDiaoTally
    seats: tuple[Seat, ...] = SEATS
    default_bot = "heuristic"
    calculators: Mapping[str, Calculator] = {
        "chong": Calculator(
            chong_calculator,
            "score one player's 開沖 draws (JSON in, JSON out)",
            "/score/chong",
            description='Read {"table": "9m", "draws": "76854m", "captured": {...}} (rules §7) '
            'and print {"points": [...], "total": n}.',
            contract="Ma Diao rules §7",
        )
    }

    def first_deal(self, rng: random.Random) -> Deal:
        """Random seats (the rules' CHOICE); the banker is learnt from the first 面張.

        >>> MADIAO.first_deal(random.Random(0)).setup
        {}
        """
        seated = [0, 1, 2, 3]
        rng.shuffle(seated)
        return Deal(0, (seated[0], seated[1], seated[2], seated[3]))

    def next_deal(self, deal: Deal, final: md.State) -> Deal:
        """The bank passes to the next seat; the players keep their seats.

        >>> s = MADIAO.new_hand(md.Ruleset(), 2, {"banker": "N"})
        >>> MADIAO.next_deal(Deal(0, (0, 1, 2, 3)), s).setup
        {'banker': 'E'}
        """
        banker = SEATS[final.banker].next
        return Deal(deal.hand + 1, deal.seating, {"banker": banker.value})

    def new_hand(self, ruleset: md.Ruleset, seed: int, setup: Mapping[str, Any]) -> md.State:
        """Deal a hand; ``setup["banker"]`` names the banker (absent: from the 面張).

        >>> MADIAO.new_hand(md.Ruleset(), 1, {"banker": "X"})
        Traceback (most recent call last):
        ...
        ValueError: banker: expected E, S, W or N, got 'X'
        """
        return md.new_hand(ruleset, seed, banker=self._banker(setup))

    def deal(
        self, ruleset: md.Ruleset, seed: int, setup: Mapping[str, Any]
    ) -> tuple[md.State, list[Any]]:
        """Deal a hand with the events of the deal (each seat's cards, the 面張).

        >>> MADIAO.deal(md.Ruleset(), 1, {"banker": "S"})[1][-1].kind
        'mian'
        """
        banker = self._banker(setup)
        state, events = md.deal(ruleset, seed, banker=banker)
        return state, list(events)

    def _banker(self, setup: Mapping[str, Any]) -> Seat | None:
        unknown = set(setup) - {"banker"}
        if unknown:
            raise ValueError(f"unknown Ma Diao setup: {', '.join(sorted(unknown))}")
        banker = setup.get("banker")
        if banker is None:
            return None
        if banker not in _SEAT_LETTERS:
            raise ValueError(f"banker: expected E, S, W or N, got {banker!r}")
        return SEATS[_SEAT_LETTERS.index(banker)]

    def setup_of(self, state: md.State) -> dict[str, Any]:
        """The banker.

        >>> MADIAO.setup_of(md.new_hand(md.Ruleset(), 1, banker=Seat.W))
        {'banker': 'W'}
        """
        return {"banker": SEATS[state.banker].value}

    def chance_of(self, state: md.State) -> dict[str, Any]:
        """Nothing besides the shuffle (the 面張 is in every view).

        >>> MADIAO.chance_of(md.new_hand(md.Ruleset(), 1))
        {}
        """
        return {}

    def settling(self, state: md.State, action: md.Action) -> tuple[md.State, list[Any]] | None:
        """Always ``None``: Ma Diao has no claims, so no play needs a pause that hides who
        could claim it (the protocol's rule is Mazhan's, §5 end).

        >>> s = md.new_hand(md.Ruleset(), 1)
        >>> MADIAO.settling(s, MADIAO.legal_actions(s, MADIAO.acting(s)[0])[0]) is None
        True
        """
        return None

    def transfers(self, state: md.State) -> list[Transfer]:
        """The settlement as payments in 注: between the banker and each 散家 (their net
        without 敲門 and 賀), then the 敲門 and 賀 transfers themselves.

        >>> MADIAO.transfers(md.new_hand(md.Ruleset(), 1))
        Traceback (most recent call last):
        ...
        ValueError: the hand is not over
        """
        settlement = self.finished(state).settlement
        b = settlement.banker.number - 1
        explicit = [(a, t, z, "qiaomen") for a, t, z in settlement.qiaomen]
        explicit += [(a, t, z, "he") for a, t, z in settlement.he]
        out: list[Transfer] = []
        for i, seat in enumerate(SEATS):
            if i == b:
                continue
            pay = (
                settlement.seats[seat].net
                - sum(z for _a, t, z, _r in explicit if t is seat)
                + sum(z for a, _t, z, _r in explicit if a is seat)
            )
            if pay > 0:
                out.append(Transfer(b, i, Fraction(pay), "banker"))
            elif pay < 0:
                out.append(Transfer(i, b, Fraction(-pay), "banker"))
        for a, t, z, reason in explicit:
            if z > 0:
                out.append(Transfer(a.number - 1, t.number - 1, Fraction(z), reason))
        return out

    def nets(self, state: md.State) -> list[float]:
        """Each seat's net 注 (E S W N).

        >>> MADIAO.nets(md.new_hand(md.Ruleset(), 1))
        Traceback (most recent call last):
        ...
        ValueError: the hand is not over
        """
        seats = self.finished(state).settlement.seats
        return [float(seats[seat].net) for seat in SEATS]

    def outcome(self, state: md.State, seat: int) -> HandOutcome:
        """Net of one seat; a win is a positive net; nobody deals in.

        >>> MADIAO.outcome(md.new_hand(md.Ruleset(), 1), 0)
        Traceback (most recent call last):
        ...
        ValueError: the hand is not over
        """
        net = Fraction(self.finished(state).settlement.net[SEATS[seat]])
        return HandOutcome(net, net > 0, None)

    def timeout_action(self, state: md.State, seat: Seat) -> md.Action:
        """The lowest card: led face up, else thrown face down (docs/protocol.md).

        >>> s = md.new_hand(md.Ruleset(), 1, banker=Seat.E)
        >>> MADIAO.timeout_action(s, Seat.E).kind.value
        'fa'

        Raises ``ValueError`` when the seat has nothing to do.
        """
        legal = self.legal_or_raise(state, seat)
        return min(legal, key=lambda a: (a.kind.value != "fa", a.kind.value != "mie", a.card.rank))

    def is_prompt(self, state: md.State, seat: Seat) -> bool:
        """Ma Diao has no claim prompts.

        >>> MADIAO.is_prompt(md.new_hand(md.Ruleset(), 1), Seat.E)
        False
        """
        return False


MADIAO = MaDiaoGame()


def summary_report(s: Mapping[str, Any]) -> SummaryReport:
    """A Ma Diao summary as tables (``paiju simulate``'s output).

    >>> summary_report(MaDiaoTally().summary(0)).head[1]
    ('正本 rate', '0.0%')
    """
    return SummaryReport(
        head=(
            ("banker's mean net", f"{s['banker_mean_net']:+.2f} 注"),
            ("正本 rate", f"{s['zhengben_rate']:.1%}"),
            ("開沖 points per hand", f"{s['chong_points_per_hand']:.1f}"),
        ),
        row_title="mean net per seat (注)",
        row={k: f"{v:+.2f}" for k, v in s["mean_net_by_seat"].items()},
        counts=(("吊 outcomes and 百老", "outcome", {**s["diao_outcomes"], **s["bailao"]}),),
    )


register(
    MADIAO,
    title="Ma Diao",
    unit="注",
    rooms=(RoomKind("madiao", "馬吊 · 普通房", 800, 40),),
    read_position=md.State.from_position,
    record_v1_setup=("banker",),
    report=summary_report,
    # this folder's other layers, loaded by theirs when first asked
    parts={layer: f"{__package__}.{module}" for layer, module in PARTS.items()},
    order=1,
)
