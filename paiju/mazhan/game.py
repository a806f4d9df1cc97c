"""Mazhan behind the :class:`~paiju.games.Game` protocol.

Match level (rules §9): the first dealer is drawn at random; the dealer keeps the deal by
winning (連莊), otherwise every player moves one seat on and South's player becomes East.

>>> g = MAZHAN
>>> deal = g.first_deal(random.Random(3))
>>> state = g.new_hand(g.default_ruleset(), 11, deal.setup)
>>> g.timeout_action(state, g.seats[0]).kind.value
'discard'
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
    InputProblems,
    RoomKind,
    SummaryReport,
    Transfer,
    register,
    rotate_seating,
)
from paiju.games.adapter import RulesGame
from paiju.mazhan import rules as mz
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.record import FinishedHand
from paiju.mazhan.scoring import score
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.views import View, observe, scored_json

__all__ = ["MAZHAN", "MazhanGame", "explain_settlement", "score_calculator", "score_command"]


def score_calculator(data: object) -> dict[str, Any]:
    """A finished hand given as rules §11's JSON object, scored: ``{"result": ...}``, laid
    out as a finished hand's view lays out its result (every hand, each seat's items, 台
    and formula, the payments; :func:`paiju.mazhan.views.scored_json`).

    >>> from paiju.mazhan.record import EXAMPLE
    >>> score_calculator(EXAMPLE)["result"]["net"]
    {'E': -640, 'S': 1280, 'W': -320, 'N': -320}
    >>> score_calculator({**EXAMPLE, "wild": "9x", "winner": "X"})
    Traceback (most recent call last):
    ...
    paiju.games.InputProblems: wild: unknown suit letter 'x' in '9x' at position 1

    Raises :class:`~paiju.games.InputProblems` with every problem a scorekeeper can fix at
    once (:meth:`~paiju.mazhan.record.FinishedHand.read`), the first named.
    """
    hand, problems = FinishedHand.read(data)
    if hand is None:
        raise InputProblems(problems)
    return {"result": scored_json(hand)}


def score_command(data: object) -> dict[str, Any]:
    """A finished hand given as rules §11's JSON object, scored as §11 writes a settlement
    (what ``paiju mazhan score`` prints; :func:`paiju.mazhan.scoring.score`).

    >>> from paiju.mazhan.record import EXAMPLE
    >>> score_command(EXAMPLE)["winner"]
    'S'

    Raises :class:`~paiju.games.InputProblems` as :func:`score_calculator` does.
    """
    hand, problems = FinishedHand.read(data)
    if hand is None:
        raise InputProblems(problems)
    return score(hand).to_json()


def explain_settlement(settlement: dict[str, Any]) -> str:
    """:func:`score_command`'s settlement as readable tables (``--explain``), as wide as the
    terminal.

    >>> from paiju.mazhan.record import EXAMPLE
    >>> "net: E -640  S +1280" in explain_settlement(score_command(EXAMPLE))
    True
    """
    import shutil

    from paiju.mazhan.explain import render_settlement  # rich, for the command only

    return render_settlement(settlement, width=shutil.get_terminal_size((100, 24)).columns)


class MazhanTally:
    """Wins by seat, method and hand type; draws; the mean winning value."""

    def __init__(self) -> None:
        self.seats: Counter[str] = Counter()
        self.methods: Counter[str] = Counter()
        self.types: Counter[str] = Counter()
        self.draws = 0
        self.values = 0

    def add(self, result: Mapping[str, Any]) -> None:
        """Count one hand.

        >>> t = MazhanTally(); t.add({"winner": "S", "win_by": "discard", "hand": [], "value": 80})
        >>> t.summary(1)["wins_by_seat"]["S"]
        1
        """
        winner = result["winner"]
        if winner is None:
            self.draws += 1
            return
        self.seats[winner] += 1
        self.methods[result["win_by"]] += 1
        for name in result["hand"] or ["胡頭"]:
            self.types[name] += 1
        self.values += result["value"]

    def summary(self, hands: int) -> dict[str, Any]:
        """The summary over ``hands`` hands.

        >>> MazhanTally().summary(0)["mean_winning_value"]
        0.0
        """
        wins = hands - self.draws
        return {
            "wins_by_seat": {s: self.seats[s] for s in "ESWN"},
            "draws": self.draws,
            "draw_rate": self.draws / (hands or 1),
            "wins_by_hand_type": dict(self.types),
            "wins_by_method": dict(self.methods),
            "mean_winning_value": self.values / wins if wins else 0.0,
        }


#: The Mazhan game.


class MazhanGame(RulesGame[mz.State, Action, View, mz.Ruleset]):
    """The Mazhan game (one instance, :data:`MAZHAN`): its rules module's hand level
    (:class:`~paiju.games.adapter.RulesGame`), its deals, settlement and timeouts.

    >>> MAZHAN.default_ruleset().dead_wall, str(MAZHAN.parse_action("S peng"))
    (11, 'S peng')
    """

    name = "mazhan"
    rules = mz
    action = Action
    viewer = staticmethod(observe)
    tallies = MazhanTally
    seats: tuple[Seat, ...] = SEATS
    default_bot = "greedy"
    calculators: Mapping[str, Calculator] = {
        "score": Calculator(
            score_calculator,
            "score a finished hand (JSON in, JSON out)",
            "/score",
            description="Score one finished hand given as JSON (rules §11) and print the "
            "settlement as JSON, or as tables with --explain.",
            contract="Mazhan rules §11",
            # three ★ over a long one-suit run take up to about 0.1 s to read every way
            heavy=True,
            command=score_command,
            explain=explain_settlement,
        )
    }

    def first_deal(self, rng: random.Random) -> Deal:
        """The first dealer (§3.1) drawn from ``rng``: player ``east`` sits in seat E.

        >>> MAZHAN.first_deal(random.Random(0)).seating
        (3, 0, 1, 2)
        """
        east = rng.randrange(4)
        seating = tuple((east + i) % 4 for i in range(4))
        return Deal(0, (seating[0], seating[1], seating[2], seating[3]))

    def next_deal(self, deal: Deal, final: mz.State) -> Deal:
        """§9: East keeps the deal by winning; otherwise South's player becomes East.

        >>> from paiju.bots.driver import play_hand
        >>> from paiju.mazhan.bots.greedy import GreedyBot
        >>> final, _ = play_hand(mz.Ruleset(), [GreedyBot()] * 4, seed=3)
        >>> kept = final.result.winner is Seat.E
        >>> after = MAZHAN.next_deal(Deal(0, (0, 1, 2, 3)), final).seating
        >>> after == ((0, 1, 2, 3) if kept else (1, 2, 3, 0))
        True

        Raises ``ValueError`` for a hand that is not over.
        """
        if final.result is None:
            raise ValueError("the hand is not over")
        keep = final.result.winner is Seat.E
        return Deal(deal.hand + 1, deal.seating if keep else rotate_seating(deal.seating))

    def new_hand(self, ruleset: mz.Ruleset, seed: int, setup: Mapping[str, Any]) -> mz.State:
        """Deal a hand (Mazhan needs nothing besides the seed).

        >>> MAZHAN.new_hand(mz.Ruleset(), 1, {"banker": "E"})
        Traceback (most recent call last):
        ...
        ValueError: a Mazhan hand takes no setup, got banker
        """
        if setup:
            raise ValueError(f"a Mazhan hand takes no setup, got {', '.join(sorted(setup))}")
        return mz.new_hand(ruleset, seed)

    def deal(
        self, ruleset: mz.Ruleset, seed: int, setup: Mapping[str, Any]
    ) -> tuple[mz.State, list[Any]]:
        """Deal a hand with the events of the deal (the dice first).

        >>> MAZHAN.deal(mz.Ruleset(), 1, {})[1][0].kind
        'deal'
        """
        if setup:
            raise ValueError(f"a Mazhan hand takes no setup, got {', '.join(sorted(setup))}")
        state, events = mz.deal(ruleset, seed)
        return state, list(events)

    def setup_of(self, state: mz.State) -> dict[str, Any]:
        """Nothing: the seed deals the hand.

        >>> MAZHAN.setup_of(mz.new_hand(mz.Ruleset(), 1))
        {}
        """
        return {}

    def chance_of(self, state: mz.State) -> dict[str, Any]:
        """The dice rolled when the hand was set up (§3.2, recorded in the log).

        >>> MAZHAN.chance_of(mz.new_hand(mz.Ruleset(), 1))["dice"]
        [...]
        """
        return {"dice": list(state.dice)}

    def settling(self, state: mz.State, action: Action) -> tuple[mz.State, list[Any]] | None:
        """The state a discard or an added kong shows while it settles, a claim window open
        to nobody, and its events (:func:`paiju.mazhan.rules.settling`); ``None`` for any
        other action.

        >>> s = mz.new_hand(mz.Ruleset(), 2)
        >>> pause, events = MAZHAN.settling(s, Action.parse("E discard 6m"))
        >>> pause.phase.value, MAZHAN.acting(pause), [e.kind for e in events]
        ('claim', (), ['discard'])
        >>> MAZHAN.settling(mz.new_hand(mz.Ruleset(), 67), Action.parse("E angang 4z")) is None
        True

        Raises ``RulesError`` for an action that is not legal now.
        """
        settled = mz.settling(state, action)
        if settled is None:
            return None
        pause, events = settled
        return pause, list(events)

    def transfers(self, state: mz.State) -> list[Transfer]:
        """§7's payments in 胡 (the dealer's doubled already).

        >>> MAZHAN.transfers(mz.new_hand(mz.Ruleset(), 1))
        Traceback (most recent call last):
        ...
        ValueError: the hand is not over
        """
        return [
            Transfer(p.payer.number - 1, p.payee.number - 1, Fraction(p.amount), p.reason)
            for p in self.finished(state).settlement.payments
            if p.amount > 0
        ]

    def nets(self, state: mz.State) -> list[float]:
        """Each seat's net 胡 (E S W N).

        >>> MAZHAN.nets(mz.new_hand(mz.Ruleset(), 1))
        Traceback (most recent call last):
        ...
        ValueError: the hand is not over
        """
        net = self.finished(state).settlement.net
        return [float(net[seat]) for seat in SEATS]

    def outcome(self, state: mz.State, seat: int) -> HandOutcome:
        """Net, win and deal-in of one seat in a finished hand.

        >>> MAZHAN.outcome(mz.new_hand(mz.Ruleset(), 1), 0)
        Traceback (most recent call last):
        ...
        ValueError: the hand is not over
        """
        r = self.finished(state)
        s = SEATS[seat]
        return HandOutcome(
            Fraction(r.settlement.net[s]), r.winner is s, r.winner is not None and r.discarder is s
        )

    def timeout_action(self, state: mz.State, seat: Seat) -> Action:
        """§10: pass a claim prompt; else discard the drawn tile if it may be discarded,
        else the rightmost non-★ tile.

        Raises ``ValueError`` when the seat has nothing to do.
        """
        legal = self.legal_or_raise(state, seat)
        for a in legal:
            if a.kind is ActionKind.PASS:
                return a
        discards = [a for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None]
        if not discards:
            return legal[0]
        for a in discards:
            if a.tile is not None and a.tile.index == state.drawn:
                return a
        return max(discards, key=lambda a: a.tile.index if a.tile is not None else -1)

    def is_prompt(self, state: mz.State, seat: Seat) -> bool:
        """True in a claim window (its expiry is a pass, not a timeout).

        >>> MAZHAN.is_prompt(mz.new_hand(mz.Ruleset(), 1), Seat.E)
        False
        """
        return state.phase in (mz.Phase.CLAIM, mz.Phase.ROB)


MAZHAN = MazhanGame()

_SEAT_NAMES = {"E": "東 East (dealer)", "S": "南 South", "W": "西 West", "N": "北 North"}


def summary_report(s: Mapping[str, Any]) -> SummaryReport:
    """A Mazhan summary as tables (``paiju simulate``'s output).

    >>> summary_report({**MazhanTally().summary(0), "hands": 0}).head[0]
    ('流局 draws', '0 (0.0%)')
    """
    hands = s["hands"] or 1
    return SummaryReport(
        head=(
            ("流局 draws", f"{s['draws']} ({s['draw_rate']:.1%})"),
            ("mean winning value", f"{s['mean_winning_value']:.1f} 胡"),
        ),
        row_title="wins per seat",
        row={_SEAT_NAMES[k]: f"{n} ({n / hands:.1%})" for k, n in s["wins_by_seat"].items()},
        counts=(
            (
                "wins per hand type and method",
                "hand type",
                {
                    **s["wins_by_hand_type"],
                    **{f"by {k}": v for k, v in s["wins_by_method"].items()},
                },
            ),
        ),
    )


register(
    MAZHAN,
    title="Mazhan",
    unit="胡",
    rooms=(
        RoomKind("mazhan", "馬站麻將 · 普通房", 800, 400),
        RoomKind("mazhan-vip", "馬站麻將 · VIP 房", 1_000_000, 400),
    ),
    read_position=mz.State.from_position,
    report=summary_report,
    # this folder's other layers, loaded by theirs when first asked
    parts={layer: f"{__package__}.{module}" for layer, module in PARTS.items()},
    order=0,
)
