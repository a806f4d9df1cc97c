"""What one Ma Diao seat may know: its own hand, every face-up card, the 上桌 cards, the
trick so far (face-down cards hidden unless its own), the 面張. Never another hand, never the
stock's order; once the hand is over, the 開沖 draws and the settlement are public.

>>> from paiju.madiao.rules import Ruleset, new_hand
>>> from paiju.madiao.seats import Seat
>>> v = observe(new_hand(Ruleset(), seed=4, banker=Seat.E), Seat.S)
>>> len(v.hand), v.hand_sizes[Seat.E], v.legal
(8, 8, ())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.madiao.cards import ALL_CARDS, Card
from paiju.madiao.rules import Action, Phase, State, acting, legal_actions_for
from paiju.madiao.seats import SEATS, Seat

__all__ = ["View", "observe"]


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view of a Ma Diao hand. ``trick`` lists ``(seat, card or None, face_up)``.

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> observe(new_hand(Ruleset(), seed=4, banker=Seat.E), Seat.E).my_turn
    True
    """

    seat: Seat
    phase: Phase
    version: int
    acting: tuple[Seat, ...]
    banker: Seat
    mian: Card
    trick_no: int
    hand: tuple[Card, ...]
    hand_sizes: dict[Seat, int]
    trick: tuple[tuple[Seat, Card | None, bool], ...]
    table: dict[Seat, tuple[Card, ...]]
    tricks_won: dict[Seat, int]
    seen: tuple[Card, ...]
    legal: tuple[Action, ...]
    result: dict[str, Any] | None

    @property
    def my_turn(self) -> bool:
        """True when this seat plays now.

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> observe(new_hand(Ruleset(), seed=4, banker=Seat.E), Seat.W).my_turn
        False
        """
        return self.seat in self.acting

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (what a client receives).

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> observe(new_hand(Ruleset(), seed=4), Seat.W).to_json()["mian"] != ""
        True
        """
        return {
            "seat": self.seat.value,
            "phase": self.phase.value,
            "version": self.version,
            "acting": [s.value for s in self.acting],
            "banker": self.banker.value,
            "mian": str(self.mian),
            "trick_no": self.trick_no,
            "hand": "".join(str(c) for c in self.hand),
            "hand_sizes": {s.value: n for s, n in self.hand_sizes.items()},
            "trick": [
                {"seat": s.value, "card": None if c is None else str(c), "face_up": up}
                for s, c, up in self.trick
            ],
            "table": {s.value: "".join(str(c) for c in cs) for s, cs in self.table.items()},
            "tricks_won": {s.value: n for s, n in self.tricks_won.items()},
            "seen": "".join(str(c) for c in self.seen),
            "legal": [str(a) for a in self.legal],
            "result": self.result,
        }


def observe(state: State, seat: Seat) -> View:
    """What ``seat`` may know of ``state``.

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> observe(new_hand(Ruleset(), seed=4, banker=Seat.E), Seat.E).legal[0].kind.value
    'fa'
    """
    i = seat.number - 1
    trick = tuple(
        (SEATS[s], ALL_CARDS[c] if up or s == i else None, up) for s, c, up in state.trick
    )
    seen = [ALL_CARDS[c] for c in state.out_up] + [ALL_CARDS[c] for t in state.table for c in t]
    seen += [ALL_CARDS[c] for s, c, up in state.trick if up]
    return View(
        seat=seat,
        phase=state.phase,
        version=state.version,
        acting=acting(state),
        banker=SEATS[state.banker],
        mian=state.mian,
        trick_no=state.trick_no,
        hand=tuple(ALL_CARDS[c] for c in state.hands[i]),
        hand_sizes={s: len(state.hands[k]) for k, s in enumerate(SEATS)},
        trick=trick,
        table={s: tuple(ALL_CARDS[c] for c in state.table[k]) for k, s in enumerate(SEATS)},
        tricks_won={s: state.tricks_won[k] for k, s in enumerate(SEATS)},
        seen=tuple(sorted(seen)),
        legal=legal_actions_for(state, seat),
        result=None if state.result is None else state.result.to_json(),
    )
