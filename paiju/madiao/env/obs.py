"""Ma Diao observations and actions for the environments (the index tables live here only).

Everything a seat may know (rules §3, and the views contract): its own hand and its own
face-down (滅) cards, every card played face up and by whom, the 上桌 cards, the trick so far
(another seat's face-down card only as "a card face down"), the 面張. Never another hand,
another seat's face-down card or the stock's order. Relative seats as in Mazhan: 0 = self,
1 = next in play order, 2 = opposite, 3 = previous. Cards are indices 0–39: 十字 0–10 (二十
up to 萬萬), 萬 11–19, 索 20–28, 文 29–39 (九文 up to 空沒文).

**Flat vector** (``float32``, 738 values):

| offset | size | name | content |
|---|---|---|---|
| 0 | 40 | `hand` | own hand |
| 40 | 40 | `own_down` | own cards played face down (滅) this hand |
| 80 | 40 | `mian` | the 面張 (one-hot; drawn last in 開沖) |
| 120 | 40 | `seen` | every card played face up so far (this trick included) |
| 160 | 40 | `best` | the best face-up card of the trick being played (one-hot) |
| 200 | 4 | `led` | the led suit 十 萬 索 文 (one-hot; zeros before the lead) |
| 204 | 4 | `banker` | relative seat of the banker 樁家 (one-hot) |
| 208 | 4 | `mover` | relative seat to play (one-hot) |
| 212 | 4 | `leader` | relative seat that leads this trick (one-hot) |
| 216 | 4 | `seat` | own seat E S W N (one-hot) |
| 220 | 1 | `trick_no` | tricks completed (0–8) |
| 221 | 1 | `in_trick` | cards played in the trick being played (0–3) |
| 222 | 4 | `scores` | match score of each relative seat before this hand / 10 |
| 226 | 1 | `stake` | stake (1 in simulation) |
| 227 | 1 | `hand_no` | hands played before this one in the match |
| 228 | 1 | `hands_left` | hands left in the match after this one |
| 229 | 1 | `repeat` | unused in Ma Diao (0; the bank always passes on) |
| 230 | 40 | `s0_table` | relative seat 0: 上桌 cards won |
| 270 | 40 | `s0_ups` | relative seat 0: cards it played face up this hand |
| 310 | 40 | `s0_trick_card` | relative seat 0: its face-up card in this trick |
| 350 | 1 | `s0_trick_down` | relative seat 0: played face down in this trick |
| 351 | 1 | `s0_downs` | relative seat 0: cards played face down this hand |
| 352 | 1 | `s0_tricks` | relative seat 0: tricks won |
| 353 | 3 | `s0_captured` | relative seat 0: top cards beaten by its top cards |
| 356 | 1 | `s0_size` | relative seat 0: cards in hand |

The ``s{r}_*`` block repeats for relative seats ``r`` = 1, 2, 3 after the ``s0_*`` one (127
values each: ``s{r}_x`` lies at the offset of ``s0_x`` + 127 × ``r``; ``docs/env.md`` lists
them all). ``captured`` counts, for each of 百萬, 千萬 and 萬萬 among the seat's 上桌 cards,
the other top cards it beat face up in its trick (開沖 counts such a card double or triple).

**Planes** (``float32``, ``[75, 4, 11]``): each ``set`` section is one channel
with rows 十 萬 索 文 and columns rank 1–11 (萬 and 索 leave columns 10 and 11 empty); each
scalar is a constant channel.

Actions (``Discrete(120)``): ``kind × 40 + card`` with kind 0 ``fa`` (lead), 1 ``zhuo``
(capture), 2 ``mie`` (discard face down).

>>> from paiju.madiao.rules import Ruleset, new_hand
>>> enc = MadiaoEncoder()
>>> state = new_hand(Ruleset(), seed=3)
>>> enc.reset(state)
>>> obs = enc.encode(state, 2)
>>> obs.shape, int(obs[:40].sum())
((738,), 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.env.layout import Layout, Planes, Ring, cells, seat_index
from paiju.env.registry import register_env
from paiju.madiao import rules as _rules
from paiju.madiao.rules import PLAYS, Action, Event, Phase, State, legal_codes

__all__ = [
    "ACTIONS",
    "MadiaoEncoder",
    "action_index",
    "index_action",
    "legal_indices",
    "turn_legal",
]

N_ACTIONS = 120
_KINDS = {"fa": 0, "zhuo": 40, "mie": 80}  # by value: faster than hashing the enum
_SUIT_OF = tuple(0 if c < 11 else 1 if c < 20 else 2 if c < 29 else 3 for c in range(40))
_TOPS = (8, 9, 10)  # 百萬 千萬 萬萬
_OVER = Phase.OVER
#: ``ACTIONS[seat][index]``: every play, built once (the engine's :data:`PLAYS`: the index
#: is the engine's code).
ACTIONS = PLAYS


def action_index(action: Action) -> int:
    """The index of a play in ``Discrete(120)``.

    >>> action_index(Action.parse("E mie wt")), action_index(Action.parse("N fa 2t"))
    (90, 0)
    """
    return _KINDS[action.kind._value_] + action.card.index


def index_action(index: int, seat: Any) -> Action:
    """The play of ``seat`` with this index (the inverse of :func:`action_index`).

    >>> from paiju.madiao.seats import Seat
    >>> str(index_action(90, Seat.E))
    'E mie wt'

    >>> str(index_action(90, "E"))
    'E mie wt'

    ``seat`` is the engine's seat or its letter, ``"E"``, ``"S"``, ``"W"`` or ``"N"`` (what
    the Gymnasium environment's ``seat`` gives). Raises ``ValueError`` for an index outside
    0–119 or an unknown seat letter, ``TypeError`` for a seat that is neither.
    """
    if not 0 <= index < N_ACTIONS:
        raise ValueError(f"a Ma Diao action index is 0–119, got {index}")
    row: tuple[Action, ...] = ACTIONS[seat_index(seat)]
    return row[index]


def legal_indices(state: State, seat: Any) -> list[int]:
    """The indices of ``seat``'s legal plays, in the engine's order, from the engine's codes
    in one call (:func:`~paiju.madiao.rules.legal_codes`: the code is the index; the play
    itself is ``ACTIONS[seat][index]``).

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> from paiju.madiao.seats import Seat
    >>> s = new_hand(Ruleset(), seed=2, banker=Seat.E)
    >>> legal_indices(s, Seat.E)[:2], legal_indices(s, Seat.S)
    ([4, 9], [])
    """
    if seat.number - 1 != state.turn:
        return []
    return list(legal_codes(state))


def turn_legal(state: State) -> tuple[int, tuple[int, ...]]:
    """The seat index to play and the indices of its legal plays, in one call (``(-1,
    ())`` once the hand is over): :func:`legal_indices` of the seat to play, for the
    environments' hot path.

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> from paiju.madiao.seats import Seat
    >>> turn_legal(new_hand(Ruleset(), seed=2, banker=Seat.E))[0]
    0
    """
    if state.phase is _OVER:
        return -1, ()
    return state.turn, legal_codes(state)


def _layout() -> Layout:
    lay = Layout()
    lay.add("hand", 40, "set", "own hand")
    lay.add("own_down", 40, "set", "own cards played face down (滅) this hand")
    lay.add("mian", 40, "set", "the 面張 (one-hot; drawn last in 開沖)")
    lay.add("seen", 40, "set", "every card played face up so far (this trick included)")
    lay.add("best", 40, "set", "the best face-up card of the trick being played (one-hot)")
    lay.add("led", 4, "scalar", "the led suit 十 萬 索 文 (one-hot; zeros before the lead)")
    lay.add("banker", 4, "scalar", "relative seat of the banker 樁家 (one-hot)")
    lay.add("mover", 4, "scalar", "relative seat to play (one-hot)")
    lay.add("leader", 4, "scalar", "relative seat that leads this trick (one-hot)")
    lay.add("seat", 4, "scalar", "own seat E S W N (one-hot)")
    lay.add("trick_no", 1, "scalar", "tricks completed (0–8)")
    lay.add("in_trick", 1, "scalar", "cards played in the trick being played (0–3)")
    lay.add_context(
        "match score of each relative seat before this hand / 10",
        "stake (1 in simulation)",
        "unused in Ma Diao (0; the bank always passes on)",
    )
    lay.add_seats(
        [
            ("table", 40, "set", "上桌 cards won"),
            ("ups", 40, "set", "cards it played face up this hand"),
            ("trick_card", 40, "set", "its face-up card in this trick"),
            ("trick_down", 1, "scalar", "played face down in this trick"),
            ("downs", 1, "scalar", "cards played face down this hand"),
            ("tricks", 1, "scalar", "tricks won"),
            ("captured", 3, "scalar", "top cards beaten by its top cards"),
            ("size", 1, "scalar", "cards in hand"),
        ]
    )
    return lay


LAYOUT = _layout()
FLAT_SIZE = LAYOUT.size
_O = {s.name: s.offset for s in LAYOUT.sections}
_S0 = _O["s0_table"]
_B = _O["s1_table"] - _S0
_TABLE, _UPS, _TCARD = 0, _O["s0_ups"] - _S0, _O["s0_trick_card"] - _S0
_TDOWN, _DOWNS, _TRICKS = (_O["s0_trick_down"] - _S0, _O["s0_downs"] - _S0, _O["s0_tricks"] - _S0)
_CAPT, _SIZE = _O["s0_captured"] - _S0, _O["s0_size"] - _S0
_HAND, _OWNDOWN, _MIAN, _SEEN, _BEST = (
    _O["hand"],
    _O["own_down"],
    _O["mian"],
    _O["seen"],
    _O["best"],
)
_LED, _BANKER, _MOVER, _LEADER, _SEAT = (
    _O["led"],
    _O["banker"],
    _O["mover"],
    _O["leader"],
    _O["seat"],
)
_TRICKNO, _INTRICK, _SCORES, _STAKE = _O["trick_no"], _O["in_trick"], _O["scores"], _O["stake"]
# seen, best and led lie together: one block shared by every observer
_C_SEEN, _C_BEST, _C_LED = 0, _BEST - _SEEN, _LED - _SEEN
_COMMON = _LED + 4 - _SEEN
_CELLS = [
    _SUIT_OF[c] * 11 + c - (0, 11, 20, 29)[_SUIT_OF[c]] for c in range(40)
]  # (suit row, rank - 1 column)


def _planes() -> Planes:
    sets = [list(range(s.offset, s.stop)) for s in LAYOUT.sections if s.kind == "set"]
    scalars = [i for s in LAYOUT.sections if s.kind == "scalar" for i in range(s.offset, s.stop)]
    return Planes((4, 11), _CELLS, sets, scalars, extra=0)


PLANES = _planes()


def _scale() -> npt.NDArray[np.float32]:
    """Divisors that bring every value of the flat vector to about [0, 1] (for learners)."""
    out = np.ones(FLAT_SIZE, dtype=np.float32)
    tops = {"trick_no": 8.0, "in_trick": 3.0, "hand_no": 4.0, "hands_left": 4.0}
    for s in LAYOUT.sections:
        name = s.name.split("_", 1)[1] if s.name[0] == "s" and s.name[1].isdigit() else s.name
        top = {"downs": 8.0, "tricks": 8.0, "captured": 2.0, "size": 8.0}.get(name)
        out[s.offset : s.stop] = top if top is not None else tops.get(name, 1.0)
    return out


#: Per value, a divisor that brings the flat vector to about [0, 1]: ``obs / SCALE``.
SCALE = _scale()


_F = FLAT_SIZE
_FLAT_SHAPE = (_F,)
#: The strip ``mover`` … ``in_trick`` (offsets 208–221) is a function of the observer, the
#: seat to play, the leader and the tricks done (the cards in the trick are ``turn −
#: leader``): every strip is built once and an observation takes its own in one copy.
#: ``_STRIP_AT[me][((turn × 4) + leader) × 9 + trick_no]``; a finished hand (no mover, no
#: leader) at ``_STRIP_AT[me][144 + trick_no]``.
_STRIP0, _STRIP1 = _MOVER, _INTRICK + 1


def _strips() -> list[list[Any]]:
    n = _STRIP1 - _STRIP0
    table = np.zeros((4, 144 + 9, n), dtype=np.float32)
    for me in range(4):
        for k in range(144 + 9):
            row = table[me, k]
            row[_SEAT - _STRIP0 + me] = 1.0
            if k < 144:
                turn, leader, trick_no = k // 36, k // 9 % 4, k % 9
                row[_MOVER - _STRIP0 + ((turn - me) & 3)] = 1.0
                row[_LEADER - _STRIP0 + ((leader - me) & 3)] = 1.0
                row[_INTRICK - _STRIP0] = (turn - leader) & 3
            else:
                trick_no = k - 144
            row[_TRICKNO - _STRIP0] = trick_no
    view = cells(table)
    at = [(me * 153 + k) * n for me in range(4) for k in range(153)]
    return [[view[i : i + n] for i in at[me * 153 : (me + 1) * 153]] for me in range(4)]


_STRIP_AT = _strips()
#: ``_CARD_UP[code]``: the card of a play's code and whether it is played face up.
_CARD_UP = tuple((code % 40, code < 80) for code in range(N_ACTIONS))


class MadiaoEncoder(Ring):
    """Observations of one hand for every seat, kept up to date from the engine's events.

    Each seat's public block (its 上桌 cards, face-up plays, the trick, counts) is a block of
    a ring of four (:class:`~paiju.env.layout.Ring`): an event writes a value once, and an
    observation takes the ring in two copies. What every seat shares (seen cards, the best
    card, the led suit) is one block, copied into each observation.
    Each seat's own part (its hand, its face-down cards) is written as it changes. Values
    are written through memoryviews of the NumPy buffers (a Python scalar each, no NumPy
    call per value).

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> enc = MadiaoEncoder(planes=True)
    >>> s = new_hand(Ruleset(), seed=2); enc.reset(s)
    >>> enc.encode(s, 0).shape == (PLANES.channels, 4, 11)
    True
    """

    n_actions = N_ACTIONS
    layout = LAYOUT

    def __init__(self, planes: bool = False) -> None:
        self.planes = planes
        self.shape: tuple[int, ...] = (PLANES.channels, 4, 11) if planes else (FLAT_SIZE,)
        super().__init__(_B, _F, _S0)
        self._common = np.zeros(_COMMON, dtype=np.float32)  # seen, best, led
        self._cm = cells(self._common)
        self._size = [0] * 4
        self._downs = [0] * 4
        self._tricks = [0] * 4
        self._trick: list[tuple[int, int, bool]] = []  # the plays of the trick being played
        self._best = -1  # the best face-up card of the trick being played
        self._led = -1
        # the match context (scores … repeat, offsets 222–229) of each observer, as written
        self._contexts = np.zeros((4, 8), dtype=np.float32)
        self._contexts[:, 4] = 1.0  # the stake
        self._ctx_cells = cells(self._contexts)
        self._ctx_key: tuple[Any, ...] = ((0.0, 0.0, 0.0, 0.0), 0, 0, 0)

    def set_context(
        self, scores: Sequence[float], hand_no: int, hands_left: int, repeat: int
    ) -> None:
        """The match around the hand: each seat's score (E S W N, already scaled), the hand
        number, the hands left and (unused in Ma Diao) repeats.

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> enc = MadiaoEncoder(); s = new_hand(Ruleset(), seed=2); enc.reset(s)
        >>> enc.set_context([1.0, 0.0, -0.5, -0.5], 3, 0, 0)
        >>> enc.encode(s, 3)[_SCORES:_SCORES + 4].tolist()
        [-0.5, 1.0, 0.0, -0.5]
        """
        key = (tuple(scores), hand_no, hands_left, repeat)
        if key == self._ctx_key:
            return  # the same (every hand of a hand episode): nothing to rewrite
        self._ctx_key = key
        for me in range(4):
            row = self._contexts[me]
            row[:4] = [scores[(me + r) & 3] for r in range(4)]
            row[5:8] = (hand_no, hands_left, repeat)
        self._ctx_ver += 1

    def reset(
        self, state: State, plays: Sequence[Sequence[tuple[int, bool]]] | None = None
    ) -> None:
        """Start from ``state``. ``plays[s]`` lists seat ``s``'s plays this hand as ``(card,
        face_up)``, needed for a state in the middle of a hand unless the state keeps the
        finished tricks (``history``, as the views-format-2 engine does).

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> enc = MadiaoEncoder(); enc.reset(new_hand(Ruleset(), seed=2))
        >>> float(enc._ring[:4].sum())  # eight cards in each hand
        32.0
        """
        history = getattr(state, "history", None)
        trick = state.trick
        if plays is None and (history or trick):
            mine: list[list[tuple[int, bool]]] = [[], [], [], []]
            for _leader, done_trick in history or ():
                for seat, card, up in done_trick:
                    mine[seat].append((card, up))
            for seat, card, up in trick:
                mine[seat].append((card, up))
            plays = mine
        self._ring.fill(0.0)
        self._heads.fill(0.0)
        self._common.fill(0.0)
        rm, bm, cm = self._rm, self._hm, self._cm
        in_trick = {s for s, _c, _up in trick}  # each seat plays once in a trick
        captured = state.captured
        sizes = self._size
        downs_of = self._downs = [0] * 4
        self._tricks = list(state.tricks_won)
        for s in range(4):
            o = s * _B
            if plays is not None:  # else nothing played yet (a deal)
                done = list(plays[s])
                if s in in_trick and done:
                    done.pop()  # its play in the trick being played, added below
                downs = 0
                for card, up in done:
                    if up:
                        rm[o + _UPS + card] = 1.0
                        cm[_C_SEEN + card] = 1.0
                    else:
                        downs += 1
                        bm[s * _S0 + _OWNDOWN + card] = 1.0
                if downs:
                    rm[o + _DOWNS] = downs
                    downs_of[s] = downs
            for card in state.table[s]:
                rm[o + _TABLE + card] = 1.0
                cm[_C_SEEN + card] = 1.0
                if card in captured:
                    n = len(captured[card])
                    rm[o + _CAPT + card - 8] = n
            size = sizes[s] = len(state.hands[s]) + (s in in_trick)  # a play below takes one
            rm[o + _SIZE] = size
            won = state.tricks_won[s]
            if won:
                rm[o + _TRICKS] = won
        for c in state.out_up:
            cm[_C_SEEN + c] = 1.0
        mian = state.stock[-1]
        banker = state.banker
        for me in range(4):
            base = me * _S0
            bm[base + _MIAN + mian] = 1.0
            bm[base + _BANKER + ((banker - me) & 3)] = 1.0
            base += _HAND
            for c in state.hands[me]:
                bm[base + c] = 1.0
        self._best = -1
        self._led = -1
        self._trick = []
        for s, card, up in trick:
            self._play(s, card, up)
        self._ctx_seen = [-1] * 4

    def _play(self, s: int, card: int, up: bool) -> None:
        rm = self._rm
        o = s * _B
        self._hm[s * _S0 + _HAND + card] = 0.0
        size = self._size[s] - 1
        self._size[s] = size
        rm[o + _SIZE] = size
        if up:
            rm[o + _UPS + card] = 1.0
            rm[o + _TCARD + card] = 1.0
            cm = self._cm
            cm[_C_SEEN + card] = 1.0
            best = self._best
            if best < 0:
                led = self._led = _SUIT_OF[card]
                cm[_C_LED + led] = 1.0
            else:
                cm[_C_BEST + best] = 0.0  # a capture beats the best card so far
            cm[_C_BEST + card] = 1.0
            self._best = card
        else:
            rm[o + _TDOWN] = 1.0
            downs = self._downs[s] + 1
            self._downs[s] = downs
            rm[o + _DOWNS] = downs
            self._hm[s * _S0 + _OWNDOWN + card] = 1.0
        self._trick.append((s, card, up))

    def _trick_won(self, w: int, card: int, state: State) -> None:
        rm = self._rm
        for s, c, up in self._trick:
            o = s * _B + (_TCARD + c if up else _TDOWN)
            rm[o] = 0.0
        o = w * _B
        rm[o + _TABLE + card] = 1.0
        tricks = self._tricks[w] + 1
        self._tricks[w] = tricks
        rm[o + _TRICKS] = tricks
        beaten = state.captured.get(card)
        if beaten is not None:
            rm[o + _CAPT + card - 8] = len(beaten)
        cm = self._cm
        cm[_C_LED + self._led] = 0.0
        cm[_C_BEST + self._best] = 0.0
        self._trick = []
        self._best = -1
        self._led = -1

    def update(self, before: State, state: State, events: Sequence[Event]) -> None:
        """Apply one play's events (``before`` is the state the play started from).

        >>> from paiju.madiao.rules import Ruleset, new_hand, apply, legal_actions
        >>> enc = MadiaoEncoder(); s0 = new_hand(Ruleset(), seed=2); enc.reset(s0)
        >>> s1, ev = apply(s0, legal_actions(s0)[0]); enc.update(s0, s1, ev)
        >>> float(enc._common[_C_SEEN:_C_SEEN + 40].sum())
        1.0
        """
        for e in events:
            kind = e.kind
            if kind == "play":
                self._play(
                    e.seat.number - 1,  # type: ignore[union-attr]
                    e.card.index,  # type: ignore[union-attr]
                    e.detail != "mie",
                )
            elif kind == "trick":
                self._trick_won(e.seat.number - 1, e.card.index, state)  # type: ignore[union-attr]

    def played(self, s: int, code: int, state: State, events: Sequence[Event]) -> None:
        """:meth:`update` for a play known by its code (the environments' action index):
        seat ``s`` played ``code``, giving ``state`` and ``events``. The play's card and face
        come from the code (no event to read); a trick won, from its event.

        >>> from paiju.madiao.rules import Ruleset, new_hand, apply, legal_codes, PLAYS
        >>> enc = MadiaoEncoder(); s0 = new_hand(Ruleset(), seed=2); enc.reset(s0)
        >>> code = legal_codes(s0)[0]; s1, ev = apply(s0, PLAYS[s0.turn][code])
        >>> enc.played(s0.turn, code, s1, ev)
        >>> float(enc._common[_C_SEEN:_C_SEEN + 40].sum())
        1.0
        """
        card, up = _CARD_UP[code]
        self._play(s, card, up)
        if len(events) > 1:  # the fourth card: the trick's event follows the play's
            e = events[1]
            if e.kind == "trick":
                self._trick_won(e.seat.number - 1, e.card.index, state)  # type: ignore[union-attr]

    def encode(
        self,
        state: State,
        me: int,
        out: npt.NDArray[np.float32] | None = None,
    ) -> npt.NDArray[np.float32]:
        """Seat ``me``'s (0–3: E S W N) observation.

        Flat: written whole into ``out`` when given (a new observation), else into the
        seat's own buffer, valid until the next call for that seat (copy it to keep it).
        Planes: a new array (or ``out``).

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> from paiju.madiao.seats import Seat
        >>> enc = MadiaoEncoder(); s = new_hand(Ruleset(), seed=3, banker=Seat.W); enc.reset(s)
        >>> o = enc.encode(s, 0)
        >>> float(o[_BANKER + 2]), float(o[_MOVER + 2])
        (1.0, 1.0)
        """
        if self._ctx_seen[me] != self._ctx_ver:
            base = me * _S0
            self._hm[base + _SCORES : base + _SCORES + 8] = self._ctx_cells[me * 8 : me * 8 + 8]
            self._ctx_seen[me] = self._ctx_ver
        if state.phase is _OVER:
            strip = _STRIP_AT[me][144 + state.trick_no]
        else:
            strip = _STRIP_AT[me][state.turn * 36 + state.leader * 9 + state.trick_no]
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
        # what every seat shares, and what moves every step: into the observation only
        m[_SEEN : _SEEN + _COMMON] = self._cm
        m[_STRIP0:_STRIP1] = strip
        if self.planes:
            return PLANES.render(flat, out)
        return flat


def _view_state(view: Any) -> Any:
    """The fields the Ma Diao encoder reads, from a view (either format)."""
    seats = list(view.table)
    me = view.seat.number - 1
    trick = [(s.number - 1, 0 if c is None else c.index, up) for s, c, up in view.trick]
    on_table = {c.index for s in seats for c in view.table[s]}
    in_trick = {c for _s, c, up in trick if up}
    out_up = [c.index for c in view.seen if c.index not in on_table and c.index not in in_trick]
    if hasattr(view, "leader"):
        leader = view.leader.number - 1
        turn = leader if view.turn is None else view.turn.number - 1
    else:
        leader = trick[0][0] if trick else (view.acting[0].number - 1 if view.acting else 0)
        turn = view.acting[0].number - 1 if view.acting else leader
    return SimpleNamespace(
        hands=[
            [c.index for c in view.hand] if k == me else [0] * view.hand_sizes[s]
            for k, s in enumerate(seats)
        ],
        trick=trick,
        table=[[c.index for c in view.table[s]] for s in seats],
        tricks_won=[view.tricks_won[s] for s in seats],
        captured={
            c.index: tuple(o.index for o in others)
            for c, others in getattr(view, "captured", {}).items()
        },
        out_up=out_up,
        stock=(view.mian.index,),
        banker=view.banker.number - 1,
        turn=turn,
        leader=leader,
        phase=view.phase,
        trick_no=view.trick_no,
    )


def _view_plays(view: Any) -> list[list[tuple[int, bool]]] | None:
    """What a format-2 view tells of each seat's plays: the face-up ones in finished tricks,
    the face-down ones (own cards, others' counts), the one in the trick being played last
    (the encoder reads the cards and counts, not their order); ``None`` for the earlier
    format."""
    if not hasattr(view, "face_down_cards"):
        return None
    me = view.seat
    in_trick = {s: (0 if c is None else c.index, up) for s, c, up in view.trick}
    played_up = getattr(view, "played_up", {})
    plays: list[list[tuple[int, bool]]] = []
    for s in view.table:  # finished tricks first, the trick being played last
        now = in_trick.get(s)
        down_now = now is not None and not now[1]
        if s is me:
            cards = [c.index for c in view.face_down_cards]
            if down_now:
                cards.remove(now[0])  # type: ignore[index]
            done = [(c, False) for c in cards]
        else:
            done = [(0, False)] * (view.face_down[s] - down_now)
        ups = [(c.index, True) for c in played_up.get(s, ())]
        plays.append(ups + done + ([now] if now is not None else []))
    return plays


def state_of_view(view: Any, encoder: MadiaoEncoder) -> Any:
    """What the encoder reads, from a seat's view (either format); the encoder reset on it
    (a policy playing from views)."""
    state = _view_state(view)
    encoder.reset(state, _view_plays(view))
    return state


def unseen(state: State) -> npt.NDArray[np.float32]:
    """The stock's cards, by card (40 values)."""
    out = np.zeros(40, dtype=np.float32)
    out[list(state.stock)] = 1
    return out


register_env(
    "madiao",
    encoder=MadiaoEncoder,
    action_index=action_index,
    index_action=index_action,
    n_actions=N_ACTIONS,
    net_scale=10.0,
    engine=_rules,
    legal_indices=legal_indices,
    actions=ACTIONS,
    turn_legal=turn_legal,
    apply_checked=True,
    scale=SCALE,
    n_unseen=40,
    unseen=unseen,
    state_of_view=state_of_view,
    default_opponent="heuristic",
)
