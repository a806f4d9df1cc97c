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
| 357 | 40 | `s1_table` | relative seat 1: 上桌 cards won |
| 397 | 40 | `s1_ups` | relative seat 1: cards it played face up this hand |
| 437 | 40 | `s1_trick_card` | relative seat 1: its face-up card in this trick |
| 477 | 1 | `s1_trick_down` | relative seat 1: played face down in this trick |
| 478 | 1 | `s1_downs` | relative seat 1: cards played face down this hand |
| 479 | 1 | `s1_tricks` | relative seat 1: tricks won |
| 480 | 3 | `s1_captured` | relative seat 1: top cards beaten by its top cards |
| 483 | 1 | `s1_size` | relative seat 1: cards in hand |
| 484 | 40 | `s2_table` | relative seat 2: 上桌 cards won |
| 524 | 40 | `s2_ups` | relative seat 2: cards it played face up this hand |
| 564 | 40 | `s2_trick_card` | relative seat 2: its face-up card in this trick |
| 604 | 1 | `s2_trick_down` | relative seat 2: played face down in this trick |
| 605 | 1 | `s2_downs` | relative seat 2: cards played face down this hand |
| 606 | 1 | `s2_tricks` | relative seat 2: tricks won |
| 607 | 3 | `s2_captured` | relative seat 2: top cards beaten by its top cards |
| 610 | 1 | `s2_size` | relative seat 2: cards in hand |
| 611 | 40 | `s3_table` | relative seat 3: 上桌 cards won |
| 651 | 40 | `s3_ups` | relative seat 3: cards it played face up this hand |
| 691 | 40 | `s3_trick_card` | relative seat 3: its face-up card in this trick |
| 731 | 1 | `s3_trick_down` | relative seat 3: played face down in this trick |
| 732 | 1 | `s3_downs` | relative seat 3: cards played face down this hand |
| 733 | 1 | `s3_tricks` | relative seat 3: tricks won |
| 734 | 3 | `s3_captured` | relative seat 3: top cards beaten by its top cards |
| 737 | 1 | `s3_size` | relative seat 3: cards in hand |

The ``s{r}_*`` block repeats for relative seats ``r`` = 0, 1, 2, 3. ``captured`` counts, for
each of 百萬, 千萬 and 萬萬 among the seat's 上桌 cards, the other top cards it beat face up in
its trick (開沖 counts such a card double or triple).

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
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.env.layout import Layout, Planes
from paiju.madiao.cards import ALL_CARDS
from paiju.madiao.rules import Action, ActionKind, Event, Phase, State

__all__ = ["MadiaoEncoder", "action_index", "index_action"]

N_ACTIONS = 120
_KINDS = {"fa": 0, "zhuo": 40, "mie": 80}  # by value: faster than hashing the enum
_KIND_OF = (ActionKind.FA, ActionKind.ZHUO, ActionKind.MIE)
_SUIT_OF = tuple(0 if c < 11 else 1 if c < 20 else 2 if c < 29 else 3 for c in range(40))
_TOPS = (8, 9, 10)  # 百萬 千萬 萬萬


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

    Raises ``ValueError`` for an index outside 0–119.
    """
    if not 0 <= index < N_ACTIONS:
        raise ValueError(f"a Ma Diao action index is 0–119, got {index}")
    return Action(seat, _KIND_OF[index // 40], ALL_CARDS[index % 40])


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
    lay.add("scores", 4, "scalar", "match score of each relative seat before this hand / 10")
    lay.add("stake", 1, "scalar", "stake (1 in simulation)")
    lay.add("hand_no", 1, "scalar", "hands played before this one in the match")
    lay.add("hands_left", 1, "scalar", "hands left in the match after this one")
    lay.add("repeat", 1, "scalar", "unused in Ma Diao (0; the bank always passes on)")
    for r in range(4):
        p = f"s{r}_"
        lay.add(p + "table", 40, "set", f"relative seat {r}: 上桌 cards won")
        lay.add(p + "ups", 40, "set", f"relative seat {r}: cards it played face up this hand")
        lay.add(p + "trick_card", 40, "set", f"relative seat {r}: its face-up card in this trick")
        lay.add(p + "trick_down", 1, "scalar", f"relative seat {r}: played face down in this trick")
        lay.add(p + "downs", 1, "scalar", f"relative seat {r}: cards played face down this hand")
        lay.add(p + "tricks", 1, "scalar", f"relative seat {r}: tricks won")
        lay.add(
            p + "captured", 3, "scalar", f"relative seat {r}: top cards beaten by its top cards"
        )
        lay.add(p + "size", 1, "scalar", f"relative seat {r}: cards in hand")
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


class MadiaoEncoder:
    """Observations of one hand for every seat, kept up to date from the engine's events.

    Each seat's public block changes in place when it plays or a trick ends and carries a
    version; each observer copies in only the blocks that changed since it last looked. A
    seat's own face-down cards are kept apart and shown to it alone.

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
        self._blocks = np.zeros((4, _B), dtype=np.float32)
        self._down = np.zeros((4, 40), dtype=np.float32)
        self._seen_cards = np.zeros(40, dtype=np.float32)
        self._bufs = np.zeros((4, FLAT_SIZE), dtype=np.float32)
        self._views = [self._bufs[me, _S0:].reshape(4, _B) for me in range(4)]
        self._ver = [0, 0, 0, 0]
        self._seen = [[-1] * 4 for _ in range(4)]
        self._best = -1  # the best face-up card of the trick being played
        self._common = np.zeros(_COMMON, dtype=np.float32)  # seen, best, led
        self._common_ver = 0
        self._common_seen = [-1] * 4
        self._trick_no = 0
        self._in_trick = 0
        self._hot: list[list[int]] = [[], [], [], []]
        self._ctx_ver = 0
        self._ctx_seen = [-1] * 4
        self._context = np.zeros(8, dtype=np.float32)
        self._context[4] = 1.0

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
        self._context[:4] = scores
        self._context[5:8] = (hand_no, hands_left, repeat)
        self._ctx_ver += 1

    def reset(
        self, state: State, plays: Sequence[Sequence[tuple[int, bool]]] | None = None
    ) -> None:
        """Start from ``state``. ``plays[s]`` lists seat ``s``'s plays this hand as ``(card,
        face_up)``, needed for a state in the middle of a hand unless the state keeps the
        finished tricks (``history``, as the views-format-2 engine does).

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> enc = MadiaoEncoder(); enc.reset(new_hand(Ruleset(), seed=2))
        >>> float(enc._blocks.sum())  # eight cards in each hand
        32.0
        """
        history = getattr(state, "history", None)
        if plays is None and history is not None:
            mine: list[list[tuple[int, bool]]] = [[], [], [], []]
            for _leader, trick in history:
                for seat, card, up in trick:
                    mine[seat].append((card, up))
            for seat, card, up in state.trick:
                mine[seat].append((card, up))
            plays = mine
        blocks = self._blocks
        blocks.fill(0.0)
        self._down.fill(0.0)
        self._seen_cards.fill(0.0)
        in_trick = {s for s, _c, _up in state.trick}  # each seat plays once in a trick
        for s in range(4):
            b = blocks[s]
            done = list(plays[s]) if plays is not None else []
            if s in in_trick and done:
                done.pop()  # its play in the trick being played, added below
            for card, up in done:
                if up:
                    b[_UPS + card] = 1.0
                    self._seen_cards[card] = 1.0
                else:
                    b[_DOWNS] += 1.0
                    self._down[s, card] = 1.0
            for card in state.table[s]:
                b[_TABLE + card] = 1.0
                self._seen_cards[card] = 1.0
                if card in state.captured:
                    b[_CAPT + card - 8] = len(state.captured[card])
            b[_TRICKS] = state.tricks_won[s]
            b[_SIZE] = len(state.hands[s])
        for c in state.out_up:
            self._seen_cards[c] = 1.0
        bufs = self._bufs
        bufs.fill(0.0)
        self._common_seen = [-1] * 4
        for me in range(4):
            self._seen[me] = [-1] * 4
            self._hot[me] = []
            b = bufs[me]
            b[_MIAN + state.stock[-1]] = 1.0
            b[_SEAT + me] = 1.0
            b[_BANKER + ((state.banker - me) & 3)] = 1.0
            for c in state.hands[me]:
                b[_HAND + c] = 1.0
            b[_OWNDOWN : _OWNDOWN + 40] = self._down[me]
        self._common.fill(0.0)
        self._common[_C_SEEN : _C_SEEN + 40] = self._seen_cards
        self._common_ver += 1
        self._trick_no = state.trick_no
        self._in_trick = 0
        self._best = -1
        for s, card, up in state.trick:
            blocks[s, _SIZE] += 1.0  # counted again by the play
            bufs[s, _HAND + card] = 1.0
            self._play(s, card, up)
        self._ctx_seen = [-1] * 4

    def _play(self, s: int, card: int, up: bool) -> None:
        b = self._blocks[s]
        bufs = self._bufs
        b[_SIZE] -= 1.0
        bufs[s, _HAND + card] = 0.0
        if up:
            b[_UPS + card] = 1.0
            b[_TCARD + card] = 1.0
            self._seen_cards[card] = 1.0
            common = self._common
            common[_C_SEEN + card] = 1.0
            best = self._best
            if best < 0:
                common[_C_LED + _SUIT_OF[card]] = 1.0
            else:
                common[_C_BEST + best] = 0.0  # a capture beats the best card so far
            common[_C_BEST + card] = 1.0
            self._best = card
            self._common_ver += 1
        else:
            b[_TDOWN] = 1.0
            b[_DOWNS] += 1.0
            self._down[s, card] = 1.0
            bufs[s, _OWNDOWN + card] = 1.0
        self._in_trick += 1
        self._ver[s] += 1

    def update(self, before: State, state: State, events: Sequence[Event]) -> None:
        """Apply one play's events (``before`` is the state the play started from).

        >>> from paiju.madiao.rules import Ruleset, new_hand, apply, legal_actions
        >>> enc = MadiaoEncoder(); s0 = new_hand(Ruleset(), seed=2); enc.reset(s0)
        >>> s1, ev = apply(s0, legal_actions(s0)[0]); enc.update(s0, s1, ev)
        >>> float(enc._seen_cards.sum())
        1.0
        """
        for e in events:
            if e.kind == "play":
                assert e.seat is not None and e.card is not None
                self._play(e.seat.number - 1, e.card.index, e.detail != "mie")
            elif e.kind == "trick":
                blocks = self._blocks
                blocks[:, _TCARD : _TCARD + 40] = 0.0
                blocks[:, _TDOWN] = 0.0
                assert e.seat is not None and e.card is not None
                w = e.seat.number - 1
                card = e.card.index
                blocks[w, _TABLE + card] = 1.0
                blocks[w, _TRICKS] += 1.0
                if card in state.captured:
                    blocks[w, _CAPT + card - 8] = len(state.captured[card])
                for s in range(4):
                    self._ver[s] += 1
                common = self._common
                common[_C_LED : _C_LED + 4] = 0.0
                common[_C_BEST + self._best] = 0.0
                self._common_ver += 1
                self._in_trick = 0
                self._trick_no += 1
                self._best = -1

    def encode(
        self,
        state: State,
        me: int,
        out: npt.NDArray[np.float32] | None = None,
        waiting: bool = False,
    ) -> npt.NDArray[np.float32]:
        """Seat ``me``'s (0–3: E S W N) observation.

        Flat: the seat's own buffer, valid until the next call for that seat (copy it to
        keep it), or a copy written into ``out``. Planes: a new array (or ``out``).
        ``waiting`` changes nothing in Ma Diao (one seat plays at a time, in the open).

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> from paiju.madiao.seats import Seat
        >>> enc = MadiaoEncoder(); s = new_hand(Ruleset(), seed=3, banker=Seat.W); enc.reset(s)
        >>> o = enc.encode(s, 0)
        >>> float(o[_BANKER + 2]), float(o[_MOVER + 2])
        (1.0, 1.0)
        """
        flat: npt.NDArray[np.float32] = self._bufs[me]
        seen = self._seen[me]
        ver = self._ver
        if seen != ver:
            view = self._views[me]
            blocks = self._blocks
            for r in range(4):
                s = (me + r) & 3
                if seen[s] != ver[s]:
                    view[r] = blocks[s]
                    seen[s] = ver[s]
        if self._ctx_seen[me] != self._ctx_ver:
            ctx = self._context
            flat[_SCORES : _SCORES + 4] = ctx[[me, (me + 1) & 3, (me + 2) & 3, (me + 3) & 3]]
            flat[_STAKE : _STAKE + 4] = ctx[4:8]
            self._ctx_seen[me] = self._ctx_ver
        if self._common_seen[me] != self._common_ver:
            flat[_SEEN : _SEEN + _COMMON] = self._common
            self._common_seen[me] = self._common_ver
        flat[_TRICKNO] = self._trick_no
        flat[_INTRICK] = self._in_trick
        for i in self._hot[me]:
            flat[i] = 0.0
        if state.phase is Phase.OVER:
            self._hot[me] = []
        else:
            hot = [_MOVER + ((state.turn - me) & 3), _LEADER + ((state.leader - me) & 3)]
            flat[hot[0]] = 1.0
            flat[hot[1]] = 1.0
            self._hot[me] = hot
        if self.planes:
            return PLANES.render(flat, out)
        if out is not None:
            out[:] = flat
            return out
        return flat
