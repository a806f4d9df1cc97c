"""Mazhan observations and actions for the environments (the index tables live here only).

Everything a seat may know (rules §5, "what the other seats see"), from that seat: relative
seat 0 is the seat itself, 1 the next seat (下家), 2 the opposite seat, 3 the previous seat
(上家). Never another seat's concealed tiles, the wall's order, the face of another seat's
concealed kong, or, in a claim window, which other seats may claim or have answered.

**Flat vector** (``float32``, 1264 values): counts are raw (0–4), one-hots 0/1, ``codes``
small integers; ``scores`` are net 胡 / 400.

| offset | size | name | content |
|---|---|---|---|
| 0 | 34 | `hand` | own concealed tiles by face, the drawn one included (★ at the wild face) |
| 34 | 34 | `drawn` | own tile just drawn (one-hot; in phase act after a draw) |
| 68 | 34 | `own_ckongs` | own concealed kongs by face |
| 102 | 34 | `wild` | the wild face ★ (one-hot; the indicator is its fourth copy) |
| 136 | 34 | `claim_tile` | the discard, or added kong tile, open to claims (one-hot) |
| 170 | 9 | `set_aside` | bonus tiles set aside while turning the indicator |
| 179 | 3 | `phase` | phase: act, claim (a discard), rob (an added kong) |
| 182 | 4 | `claim_from` | relative seat whose tile is open to claims (one-hot) |
| 186 | 4 | `mover` | relative seat to move in phase act (one-hot) |
| 190 | 4 | `wind` | own seat wind E S W N (one-hot) |
| 194 | 4 | `dealer` | relative seat of the dealer 莊家 (one-hot) |
| 198 | 1 | `wall` | tiles left in the wall (the dead wall included) |
| 199 | 1 | `dead_wall` | tiles a normal draw never takes (ruleset, 11) |
| 200 | 4 | `scores` | match score of each relative seat before this hand / 400 |
| 204 | 1 | `stake` | stake 底注 (1 in simulation) |
| 205 | 1 | `hand_no` | hands played before this one in the match |
| 206 | 1 | `hands_left` | hands left in the match after this one |
| 207 | 1 | `repeat` | hands the dealer has kept the deal in a row (連莊) |
| 208 | 21 | `s0_chows` | relative seat 0: chows by lowest tile |
| 229 | 34 | `s0_pungs` | relative seat 0: exposed pungs by face |
| 263 | 34 | `s0_kongs` | relative seat 0: exposed kongs by face |
| 297 | 1 | `s0_ckongs` | relative seat 0: concealed kongs (face down) |
| 298 | 9 | `s0_bonus` | relative seat 0: bonus tiles laid out |
| 307 | 34 | `s0_river` | relative seat 0: its discards not claimed, by face |
| 341 | 34 | `s0_claimed` | relative seat 0: its discards claimed, by face |
| 375 | 48 | `s0_seq` | relative seat 0: discards in order |
| 423 | 48 | `s0_seq_by` | relative seat 0: who claimed each |
| 471 | 1 | `s0_size` | relative seat 0: concealed tiles, 16 − 3 × melds (no +1 for the mover) |

The ``s{r}_*`` block repeats for relative seats ``r`` = 1, 2, 3 after the ``s0_*`` one (264
values each: ``s{r}_x`` lies at the offset of ``s0_x`` + 264 × ``r``; ``docs/env.md`` lists
them all).
``bonus`` holds the eight flowers and seasons (``1h``–``4h``, ``1j``–``4j``, 0/1) and the
number of white dragons (``5z``, 0–4). ``chows`` counts chows by their lowest tile: 萬
``1m``–``7m``, then 筒, then 索. ``seq`` lists the seat's discards in the order played (face
index + 1, 0 for an empty slot); ``seq_by`` says, for each, who claimed it: 0 nobody, 1 the
discarder's next seat, 2 the opposite seat, 3 the previous seat (a discard won on counts as
claimed by the winner). Another seat's concealed kong counts in ``ckongs`` with no face;
one's own are in ``own_ckongs`` too.

**Planes** (``float32``, ``[75, 34, 4]``): each ``set`` section above is one channel, a
thermometer over the four copies of each face (``[c, f, k]`` = 1 when the count of face ``f``
is more than ``k``; bonus tiles sit at columns ``1m``–``8m`` for ``1h``…``4j`` and at ``5z``
for the whites; chows at their lowest tile); each scalar is a constant channel; the last 8
channels are each seat's discards in order: ``[f, k]`` holds (position + 1) / 48 of the
``k``-th copy of face ``f`` it discarded, then who claimed it / 3.

Actions (``Discrete(128)``):

| index | action |
|---|---|
| 0–33 | ``discard`` face 0–33 (1m … 9m, 1p … 9p, 1s … 9s, 1z … 7z) |
| 34 | ``hu`` |
| 35 | ``shazhu`` |
| 36–69 | ``angang`` face 0–33 |
| 70–103 | ``jiagang`` face 0–33 |
| 104 | ``gang`` (on a discard) |
| 105 | ``peng`` |
| 106–126 | ``chi``: 7 chows of 萬 (lowest 1m … 7m), then 筒, then 索 |
| 127 | ``pass`` |

>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> enc = MazhanEncoder()
>>> state = new_hand(Ruleset(), seed=1)
>>> enc.reset(state)
>>> obs = enc.encode(state, 1)
>>> obs.shape, int(obs[enc.layout["hand"].offset:][:34].sum())
((1264,), 16)
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.env.layout import Layout, Planes, Ring, cells, seat_index
from paiju.env.registry import register_env
from paiju.mazhan import rules as _rules
from paiju.mazhan.actions import Action
from paiju.mazhan.melds import MeldKind
from paiju.mazhan.rules import Event, Phase, State, legal_actions_for
from paiju.mazhan.seats import SEATS

__all__ = [
    "ACTIONS",
    "MAX_DISCARDS",
    "MazhanEncoder",
    "action_index",
    "index_action",
    "legal_indices",
]

#: Discard slots per seat in ``seq`` (a seat discards at most about 40 times in a hand).
MAX_DISCARDS = 48
N_ACTIONS = 128
_WHITE = 31

# by the kind's value (a plain string: faster to look up than the enum member)
_KIND_BASE = {
    "discard": 0,
    "hu": 34,
    "shazhu": 35,
    "angang": 36,
    "jiagang": 70,
    "gang": 104,
    "peng": 105,
    "pass": 127,
}


def action_index(action: Action) -> int:
    """The index of an action in ``Discrete(128)``.

    >>> action_index(Action.parse("S chi 345p")), action_index(Action.parse("E discard 7z"))
    (115, 33)
    """
    known = _INTERNED.get(id(action))
    if known is not None:  # one of the engine's interned actions: every legal action is
        return known
    kind = action.kind._value_
    tile = action.tile
    if tile is None:
        return _KIND_BASE[kind]
    t = tile.index
    if kind == "chi":
        return 106 + (t // 9) * 7 + t % 9
    return _KIND_BASE[kind] + t


def _interned_actions() -> list[Action]:
    """Every action the engine interns (its legal actions are these objects)."""
    from paiju.mazhan import rules

    tables = (rules._A_DISCARD, rules._A_ANGANG, rules._A_JIAGANG, rules._A_CHI)
    singles = (rules._A_HU, rules._A_SHAZHU, rules._A_GANG, rules._A_PENG, rules._A_PASS)
    out = [a for table in tables for row in table for a in row if a is not None]
    out += [a for actions in singles for a in actions]
    return out


def _interned() -> dict[int, int]:
    """The index of each action the engine interns, by ``id``: those objects live as long
    as the engine, so no other object can take their ``id``."""
    _INTERNED.clear()
    return {id(a): action_index(a) for a in _interned_actions()}


_INTERNED: dict[int, int] = {}


def index_action(index: int, seat: Any) -> Action:
    """The action of ``seat`` with this index (the inverse of :func:`action_index`): the
    engine's own object (``ACTIONS[seat][index]``).

    >>> from paiju.mazhan.seats import Seat
    >>> str(index_action(115, Seat.S)), str(index_action(127, Seat.N))
    ('S chi 345p', 'N pass')

    >>> str(index_action(5, "E"))
    'E discard 6m'

    ``seat`` is the engine's seat or its letter, ``"E"``, ``"S"``, ``"W"`` or ``"N"`` (what
    the Gymnasium environment's ``seat`` gives). Raises ``ValueError`` for an index outside
    0–127 or an unknown seat letter, ``TypeError`` for a seat that is neither.
    """
    if not 0 <= index < N_ACTIONS:
        raise ValueError(f"a Mazhan action index is 0–127, got {index}")
    row: tuple[Action, ...] = ACTIONS[seat_index(seat)]
    return row[index]


def _parse_index(index: int, seat: Any) -> Action:
    """The action with this index, from its notation (what :data:`ACTIONS` is checked by)."""
    v = seat.value
    if index < 34:
        return Action.parse(f"{v} discard {_tile(index)}")
    if 36 <= index < 70:
        return Action.parse(f"{v} angang {_tile(index - 36)}")
    if 70 <= index < 104:
        return Action.parse(f"{v} jiagang {_tile(index - 70)}")
    if 106 <= index < 127:
        c = index - 106
        r = c % 7 + 1
        return Action.parse(f"{v} chi {r}{r + 1}{r + 2}{'mps'[c // 7]}")
    kind = {34: "hu", 35: "shazhu", 104: "gang", 105: "peng", 127: "pass"}[index]
    return Action.parse(f"{v} {kind}")


def _actions() -> tuple[tuple[Action, ...], ...]:
    """``[seat][index]``: the engine's interned action with that index (every index has
    one), so that an action played by index is found by identity in the engine's legal set."""

    rows = [[_parse_index(i, seat) for i in range(N_ACTIONS)] for seat in SEATS]
    for a in _interned_actions():
        row = rows[a.seat.number - 1]
        i = action_index(a)
        if row[i] != a:
            raise AssertionError(f"index {i}: {a} is not {row[i]}")
        row[i] = a
    return tuple(tuple(row) for row in rows)


def legal_indices(state: State, seat: Any) -> list[int]:
    """The indices of ``seat``'s legal actions, in the engine's order: one engine call
    (which also leaves the engine's cache that :func:`~paiju.mazhan.rules.apply` checks
    against); its interned actions are indexed by identity.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.seats import Seat
    >>> s = new_hand(Ruleset(), seed=2)
    >>> legal_indices(s, Seat.E) == [action_index(a) for a in legal_actions_for(s, Seat.E)]
    True
    >>> legal_indices(s, Seat.S)
    []
    """
    legal = legal_actions_for(state, seat)
    try:
        return list(map(_INTERNED.__getitem__, map(id, legal)))
    except KeyError:  # an action the engine did not intern
        return [action_index(a) for a in legal]


def _tile(face: int) -> str:
    from paiju.mazhan.tiles import ALL_TILES

    return str(ALL_TILES[face])


def _claimed(state: Any, s: int) -> list[bool]:
    """Whether each of seat ``s``'s discards was claimed (``claimed`` flags, or the
    ``claimed_by`` seats of the views-format-2 engine)."""
    flags = getattr(state, "claimed", None)
    if flags is not None:
        return list(flags[s])
    return [c >= 0 for c in state.claimed_by[s]]


def _seat(event: Event) -> int:
    """The event's seat as 0–3 (E S W N)."""
    return -1 if event.seat is None else event.seat.number - 1


def _bonus_slot(tile: int) -> int:
    """0–7 for flowers and seasons (face 34–41), 8 for a white dragon."""
    return 8 if tile == _WHITE else tile - 34


def _layout() -> Layout:
    lay = Layout()
    lay.add(
        "hand",
        34,
        "set",
        "own concealed tiles by face, the drawn one included (★ at the wild face)",
    )
    lay.add("drawn", 34, "set", "own tile just drawn (one-hot; in phase act after a draw)")
    lay.add("own_ckongs", 34, "set", "own concealed kongs by face")
    lay.add("wild", 34, "set", "the wild face ★ (one-hot; the indicator is its fourth copy)")
    lay.add("claim_tile", 34, "set", "the discard, or added kong tile, open to claims (one-hot)")
    lay.add("set_aside", 9, "set", "bonus tiles set aside while turning the indicator")
    lay.add("phase", 3, "scalar", "phase: act, claim (a discard), rob (an added kong)")
    lay.add("claim_from", 4, "scalar", "relative seat whose tile is open to claims (one-hot)")
    lay.add("mover", 4, "scalar", "relative seat to move in phase act (one-hot)")
    lay.add("wind", 4, "scalar", "own seat wind E S W N (one-hot)")
    lay.add("dealer", 4, "scalar", "relative seat of the dealer 莊家 (one-hot)")
    lay.add("wall", 1, "scalar", "tiles left in the wall (the dead wall included)")
    lay.add("dead_wall", 1, "scalar", "tiles a normal draw never takes (ruleset, 11)")
    lay.add_context(
        "match score of each relative seat before this hand / 400",
        "stake 底注 (1 in simulation)",
        "hands the dealer has kept the deal in a row (連莊)",
    )
    lay.add_seats(
        [
            ("chows", 21, "set", "chows by lowest tile"),
            ("pungs", 34, "set", "exposed pungs by face"),
            ("kongs", 34, "set", "exposed kongs by face"),
            ("ckongs", 1, "scalar", "concealed kongs (face down)"),
            ("bonus", 9, "set", "bonus tiles laid out"),
            ("river", 34, "set", "its discards not claimed, by face"),
            ("claimed", 34, "set", "its discards claimed, by face"),
            ("seq", MAX_DISCARDS, "codes", "discards in order"),
            ("seq_by", MAX_DISCARDS, "codes", "who claimed each"),
            ("size", 1, "scalar", "concealed tiles, 16 − 3 × melds (no +1 for the mover)"),
        ]
    )
    return lay


LAYOUT = _layout()
_INTERNED.update(_interned())
#: ``ACTIONS[seat][index]``: the action of that seat with that index (the engine's own
#: objects: :func:`paiju.mazhan.rules.apply` finds them by identity).
ACTIONS = _actions()
_B = LAYOUT["s1_chows"].offset - LAYOUT["s0_chows"].offset
_S0 = LAYOUT["s0_chows"].offset
# offsets inside a seat block
_CHOW = 0
_PUNG = LAYOUT["s0_pungs"].offset - _S0
_KONG = LAYOUT["s0_kongs"].offset - _S0
_CK = LAYOUT["s0_ckongs"].offset - _S0
_BON = LAYOUT["s0_bonus"].offset - _S0
_RIV = LAYOUT["s0_river"].offset - _S0
_CLM = LAYOUT["s0_claimed"].offset - _S0
_SEQ = LAYOUT["s0_seq"].offset - _S0
_SEQBY = LAYOUT["s0_seq_by"].offset - _S0
_SIZE = LAYOUT["s0_size"].offset - _S0

_O = {s.name: s.offset for s in LAYOUT.sections}
_HAND, _DRAWN, _OWNCK = _O["hand"], _O["drawn"], _O["own_ckongs"]
_WILD, _CTILE, _ASIDE = _O["wild"], _O["claim_tile"], _O["set_aside"]
_PHASE, _CFROM, _MOVER = _O["phase"], _O["claim_from"], _O["mover"]
_WIND, _DEALER, _WALL, _DEAD = _O["wind"], _O["dealer"], _O["wall"], _O["dead_wall"]
_SCORES, _STAKE, _HANDNO, _LEFT, _REPEAT = (
    _O["scores"],
    _O["stake"],
    _O["hand_no"],
    _O["hands_left"],
    _O["repeat"],
)
_PHASES = {Phase.ACT: 0, Phase.CLAIM: 1, Phase.ROB: 2}
#: For each observer, (relative seat, seat) round the table.
_ROUND = [[(r, (me + r) & 3) for r in range(4)] for me in range(4)]
_CLAIMS = frozenset({"chi", "peng", "gang"})


def _face_offsets(section_offset: int, kind: str) -> list[int]:
    """Flat offsets of the 34 faces of a set section (-1 where the face has no value)."""
    if kind == "bonus":
        out = [-1] * 34
        for k in range(8):
            out[k] = section_offset + k
        out[_WHITE] = section_offset + 8
        return out
    if kind == "chows":
        out = [-1] * 34
        for c in range(21):
            out[(c // 7) * 9 + c % 7] = section_offset + c
        return out
    return list(range(section_offset, section_offset + 34))


def _planes() -> Planes:
    sets: list[list[int]] = []
    scalars: list[int] = []
    for s in LAYOUT.sections:
        if s.kind == "set":
            kind = "bonus" if s.size == 9 else "chows" if s.size == 21 else "faces"
            sets.append(_face_offsets(s.offset, kind))
        elif s.kind == "scalar":
            scalars.extend(range(s.offset, s.stop))
    return Planes((34, 4), None, sets, scalars, extra=8)


FLAT_SIZE = LAYOUT.size
PLANES = _planes()


def _scale() -> npt.NDArray[np.float32]:
    """Divisors that bring every value of the flat vector to about [0, 1] (for learners)."""
    out = np.ones(FLAT_SIZE, dtype=np.float32)
    tops = {"wall": 80.0, "dead_wall": 11.0, "hand_no": 16.0, "hands_left": 16.0, "repeat": 4.0}
    for s in LAYOUT.sections:
        name = s.name.split("_", 1)[1] if s.name[0] == "s" and s.name[1].isdigit() else s.name
        if s.kind == "set":
            top = 4.0
        elif name == "seq":
            top = 34.0
        elif name == "seq_by":
            top = 3.0
        elif name == "size":
            top = 17.0
        elif name == "ckongs":
            top = 4.0
        else:
            top = tops.get(name, 1.0)
        out[s.offset : s.stop] = top
    return out


#: Per value, a divisor that brings the flat vector to about [0, 1]: ``obs / SCALE``.
SCALE = _scale()


_STRIP_END = _MOVER + 4
if (_CFROM, _MOVER) != (_PHASE + 3, _PHASE + 7):
    raise AssertionError("phase, claim_from and mover must lie together")


def _strips() -> tuple[Any, ...]:
    """The phase, claim-from and mover cells (11 values from ``phase``) for each case:
    ``[r]`` phase act with the mover at relative seat ``r``, ``[4 * p + r]`` a claim window
    (``p`` 1 claim, 2 rob) on a tile from relative seat ``r``, ``[12]`` none (the hand is
    over)."""
    rows = np.zeros((13, _STRIP_END - _PHASE), dtype=np.float32)
    for r in range(4):
        rows[r, 0] = rows[r, _MOVER - _PHASE + r] = 1.0
        for p in (1, 2):
            rows[4 * p + r, p] = rows[4 * p + r, _CFROM - _PHASE + r] = 1.0
    return tuple(cells(row) for row in rows)


_STRIPS = _strips()
_NO_STRIP = 12

_F = FLAT_SIZE
_FLAT_SHAPE = (_F,)


class MazhanEncoder(Ring):
    """Observations of one hand for every seat, kept up to date from the engine's events.

    The public part of each seat (melds, bonus tiles, discards) is a block of a ring of four
    (:class:`~paiju.env.layout.Ring`). :meth:`update` changes a few values of one or two
    seats' blocks (a discard: four) through memoryviews (a Python store each, no NumPy call).
    Each observer keeps its own part (the values before the blocks): its tiles, written as
    they change; the values fixed for the hand (wild, seat wind, dealer, set-aside tiles),
    written once per hand; and the few values that move every step, written by
    :meth:`encode`, which then assembles the observation (three ``memcpy``). :meth:`reset` reads any
    state (tests start anywhere); after :meth:`update` the observations equal those of a
    :meth:`reset` at the same state (a test checks it).

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> enc = MazhanEncoder(planes=True)
    >>> s = new_hand(Ruleset(), seed=2); enc.reset(s)
    >>> enc.encode(s, 0).shape
    (75, 34, 4)
    """

    n_actions = N_ACTIONS
    layout = LAYOUT

    def __init__(self, planes: bool = False) -> None:
        self.planes = planes
        self.shape: tuple[int, ...] = (PLANES.channels, 34, 4) if planes else (FLAT_SIZE,)
        super().__init__(_B, _F, _S0)
        self._hand_dirty = 0  # bit ``me``: re-read seat me's hand (an int: no list to keep)
        self._context = np.zeros(8, dtype=np.float32)
        self._context[4] = 1.0

    def set_context(
        self, scores: Sequence[float], hand_no: int, hands_left: int, repeat: int
    ) -> None:
        """The match around the hand: each seat's score (E S W N, already scaled), the hand
        number, the hands left and the dealer's repeats.

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> enc = MazhanEncoder(); s = new_hand(Ruleset(), seed=2); enc.reset(s)
        >>> enc.set_context([1.0, 0.0, -0.5, -0.5], 3, 1, 2)
        >>> enc.encode(s, 1)[_SCORES:_SCORES + 8].tolist()
        [0.0, -0.5, -0.5, 1.0, 1.0, 3.0, 1.0, 2.0]
        """
        self._context[:4] = scores
        self._context[5:8] = (hand_no, hands_left, repeat)
        self._ctx_ver += 1

    # --- keeping the public blocks --------------------------------------------------------

    def reset(self, state: State, claimers: Sequence[Sequence[int]] | None = None) -> None:
        """Read every seat's public tiles from ``state``. ``claimers[s][k]`` is the seat
        (0–3) that claimed seat ``s``'s ``k``-th discard, or -1; without it (and without a
        ``claimed_by`` field in the state, as the views-format-2 engine keeps), claimed
        discards count as claimed by nobody in particular (:meth:`update` sees who claims).

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> enc = MazhanEncoder(); enc.reset(new_hand(Ruleset(), seed=2))
        >>> [float(enc._ring[s, _SIZE]) for s in range(4)]
        [16.0, 16.0, 16.0, 16.0]
        """
        if claimers is None:
            claimers = getattr(state, "claimed_by", None)
        self._ring.fill(0.0)
        for s in range(4):
            known = list(claimers[s]) if claimers is not None else []
            codes = []
            for k, claimed in enumerate(_claimed(state, s)):
                who = known[k] if k < len(known) else -1
                codes.append((who - s) % 4 if claimed and who >= 0 else 0)
            self._rebuild(state, s, codes)
        self._heads.fill(0.0)
        bm = self._hm
        for me in range(4):
            base = me * _S0
            bm[base + _WILD + state.wild] = 1.0
            for t in state.set_aside:
                bm[base + _ASIDE + _bonus_slot(t)] += 1.0
            bm[base + _WIND + me] = 1.0
            bm[base + _DEALER + (-me) % 4] = 1.0
            bm[base + _DEAD] = state.ruleset.dead_wall
            for f, n in enumerate(state.hands[me]):
                if n:
                    bm[base + _HAND + f] = n
            for m in state.melds[me]:
                # a seat's own concealed kongs; one built from another seat's view (a policy
                # bot's) holds the others' face down, without tiles, and has no use for them
                if m.kind is MeldKind.CKONG and m.tiles is not None:
                    bm[base + _OWNCK + m.tiles[0].index] = 1.0
        self._hand_dirty = 0
        self._ctx_seen = [-1] * 4

    def _rebuild(self, state: State, s: int, codes: list[int]) -> None:
        """Write seat ``s``'s block (into a ring of zeros); ``codes``: who claimed each of
        its discards, relative to it (0 nobody)."""
        add = self._add
        melds = state.melds[s]
        for m in melds:
            kind = m.kind
            if kind is MeldKind.CKONG:  # face down to the others (its tiles may be unknown)
                add(s, _CK, 1.0)
                continue
            f = m.tiles[0].index
            if kind is MeldKind.CHOW:
                add(s, _CHOW + (f // 9) * 7 + f % 9, 1.0)
            elif kind is MeldKind.PUNG:
                add(s, _PUNG + f, 1.0)
            else:
                add(s, _KONG + f, 1.0)
        for t in state.bonus[s]:
            add(s, _BON + _bonus_slot(t), 1.0)
        ds = state.discards[s][:MAX_DISCARDS]
        for k, (t, c) in enumerate(zip(ds, _claimed(state, s), strict=False)):
            add(s, (_CLM if c else _RIV) + t, 1.0)
            add(s, _SEQ + k, t + 1.0)
            add(s, _SEQBY + k, codes[k])
        add(s, _SIZE, 16.0 - 3 * len(melds))

    def _add(self, s: int, k: int, v: float) -> None:
        """Add ``v`` to value ``k`` of seat ``s``'s block (both copies)."""
        rm = self._rm
        o = s * _B + k
        rm[o] = rm[o] + v

    def update(self, before: State, state: State, events: Sequence[Event]) -> None:
        """Apply one step's events (``before`` is the state the step started from): each
        changes a few numbers of one or two seats' blocks.

        >>> from paiju.mazhan.rules import Ruleset, new_hand, apply, legal_actions
        >>> enc = MazhanEncoder(); s0 = new_hand(Ruleset(), seed=2); enc.reset(s0)
        >>> a = next(a for a in legal_actions(s0) if a.kind.value == "discard")
        >>> s1, ev = apply(s0, a); enc.update(s0, s1, ev)
        >>> int(enc._ring[0][_SEQ]) == a.tile.index + 1
        True
        """
        bm = self._hm
        rm = self._rm
        for e in events:
            kind = e.kind
            if kind == "draw":  # private: the drawer's own hand (its count after the step)
                seat = e.seat.number - 1  # type: ignore[union-attr]
                t = e.tiles[0].index
                bm[seat * _S0 + _HAND + t] = state.hands[seat][t]
            elif kind == "discard":
                seat = e.seat.number - 1  # type: ignore[union-attr]
                t = e.tiles[0].index
                bm[seat * _S0 + _HAND + t] = state.hands[seat][t]
                o = seat * _B + _RIV + t
                rm[o] = rm[o] + 1.0
                n = len(state.discards[seat])
                if n <= MAX_DISCARDS:
                    rm[seat * _B + _SEQ + n - 1] = t + 1
            elif kind == "decision":  # a claim window answer: nothing public yet
                continue
            elif kind in _CLAIMS or (kind == "hu" and e.detail == "discard"):
                c = e.seat.number - 1  # type: ignore[union-attr]
                if kind == "hu":
                    d = state.result.discarder.number - 1  # type: ignore[union-attr]
                else:
                    d = before.claim_from
                    hand = state.hands[c]
                    for tile in e.tiles:  # the meld's natural tiles left the claimer's hand
                        bm[c * _S0 + _HAND + tile.index] = hand[tile.index]
                    self._meld(c, kind, e.tiles[0].index)
                t = state.discards[d][-1]
                self._add(d, _RIV + t, -1.0)
                self._add(d, _CLM + t, 1.0)
                n = len(state.discards[d])
                if n <= MAX_DISCARDS:
                    rm[d * _B + _SEQBY + n - 1] = (c - d) & 3
            elif kind == "angang":
                seat = e.seat.number - 1  # type: ignore[union-attr]
                t = e.tiles[0].index
                bm[seat * _S0 + _HAND + t] = state.hands[seat][t]
                bm[seat * _S0 + _OWNCK + t] = 1.0
                self._meld(seat, "angang", t)
            elif kind == "bonus":
                seat = e.seat.number - 1  # type: ignore[union-attr]
                self._add(seat, _BON + _bonus_slot(e.tiles[0].index), 1.0)
            elif kind == "jiagang" and state.phase is not Phase.ROB:  # no one may rob it
                seat = e.seat.number - 1  # type: ignore[union-attr]
                t = e.tiles[0].index
                bm[seat * _S0 + _HAND + t] = state.hands[seat][t]
                self._meld(seat, "jiagang", t)
            elif kind == "hu":
                self._hand_dirty |= 1 << (e.seat.number - 1)  # type: ignore[union-attr]
        if before.phase is Phase.ROB:  # the window on an added kong closed
            seat = before.claim_from
            self._hand_dirty |= 1 << seat
            result = state.result
            robbed = result is not None and result.discarder is not None
            if not robbed:
                self._meld(seat, "jiagang", before.claim_tile)

    def _meld(self, seat: int, kind: str, f: int) -> None:
        """A meld laid down by ``seat`` (``f``: its face, or a chow's lowest tile)."""
        if kind == "chi":
            self._add(seat, _CHOW + (f // 9) * 7 + f % 9, 1.0)
        elif kind == "peng":
            self._add(seat, _PUNG + f, 1.0)
        elif kind == "gang":
            self._add(seat, _KONG + f, 1.0)
        elif kind == "angang":
            self._add(seat, _CK, 1.0)
        else:  # jiagang: the pung becomes a kong (no new meld, no change of size)
            self._add(seat, _PUNG + f, -1.0)
            self._add(seat, _KONG + f, 1.0)
            return
        self._add(seat, _SIZE, -3.0)

    # --- one seat's observation ----------------------------------------------------------

    def _write_context(self, me: int) -> None:
        """The match context into ``me``'s head (scores from its seat round the table)."""
        ctx = self._context.tolist()
        base = me * _S0
        bm = self._hm
        for r in range(4):
            bm[base + _SCORES + r] = ctx[(me + r) & 3]
        for k in range(4):
            bm[base + _STAKE + k] = ctx[4 + k]
        self._ctx_seen[me] = self._ctx_ver

    def encode(
        self,
        state: State,
        me: int,
        out: npt.NDArray[np.float32] | None = None,
    ) -> npt.NDArray[np.float32]:
        """Seat ``me``'s (0–3: E S W N) observation.

        Flat: written whole into ``out`` when given (a new observation), else into the
        seat's own buffer, valid until the next call for that seat (copy it to keep it).
        Planes: a new array (or ``out``). In a claim window every seat sees the window
        (phase, tile, from whom), as a player at a real table sees the pause and the tile
        (``docs/views.md``): that someone may claim, never who (the seats with no decision
        have an all-zero action mask).

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> enc = MazhanEncoder(); s = new_hand(Ruleset(), seed=3); enc.reset(s)
        >>> o = enc.encode(s, 0)
        >>> int(o[_DRAWN:_DRAWN + 34].sum()), float(o[_PHASE]), float(o[_WIND])
        (0, 1.0, 1.0)
        """
        if self._ctx_seen[me] != self._ctx_ver:
            self._write_context(me)
        if self._hand_dirty >> me & 1:
            bm = self._hm
            base = me * _S0
            for f, n in enumerate(state.hands[me]):
                bm[base + _HAND + f] = n
            self._hand_dirty &= ~(1 << me)
        if out is None or self.planes:
            flat, m = self._assemble(me, None)
        else:  # _assemble inlined: the environments' hot path (a new array every step)
            if out.shape != _FLAT_SHAPE or out.dtype != np.float32:
                raise ValueError(f"out must be a float32 array of shape ({_F},)")
            flat = out
            m = out.data
            tail, front = self._runs[me]
            cut = _F - me * _B
            m[:_S0] = self._hm[me * _S0 : me * _S0 + _S0]
            m[_S0:cut] = tail
            if front is not None:
                m[cut:] = front
        # the values that move every step, written into the observation only
        phase = state.phase
        if phase is Phase.ACT:
            cur = state.current
            m[_PHASE:_STRIP_END] = _STRIPS[(cur - me) & 3]
            if cur == me and state.drawn >= 0:
                m[_DRAWN + state.drawn] = 1.0
        elif phase is Phase.OVER:
            m[_PHASE:_STRIP_END] = _STRIPS[_NO_STRIP]
        else:
            strip = (4 if phase is Phase.CLAIM else 8) + ((state.claim_from - me) & 3)
            m[_PHASE:_STRIP_END] = _STRIPS[strip]
            m[_CTILE + state.claim_tile] = 1.0
        m[_WALL] = state.tail - state.head
        if self.planes:
            planes = PLANES.render(flat, out)
            self._draw_sequences(planes, self._ring, me)
            return planes
        return flat

    @staticmethod
    def _draw_sequences(
        planes: npt.NDArray[np.float32], ring: npt.NDArray[np.float32], me: int
    ) -> None:
        base = PLANES.extra_start
        planes[base:] = 0.0
        for r in range(4):
            block = ring[(me + r) & 3]  # relative seat r's
            seq = block[_SEQ : _SEQ + MAX_DISCARDS]
            by = block[_SEQBY : _SEQBY + MAX_DISCARDS]
            copies = [0] * 34
            for k in range(MAX_DISCARDS):
                t = int(seq[k]) - 1
                if t < 0:
                    break
                c = copies[t]
                copies[t] = c + 1
                planes[base + 2 * r, t, c] = (k + 1) / MAX_DISCARDS
                planes[base + 2 * r + 1, t, c] = by[k] / 3.0


#: Values :func:`hints` appends to the flat vector when an environment has ``hints=True``.
N_HINTS = 35 + N_ACTIONS


def hints(state: State, me: int, legal: Sequence[int] = ()) -> npt.NDArray[np.float32]:
    """Hints for seat ``me`` from what it alone knows (its tiles and its options): 163
    values. ``[f]`` for each face 0–33: the shanten after discarding one ``f``, plus 2 (1 is
    a complete hand; 0 where ``f`` cannot be discarded now); ``[34]``: the hand's shanten
    as it stands, plus 2 (★ counted; shanten −1 is complete); ``[35 + i]``: 1 when action
    ``i`` is legal now (``legal``: the indices), so that a network sees, for instance, that
    it may win.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> h = hints(new_hand(Ruleset(), seed=1), 0, [3, 34])
    >>> h.shape, int((h[:34] > 0).sum()) > 0, 1 <= float(h[34]) <= 10, float(h[35 + 34])
    ((163,), True, True, 1.0)
    """
    from paiju.mazhan.shanten import shanten

    out = np.zeros(N_HINTS, dtype=np.float32)
    counts = list(state.hands[me])
    wild = state.wild
    wilds = counts[wild]
    counts[wild] = 0
    melds = len(state.melds[me])
    out[34] = shanten(counts, melds, wilds) + 2
    if state.phase is Phase.ACT and state.current == me:
        for f in range(34):
            if counts[f]:
                counts[f] -= 1
                out[f] = shanten(counts, melds, wilds) + 2
                counts[f] += 1
    for i in legal:
        out[35 + i] = 1.0
    return out


def _view_state(view: Any) -> Any:
    """The fields the Mazhan encoder reads, from a view (another seat's tiles unknown).

    Reads both view formats: format 2 (``table_melds``, ``discards`` with who claimed,
    ``turn``, ``window``) and the earlier one (``melds``, claimed flags, ``current``,
    ``claim_tile``/``claim_from``).
    """
    me = view.seat.number - 1
    seats = list(view.bonus)
    counts = [0] * 34
    for t in view.hand:
        counts[t.index] += 1
    fmt2 = hasattr(view, "table_melds")
    melds = view.table_melds if fmt2 else view.melds
    extra: dict[str, Any] = {}
    if fmt2:
        extra["claimed_by"] = [
            [-1 if by is None else by.number - 1 for _t, by in view.discards[s]] for s in seats
        ]
        window = view.window
        current = me if view.turn is None else view.turn.number - 1
        claim_tile = -1 if window is None else window.tile.index
        claim_from = -1 if window is None else window.source.number - 1
    else:
        extra["claimed"] = [[c for _t, c in view.discards[s]] for s in seats]
        current = view.current.number - 1
        claim_tile = -1 if view.claim_tile is None else view.claim_tile.index
        claim_from = -1 if view.claim_from is None else view.claim_from.number - 1
    return SimpleNamespace(
        hands=[counts if k == me else [0] * 34 for k in range(4)],
        melds=[list(melds[s]) for s in seats],
        bonus=[[t.index for t in view.bonus[s]] for s in seats],
        discards=[[t.index for t, _c in view.discards[s]] for s in seats],
        set_aside=tuple(t.index for t in view.set_aside),
        wild=view.wild.index,
        ruleset=SimpleNamespace(dead_wall=view.dead_wall),
        phase=view.phase,
        current=current,
        drawn=-1 if view.drawn is None else view.drawn.index,
        claim_tile=claim_tile,
        claim_from=claim_from,
        head=0,
        tail=view.wall_left,
        **extra,
    )


def state_of_view(view: Any, encoder: MazhanEncoder) -> Any:
    """What the encoder reads, from a seat's view (another seat's tiles unknown); the encoder
    reset on it (a policy playing from views)."""
    state = _view_state(view)
    encoder.reset(state)
    return state


def unseen(state: State) -> npt.NDArray[np.float32]:
    """The tiles left in the wall, by face (42 values)."""
    out = np.zeros(42, dtype=np.float32)
    for t in state.wall[state.head : state.tail]:
        out[t] += 1
    return out


def potential(state: State, me: int) -> float:
    """How far seat ``me`` is from a complete hand: −shanten (★ counted; 1 when complete).

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> potential(new_hand(Ruleset(), seed=3), 0) < 0
    True
    """
    from paiju.mazhan.shanten import shanten

    counts = list(state.hands[me])
    wilds = counts[state.wild]
    counts[state.wild] = 0
    return -float(shanten(counts, len(state.melds[me]), wilds))


def _lookahead(state: State, me: int) -> npt.NDArray[np.float32]:
    from paiju.mazhan.env.lookahead import lookahead_of_state  # it imports this module

    return lookahead_of_state(state, me)


def _lookahead_of_view(view: Any) -> npt.NDArray[np.float32]:
    from paiju.mazhan.env.lookahead import lookahead

    return lookahead(view)


def _hints_scale() -> npt.NDArray[np.float32]:
    tops = np.ones(N_HINTS, dtype=np.float32)
    tops[:35] = 10.0  # shanten + 2; the legal actions are 0/1
    return tops


register_env(
    "mazhan",
    encoder=MazhanEncoder,
    action_index=action_index,
    index_action=index_action,
    n_actions=N_ACTIONS,
    net_scale=400.0,
    engine=_rules,
    legal_indices=legal_indices,
    actions=ACTIONS,
    scale=SCALE,
    n_unseen=42,
    unseen=unseen,
    state_of_view=state_of_view,
    default_opponent="greedy",
    hints=hints,
    n_hints=N_HINTS,
    hints_scale=_hints_scale(),
    lookahead=_lookahead,
    lookahead_of_view=_lookahead_of_view,
    n_lookahead=6 * N_ACTIONS,  # paiju.mazhan.env.lookahead.N_LOOKAHEAD (a test)
    potential=potential,
)
