"""Mazhan as integers and arrays, for batch users (NumPy): the numbers the engine itself
keeps, so nothing is translated twice.

**Tiles** are face indices, ``uint8`` 0–41 (:class:`~paiju.mazhan.tiles.Tile` ``.index``):

| index | faces |
|---|---|
| 0–8 | 1m–9m (萬) |
| 9–17 | 1p–9p (筒) |
| 18–26 | 1s–9s (索) |
| 27–33 | 1z–7z: 東 南 西 北, 白 (31, a bonus tile, never in a hand), 發, 中 |
| 34–37 | 1h–4h, the flowers (bonus tiles) |
| 38–41 | 1j–4j, the seasons (bonus tiles) |

**Hands** are rows of 34 ``uint8`` counts by face. As the engine keeps them, the ★ are
counted at the wild face (``State.hands``); for the checks they are split: natural counts
(the wild face's count 0) and a ★ count 0–3 (:func:`split_wilds`). **Suit keys**: four
``int32`` per hand, each suit's counts read as a base-5 number, rank 1 the lowest digit
(萬 筒 索 字; :func:`paiju.fast.batch.suit_keys_batch`), the keys of the complete-hand
tables (:func:`paiju.fast.batch.is_complete_batch`).

**Actions** are codes 0–127, the action space of the environments
(:func:`paiju.env.mazhan_obs.action_index`): 0–33 discard, 34 hu, 35 shazhu, 36–69 angang,
70–103 jiagang (by face), 104 gang, 105 peng, 106–126 chi (by the chow's lowest tile,
``106 + suit * 7 + rank - 1``), 127 pass. The seat goes apart (0–3, E S W N).

**States** (:func:`encode_states`): one row per state, arrays named as the state's fields:
``hands`` ``(n, 4, 34)`` counts (★ at the wild face), ``wild`` ``(n,)`` face, ``phase``
``(n,)`` (0 act, 1 claim, 2 rob, 3 over), ``current`` (the seat to move in phase act),
``claim_from`` and ``claim_tile`` (the open window's) ``(n,)``, -1 when none;
``wall_left`` ``(n,)``, ``rivers`` ``(n, 4, 48)`` faces in discard order (-1 pads),
``claimed`` ``(n, 4, 48)`` the seat that claimed each discard (-1: none or pad), ``melds``
``(n, 4, 4, 2)`` each meld as (kind 0 chow, 1 pung, 2 kong, 3 concealed kong; face: the
chow's lowest tile), -1 pads, and ``bonus`` ``(n, 4, 42)`` counts of bonus tiles laid out.
It is the whole state, hidden tiles included: for datasets and analysis, not for a seat's
observation (the environments' encoders give those).

>>> counts, wilds = hands_to_arrays(["123m456p789s111z22z", "1m9s"], wild="9s")
>>> counts.shape, wilds.tolist(), arrays_to_hands(counts, wilds, wild="9s")[1]
((2, 34), [1, 1], '1m9s')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.mazhan.actions import Action
from paiju.mazhan.hand import HandTiles
from paiju.mazhan.melds import MeldKind
from paiju.mazhan.rules import Phase, State
from paiju.mazhan.seats import SEATS
from paiju.mazhan.tiles import ALL_TILES, Tile, format_tiles

__all__ = [
    "MAX_DISCARDS",
    "actions_to_codes",
    "arrays_to_hands",
    "codes_to_actions",
    "encode_states",
    "hands_to_arrays",
    "split_wilds",
]

#: Discard slots per seat in :func:`encode_states` (a seat discards far fewer in a hand).
MAX_DISCARDS = 48
_PHASE = {Phase.ACT: 0, Phase.CLAIM: 1, Phase.ROB: 2, Phase.OVER: 3}
_MELD = {MeldKind.CHOW: 0, MeldKind.PUNG: 1, MeldKind.KONG: 2, MeldKind.CKONG: 3}


def hands_to_arrays(
    hands: Sequence[str | Sequence[Tile]], wild: Tile | str | None = None
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Natural counts ``(n, 34)`` and ★ counts ``(n,)`` of hands given as tile strings or
    tiles, each checked (:meth:`~paiju.mazhan.hand.HandTiles.parse`).

    >>> c, w = hands_to_arrays(["11m"])
    >>> c[0, 0], w[0]
    (np.uint8(2), np.uint8(0))

    Raises :class:`~paiju.errors.NotationError` or :class:`~paiju.errors.InvalidHandError`
    naming the bad hand.
    """
    counts = np.zeros((len(hands), 34), dtype=np.uint8)
    wilds = np.zeros(len(hands), dtype=np.uint8)
    for i, hand in enumerate(hands):
        h = HandTiles.parse(hand if isinstance(hand, str) else list(hand), wild)
        counts[i] = h.counts
        wilds[i] = h.wilds
    return counts, wilds


def arrays_to_hands(
    counts: npt.ArrayLike, wilds: npt.ArrayLike, wild: Tile | str | None = None
) -> list[str]:
    """The hands of :func:`hands_to_arrays` back as tile strings (the ★ written as the wild
    face, so the strings parse back to the same arrays).

    >>> arrays_to_hands([[0] * 33 + [3]], [0])
    ['777z']

    Raises ``ValueError`` for a shape that is not ``(n, 34)`` and ``(n,)``, or ★ without a
    wild face.
    """
    c = np.asarray(counts)
    w = np.asarray(wilds)
    if c.ndim != 2 or c.shape[1] != 34 or w.shape != (c.shape[0],):
        raise ValueError(f"expected counts (n, 34) and wilds (n,), got {c.shape} and {w.shape}")
    wild_tile = Tile.parse(wild) if isinstance(wild, str) else wild
    out = []
    for row, k in zip(c.tolist(), w.tolist(), strict=True):
        tiles = [ALL_TILES[f] for f in range(34) for _ in range(row[f])]
        if k:
            if wild_tile is None:
                raise ValueError("a hand holds ★ but no wild face was given")
            tiles += [wild_tile] * k
            tiles.sort()
        out.append(format_tiles(tiles))
    return out


def split_wilds(
    hands: npt.ArrayLike, wild: npt.ArrayLike
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Engine rows (★ counted at the wild face) to natural counts and ★ counts; ``wild`` is
    one face for all rows or one per row.

    >>> h = np.zeros((1, 34), dtype=np.uint8); h[0, 5] = 2; h[0, 0] = 1
    >>> c, w = split_wilds(h, 5)
    >>> int(c[0, 5]), int(c[0, 0]), int(w[0])
    (0, 1, 2)

    Raises ``ValueError`` for rows that are not 34 counts.
    """
    h = np.array(hands, dtype=np.uint8, copy=True)
    if h.ndim != 2 or h.shape[1] != 34:
        raise ValueError(f"expected rows of 34 counts, got shape {h.shape}")
    faces = np.broadcast_to(np.asarray(wild, dtype=np.intp), (h.shape[0],))
    rows = np.arange(h.shape[0])
    wilds = h[rows, faces].copy()
    h[rows, faces] = 0
    return h, wilds


def actions_to_codes(
    actions: Sequence[Action],
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """Action codes 0–127 and seats 0–3 of a list of actions.

    >>> codes, seats = actions_to_codes([Action.parse("S chi 345p"), Action.parse("E pass")])
    >>> codes.tolist(), seats.tolist()
    ([115, 127], [1, 0])
    """
    from paiju.env.mazhan_obs import action_index

    codes = np.fromiter((action_index(a) for a in actions), dtype=np.int16, count=len(actions))
    seats = np.fromiter((a.seat.number - 1 for a in actions), dtype=np.int8, count=len(actions))
    return codes, seats


def codes_to_actions(codes: npt.ArrayLike, seats: npt.ArrayLike) -> list[Action]:
    """The actions of :func:`actions_to_codes` back.

    >>> [str(a) for a in codes_to_actions([115, 127], [1, 0])]
    ['S chi 345p', 'E pass']

    Raises ``ValueError`` for a code outside 0–127 or a seat outside 0–3.
    """
    from paiju.env.mazhan_obs import index_action

    out = []
    for code, seat in zip(np.asarray(codes).tolist(), np.asarray(seats).tolist(), strict=True):
        if not 0 <= seat < 4:
            raise ValueError(f"a seat is 0–3, got {seat}")
        out.append(index_action(code, SEATS[seat]))
    return out


def encode_states(states: Sequence[State]) -> dict[str, npt.NDArray[Any]]:
    """Whole states as arrays, one row per state (see the module docstring).

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> a = encode_states([new_hand(Ruleset(), 1), new_hand(Ruleset(), 2)])
    >>> a["hands"].shape, a["hands"][0].sum(axis=1).tolist(), a["phase"].tolist()
    ((2, 4, 34), [17, 16, 16, 16], [0, 0])

    Raises ``ValueError`` for a seat with more than :data:`MAX_DISCARDS` discards.
    """
    n = len(states)
    out: dict[str, npt.NDArray[Any]] = {
        "hands": np.zeros((n, 4, 34), dtype=np.uint8),
        "wild": np.zeros(n, dtype=np.uint8),
        "phase": np.zeros(n, dtype=np.uint8),
        "current": np.full(n, -1, dtype=np.int8),
        "claim_from": np.full(n, -1, dtype=np.int8),
        "claim_tile": np.full(n, -1, dtype=np.int8),
        "wall_left": np.zeros(n, dtype=np.uint8),
        "rivers": np.full((n, 4, MAX_DISCARDS), -1, dtype=np.int8),
        "claimed": np.full((n, 4, MAX_DISCARDS), -1, dtype=np.int8),
        "melds": np.full((n, 4, 4, 2), -1, dtype=np.int8),
        "bonus": np.zeros((n, 4, 42), dtype=np.uint8),
    }
    for i, s in enumerate(states):
        out["hands"][i] = s.hands
        out["wild"][i] = s.wild
        out["phase"][i] = _PHASE[s.phase]
        if s.phase is Phase.ACT:
            out["current"][i] = s.current
        out["claim_from"][i] = s.claim_from
        out["claim_tile"][i] = s.claim_tile
        out["wall_left"][i] = s.tail - s.head
        for k in range(4):
            river = s.discards[k]
            if len(river) > MAX_DISCARDS:
                raise ValueError(f"{len(river)} discards: at most {MAX_DISCARDS} are encoded")
            out["rivers"][i, k, : len(river)] = river
            out["claimed"][i, k, : len(river)] = s.claimed_by[k]
            for j, m in enumerate(s.melds[k]):
                out["melds"][i, k, j] = (_MELD[m.kind], m.tiles[0].index)
            for b in s.bonus[k]:
                out["bonus"][i, k, b] += 1
    return out
