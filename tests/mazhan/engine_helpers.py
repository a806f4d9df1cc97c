"""Build engine states by hand for rule-by-rule tests."""

from __future__ import annotations

from collections import Counter

from paiju.mazhan.actions import Action
from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.rules import State, apply
from paiju.mazhan.tiles import ALL_TILES, Tile, format_tiles, parse_tiles
from paiju.mazhan.wall import FULL_SET


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
    first tile; replacements from its last), built from a written position.

    Seats not named get dull tiles (:func:`_filled`); the other tiles of the 144 are put
    where they change nothing: bonus tiles set aside, ★ into dull hands (else into the middle
    of the wall, the dead wall growing as much), the rest into the rivers (East's only when
    ``dealer_discarded``). A meld came from the previous seat, whose river shows it claimed.
    ``drew`` False (a chow or pung just taken) needs the seat's last meld to be one."""
    melds = melds or {}
    named = set(hands)
    hands = _filled(hands, melds, wild, wall)
    for seat, text in hands.items():
        n = len(parse_tiles(text)) + 3 * len(melds.get(seat, []))
        want = 17 if seat == current else 16
        assert n == want, f"{seat} holds {n} tiles, the test means {want}"
    star = Tile.parse(wild)
    hand_tiles = {seat: parse_tiles(text) for seat, text in hands.items()}
    used = Counter(t for ts in hand_tiles.values() for t in ts)
    used[star] += 1  # the indicator
    meld_objs = {seat: [Meld.parse(m) for m in melds.get(seat, [])] for seat in "ESWN"}
    for ms in meld_objs.values():
        for m in ms:
            used.update(m.tiles)
    wall_tiles = parse_tiles(wall)
    used.update(wall_tiles)
    spare = Counter({ALL_TILES[f]: n for f, n in Counter(FULL_SET).items()}) - used
    aside = sorted(t for t in spare.elements() if t.is_bonus)
    stars = [t for t in spare.elements() if t == star]
    rest = sorted(t for t in spare.elements() if not t.is_bonus and t != star)
    for seat in "ESWN":  # a ★ for each dull hand, its tile to the rivers
        if seat not in named and stars and seat != current:
            tiles = hand_tiles[seat]
            rest.append(tiles.pop())
            tiles.append(stars.pop())
    middle = len(wall_tiles) // 2
    wall_tiles[middle:middle] = stars
    rivers: dict[str, list[str]] = {seat: [] for seat in "ESWN"}
    takers = "ESWN" if dealer_discarded else "SWN"
    for k, t in enumerate(rest):
        rivers[takers[k % len(takers)]].append(str(t))
    meld_text = {}
    for seat, ms in meld_objs.items():
        src = "ESWN"[("ESWN".index(seat) - 1) % 4]
        tokens = []
        for m in ms:
            claimed = m.tiles[1] if m.kind is MeldKind.CHOW else m.face
            letter = {"chow": "c", "pung": "p", "kong": "k", "ckong": "a"}[m.kind.value]
            token = letter + format_tiles(m.tiles)
            if m.kind is not MeldKind.CKONG:
                token += f"<{src}{claimed}"
                rivers[src].append(f"{claimed}>{seat}")
            tokens.append(token)
        meld_text[seat] = ",".join(tokens) or "-"
    draw = "deal" if drew else "claim"
    position = " ".join(
        [
            "mazhan v=0",
            f"act={current} draw={draw}",
            f"wild={wild} aside={''.join(map(str, aside)) or '-'} dice=1,1",
            f"dead={dead_wall + len(stars)}",
            "hands=" + "/".join(format_tiles(hand_tiles[seat]) for seat in "ESWN"),
            "melds=" + "/".join(meld_text[seat] for seat in "ESWN"),
            "bonus=-/-/-/-",
            "rivers=" + "/".join("".join(rivers[seat]) or "-" for seat in "ESWN"),
            "wall=" + ("".join(map(str, wall_tiles)) or "-"),
        ]
    )
    return State.from_position(position)


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
