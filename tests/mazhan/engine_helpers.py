"""Build engine states by hand for rule-by-rule tests."""

from __future__ import annotations

from paiju.mazhan.actions import Action
from paiju.mazhan.melds import Meld
from paiju.mazhan.rules import Phase, Ruleset, State, apply, new_hand
from paiju.mazhan.tiles import Tile, parse_tiles


def custom_state(
    hands: dict[str, str],
    *,
    wild: str = "9s",
    current: str = "E",
    wall: str = "",
    melds: dict[str, list[str]] | None = None,
    drew: bool = True,
    dealer_discarded: bool = True,
    dead_wall: int = 0,
) -> State:
    """A state in phase ACT with the given concealed tiles, melds and wall (drawn from its
    first tile; replacements from its last)."""
    hands = _filled(hands, melds or {}, wild, wall)
    for seat, text in hands.items():
        n = len(parse_tiles(text)) + 3 * len((melds or {}).get(seat, []))
        want = 17 if seat == current else 16
        assert n == want, f"{seat} holds {n} tiles, the test means {want}"
    s = new_hand(Ruleset(dead_wall=dead_wall), seed=0).copy()
    s.ruleset = Ruleset(dead_wall=dead_wall)
    s.hands = [[0] * 34 for _ in range(4)]
    for i, seat in enumerate("ESWN"):
        for t in parse_tiles(hands.get(seat, "")):
            s.hands[i][t.index] += 1
    s.melds = [[Meld.parse(m) for m in (melds or {}).get(seat, [])] for seat in "ESWN"]
    s.bonus = [[] for _ in range(4)]
    s.discards = [[] for _ in range(4)]
    s.claimed_by = [[] for _ in range(4)]
    s.meld_src = [[(-1, -1)] * len(m) for m in s.melds]
    w = Tile.parse(wild).index
    s.wild = s.indicator = w
    s.set_aside = ()
    s.wall = tuple(t.index for t in parse_tiles(wall))
    s.head, s.tail = 0, len(s.wall)
    s.phase = Phase.ACT
    s.current = "ESWN".index(current)
    s.drew = drew
    s.drawn = -1
    s.dealer_discarded = dealer_discarded
    s.kongs = 0
    return s


def play(state: State, *actions: str) -> State:
    for text in actions:
        state, _ = apply(state, Action.parse(text))
    return state


def legal(state: State) -> list[str]:
    from paiju.mazhan.rules import legal_actions

    return [str(a) for a in legal_actions(state)]


_FILLER_ORDER = [
    "1z",
    "2z",
    "3z",
    "4z",
    "6z",
    "7z",
    "1p",
    "9p",
    "1s",
    "9s",
    "1m",
    "9m",
    "5p",
    "5s",
    "5m",
    "3p",
    "7p",
    "3s",
    "7s",
    "3m",
    "7m",
    "2p",
    "8p",
    "2s",
    "8s",
    "2m",
    "8m",
    "4p",
    "6p",
    "4s",
    "6s",
    "4m",
    "6m",
]


def _filled(
    hands: dict[str, str], melds: dict[str, list[str]], wild: str, wall: str
) -> dict[str, str]:
    """Give each seat not named 16 different tiles far from every tile the test names, so
    that they can neither claim nor win."""
    named = [t for text in hands.values() for t in parse_tiles(text)]
    named += [t for ms in melds.values() for m in ms for t in Meld.parse(m).tiles]
    named += [*parse_tiles(wall), Tile.parse(wild)]
    banned = set()
    for t in named:
        banned.add(str(t))
        if t.is_suited:
            for d in (-2, -1, 1, 2):
                r = t.rank + d
                if 1 <= r <= 9:
                    banned.add(f"{r}{t.suit.value}")
    used = {str(t): 0 for t in named}
    for t in named:
        used[str(t)] += 1
    out = dict(hands)
    for seat in "ESWN":
        if seat in out:
            continue
        picks = [f for f in _FILLER_ORDER if f not in banned and used.get(f, 0) < 4][:16]
        if len(picks) < 16:
            picks += [f for f in _FILLER_ORDER if f not in picks and used.get(f, 0) < 4][
                : 16 - len(picks)
            ]
        for f in picks:
            used[f] = used.get(f, 0) + 1
        out[seat] = "".join(picks)
    return out
