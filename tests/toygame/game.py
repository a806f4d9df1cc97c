"""High card, the toy game: eight cards 0–7, two to each of four seats; in each of two
rounds every seat plays a card in turn (E first, then the last round's winner), and the
highest card wins the round. A seat's net is 4 × its rounds won − the rounds played (zero-sum).

Positions are written ``toy v=N HANDS PLAYED WON TURN``, e.g.
``toy v=0 0.5/1.6/2.7/3.4 - 0.0.0.0 0``.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from paiju.errors import NotationError, RulesError
from paiju.games import Calculator, Deal, HandOutcome, RoomKind, SummaryReport, Transfer, register

NAME = "toy"
CARDS = 8


class Seat(enum.Enum):
    E = "E"
    S = "S"
    W = "W"
    N = "N"

    @property
    def number(self) -> int:
        return "ESWN".index(self.value) + 1


SEATS = tuple(Seat)


@dataclass(frozen=True, slots=True)
class Ruleset:
    rounds: int = 2

    def to_json(self) -> dict[str, Any]:
        return {"game": NAME, "rounds": self.rounds}


@dataclass(frozen=True, slots=True)
class Action:
    seat: Seat
    card: int

    def __str__(self) -> str:
        return f"{self.seat.value} play {self.card}"

    @staticmethod
    def parse(text: str) -> Action:
        parts = text.split()
        if len(parts) != 3 or parts[0] not in "ESWN" or parts[1] != "play":
            raise NotationError("not a toy action", text=text, position=0)
        if not parts[2].isdigit() or not 0 <= int(parts[2]) < CARDS:
            raise NotationError(
                f"no card {parts[2]!r}", text=text, position=len(text) - len(parts[2])
            )
        return Action(Seat(parts[0]), int(parts[2]))


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    seat: int
    card: int

    def to_json(self, viewer: Seat | None) -> dict[str, Any]:
        return {"kind": self.kind, "seat": SEATS[self.seat].value, "card": self.card}


@dataclass(frozen=True, slots=True)
class State:
    hands: tuple[tuple[int, ...], ...]  # each seat's cards
    played: tuple[tuple[int, int], ...]  # (seat, card) of the round being played
    won: tuple[int, int, int, int]
    turn: int  # seat index to play; -1 once over
    version: int = 0

    @property
    def over(self) -> bool:
        return self.turn < 0

    def to_position(self) -> str:
        hands = "/".join(".".join(str(c) for c in h) or "-" for h in self.hands)
        played = ".".join(f"{s}{c}" for s, c in self.played) or "-"
        won = ".".join(str(w) for w in self.won)
        return f"{NAME} v={self.version} {hands} {played} {won} {self.turn}"

    @staticmethod
    def from_position(text: str) -> State:
        from paiju.errors import InvalidPositionError

        try:
            name, v, hands, played, won, turn = text.split()
            assert name == NAME and v.startswith("v=")
            return State(
                tuple(
                    () if h == "-" else tuple(int(c) for c in h.split("."))
                    for h in hands.split("/")
                ),
                () if played == "-" else tuple((int(p[0]), int(p[1:])) for p in played.split(".")),
                tuple(int(w) for w in won.split(".")),  # type: ignore[arg-type]
                int(turn),
                int(v[2:]),
            )
        except (ValueError, AssertionError, IndexError):
            raise InvalidPositionError(f"position: not a toy position: {text!r}") from None

    def __str__(self) -> str:
        return self.to_position()


@dataclass(frozen=True, slots=True)
class View:
    seat: Seat
    hand: tuple[int, ...]
    played: tuple[tuple[int, int], ...]
    won: tuple[int, int, int, int]
    legal: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "seat": self.seat.value,
            "hand": list(self.hand),
            "played": [[SEATS[s].value, c] for s, c in self.played],
            "won": list(self.won),
            "legal": [str(a) for a in self.legal],
        }


def new_hand(ruleset: Ruleset, seed: int) -> State:
    cards = list(range(CARDS))
    random.Random(seed).shuffle(cards)
    hands = tuple(tuple(sorted(cards[2 * i : 2 * i + 2])) for i in range(4))
    return State(hands, (), (0, 0, 0, 0), 0)


def legal(state: State, seat: Seat) -> tuple[Action, ...]:
    i = seat.number - 1
    if state.turn != i:
        return ()
    return tuple(Action(seat, c) for c in state.hands[i])


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    if action not in legal(state, action.seat):
        raise RulesError(f"illegal: {action}")
    i = action.seat.number - 1
    hands = list(state.hands)
    hands[i] = tuple(c for c in hands[i] if c != action.card)
    played = (*state.played, (i, action.card))
    won = list(state.won)
    events = [Event("play", i, action.card)]
    turn = (i + 1) % 4
    if len(played) == 4:
        winner = max(played, key=lambda p: p[1])[0]
        won[winner] += 1
        events.append(Event("round", winner, -1))
        played = ()
        turn = winner if any(hands) else -1
    return State(tuple(hands), played, tuple(won), turn, state.version + 1), events  # type: ignore[arg-type]


class _Tally:
    def __init__(self) -> None:
        self.winners: Counter[str] = Counter()

    def add(self, result: Mapping[str, Any]) -> None:
        self.winners[result["best"]] += 1

    def summary(self, hands: int) -> dict[str, Any]:
        return {"best_by_seat": {s.value: self.winners[s.value] for s in SEATS}}


def _rank(data: object) -> dict[str, Any]:
    """The toy calculator: the cards given, highest first."""
    if not isinstance(data, list) or not all(isinstance(c, int) for c in data):
        raise RulesError("expected a list of cards")
    return {"rank": sorted(data, reverse=True)}


class ToyGame:
    """The toy game behind the protocol."""

    name = NAME
    seats: tuple[Seat, ...] = SEATS
    default_bot = "first"
    calculators: Mapping[str, Calculator] = {
        "rank": Calculator(_rank, "rank some cards", "/toy/rank")
    }

    def default_ruleset(self) -> Ruleset:
        return Ruleset()

    def ruleset_from_json(self, data: object) -> Ruleset:
        if not isinstance(data, dict) or data.get("game") != NAME:
            raise ValueError(f"not a toy ruleset: {data!r}")
        return Ruleset(int(data.get("rounds", 2)))

    def first_deal(self, rng: random.Random) -> Deal:
        seating = [0, 1, 2, 3]
        rng.shuffle(seating)
        return Deal(0, tuple(seating))  # type: ignore[arg-type]

    def next_deal(self, deal: Deal, final: State) -> Deal:
        s = deal.seating
        return Deal(deal.hand + 1, (s[1], s[2], s[3], s[0]))

    def new_hand(self, ruleset: Ruleset, seed: int, setup: Mapping[str, Any]) -> State:
        if setup:
            raise ValueError(f"the toy game needs no setup, got {dict(setup)!r}")
        return new_hand(ruleset, seed)

    def deal(
        self, ruleset: Ruleset, seed: int, setup: Mapping[str, Any]
    ) -> tuple[State, list[Any]]:
        return self.new_hand(ruleset, seed, setup), []

    def setup_of(self, state: State) -> dict[str, Any]:
        return {}

    def chance_of(self, state: State) -> dict[str, Any]:
        return {}

    def acting(self, state: State) -> tuple[Seat, ...]:
        return () if state.over else (SEATS[state.turn],)

    def legal_actions(self, state: State, seat: Seat) -> tuple[Action, ...]:
        return legal(state, seat)

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return apply(state, action)

    def observe(self, state: State, seat: Seat) -> View:
        i = seat.number - 1
        return View(seat, state.hands[i], state.played, state.won, legal(state, seat))

    def seat_version(self, state: State, seat: Seat) -> int:
        return state.version

    def settling(self, state: State, action: Action) -> None:
        return None

    def is_over(self, state: State) -> bool:
        return state.over

    def result_json(self, state: State) -> dict[str, Any]:
        best = max(range(4), key=lambda i: (state.won[i], -i))
        return {"won": list(state.won), "best": SEATS[best].value}

    def transfers(self, state: State) -> list[Transfer]:
        out = []
        for payer in range(4):
            for payee in range(4):
                if state.won[payee] > 0 and payer != payee:
                    out.append(Transfer(payer, payee, Fraction(state.won[payee]), "round"))
        return out

    def outcome(self, state: State, seat: int) -> HandOutcome:
        net = Fraction(self.nets(state)[seat]).limit_denominator()
        return HandOutcome(net, state.won[seat] == max(state.won), None)

    def nets(self, state: State) -> list[float]:
        total = sum(state.won)
        return [float(4 * w - total) for w in state.won]

    def timeout_action(self, state: State, seat: Seat) -> Action:
        return legal(state, seat)[0]

    def is_prompt(self, state: State, seat: Seat) -> bool:
        return False

    def parse_action(self, text: str) -> Action:
        return Action.parse(text)

    def tally(self) -> _Tally:
        return _Tally()


TOY = ToyGame()


def report(s: Mapping[str, Any]) -> SummaryReport:
    return SummaryReport(
        head=(("rounds", "2"),),
        row_title="best per seat",
        row={k: str(v) for k, v in s["best_by_seat"].items()},
    )


def register_game() -> None:
    register(
        TOY,
        title="High card",
        unit="點",
        rooms=(RoomKind("toy", "High card · room", 10, 5),),
        read_position=State.from_position,
        report=report,
    )
