"""What one seat may know: :func:`observe` is all a bot reads, a client receives, an RL
environment encodes. Never another seat's concealed tiles, never the wall's order; once the
hand is over, the settlement shows every hand, as players lay them down at a real table.

>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> view = observe(new_hand(Ruleset(), seed=4), Seat.S)
>>> len(view.hand), view.hand_sizes[Seat.E], view.legal
(16, 17, ())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.mazhan.actions import Action
from paiju.mazhan.melds import Meld
from paiju.mazhan.rules import Phase, State, acting, legal_actions_for
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.tiles import ALL_TILES, Tile

__all__ = ["View", "observe"]


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view of a hand.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> v = observe(new_hand(Ruleset(), seed=4), Seat.E)
    >>> v.my_turn, v.wall_left > 0, len(v.hand_counts)
    (True, True, 34)
    """

    seat: Seat
    phase: Phase
    version: int
    acting: tuple[Seat, ...]
    current: Seat
    wild: Tile
    indicator: Tile
    set_aside: tuple[Tile, ...]
    dice: tuple[int, int]
    wall_left: int
    dead_wall: int
    hand: tuple[Tile, ...]
    drawn: Tile | None
    melds: dict[Seat, tuple[Meld, ...]]
    bonus: dict[Seat, tuple[Tile, ...]]
    discards: dict[Seat, tuple[tuple[Tile, bool], ...]]
    hand_sizes: dict[Seat, int]
    claim_tile: Tile | None
    claim_from: Seat | None
    legal: tuple[Action, ...]
    result: dict[str, Any] | None

    @property
    def my_turn(self) -> bool:
        """True when this seat may act now.

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> observe(new_hand(Ruleset(), seed=4), Seat.N).my_turn
        False
        """
        return self.seat in self.acting

    @property
    def hand_counts(self) -> list[int]:
        """The seat's concealed tiles as 34 counts (★ counted at the wild face).

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> sum(observe(new_hand(Ruleset(), seed=4), Seat.W).hand_counts)
        16
        """
        counts = [0] * 34
        for t in self.hand:
            counts[t.index] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (what a client receives).

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> sorted(observe(new_hand(Ruleset(), seed=4), Seat.W).to_json())[:4]
        ['acting', 'bonus', 'claim_from', 'claim_tile']
        """

        def tiles(ts: tuple[Tile, ...]) -> str:
            return "".join(str(t) for t in ts)

        return {
            "seat": self.seat.value,
            "phase": self.phase.value,
            "version": self.version,
            "acting": [s.value for s in self.acting],
            "current": self.current.value,
            "wild": str(self.wild),
            "indicator": str(self.indicator),
            "set_aside": tiles(self.set_aside),
            "dice": list(self.dice),
            "wall_left": self.wall_left,
            "dead_wall": self.dead_wall,
            "hand": tiles(self.hand),
            "drawn": None if self.drawn is None else str(self.drawn),
            "melds": {s.value: [str(m) for m in ms] for s, ms in self.melds.items()},
            "bonus": {s.value: tiles(b) for s, b in self.bonus.items()},
            "discards": {
                s.value: [{"tile": str(t), "claimed": c} for t, c in ds]
                for s, ds in self.discards.items()
            },
            "hand_sizes": {s.value: n for s, n in self.hand_sizes.items()},
            "claim_tile": None if self.claim_tile is None else str(self.claim_tile),
            "claim_from": None if self.claim_from is None else self.claim_from.value,
            "legal": [str(a) for a in self.legal],
            "result": self.result,
        }


def observe(state: State, seat: Seat) -> View:
    """What ``seat`` may know of ``state``.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> observe(new_hand(Ruleset(), seed=4), Seat.E).legal[-1].kind.value
    'discard'
    """
    i = seat.number - 1
    claiming = state.phase in (Phase.CLAIM, Phase.ROB)
    result = None
    if state.result is not None:
        result = state.result.to_json()
        result["settlement"] = state.result.settlement.to_json()
        result["hands"] = {s.value: "".join(str(t) for t in state.concealed(s)) for s in SEATS}
    return View(
        seat=seat,
        phase=state.phase,
        version=state.version,
        acting=acting(state),
        current=SEATS[state.current],
        wild=state.wild_tile,
        indicator=ALL_TILES[state.indicator],
        set_aside=tuple(ALL_TILES[t] for t in state.set_aside),
        dice=state.dice,
        wall_left=state.live_tiles,
        dead_wall=state.ruleset.dead_wall,
        hand=state.concealed(seat),
        drawn=(
            ALL_TILES[state.drawn]
            if state.phase is Phase.ACT and state.current == i and state.drawn >= 0
            else None
        ),
        melds={s: tuple(state.melds[k]) for k, s in enumerate(SEATS)},
        bonus={s: tuple(ALL_TILES[b] for b in state.bonus[k]) for k, s in enumerate(SEATS)},
        discards={
            s: tuple(
                (ALL_TILES[t], c) for t, c in zip(state.discards[k], state.claimed[k], strict=True)
            )
            for k, s in enumerate(SEATS)
        },
        hand_sizes={s: sum(state.hands[k]) for k, s in enumerate(SEATS)},
        claim_tile=ALL_TILES[state.claim_tile] if claiming else None,
        claim_from=SEATS[state.claim_from] if claiming else None,
        legal=legal_actions_for(state, seat),
        result=result,
    )
