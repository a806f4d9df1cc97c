"""What one seat may know: :func:`observe` is all a bot reads, a client receives, an RL
environment encodes (rules, end of §5; ``docs/views.md``, format 2).

A seat sees its own concealed tiles, every discard, exposed meld and bonus tile, the
indicator and the number of tiles in each hand and in the wall. It never sees another hand,
the wall's order, the face of another seat's concealed kong (face down until the hand ends),
or who else may claim or has answered in a claim window: only its own options, and the claim
that won once the window closes. Its ``version`` stays at the window's opening version while
the window is open. Once the hand is over, ``result`` shows every hand, as players lay them
down at a real table.

>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> view = observe(new_hand(Ruleset(), seed=4), Seat.S)
>>> len(view.hand), view.hand_sizes[Seat.E], view.legal
(16, 17, ())
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from paiju.kit.views import view_head
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.hand import HandTiles, wait_indices, waiting_faces
from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.record import Ending, FinishedHand, ending_json
from paiju.mazhan.rules import Phase, State, legal_actions_for, seat_version
from paiju.mazhan.scoring import SeatScore, Settlement, score
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.tiles import ALL_TILES, Tile

__all__ = ["FORMAT", "Last", "SeenMeld", "View", "Window", "observe", "scored_json"]

#: The version of the view JSON (``docs/views.md``).
FORMAT = 2


def _codes(tiles: tuple[Tile, ...] | list[Tile]) -> list[str]:
    return [_CODE[t.index] for t in tiles]


_CODE = tuple(str(t) for t in ALL_TILES)
#: The seats, as module globals for the dict displays made for every state.
_E, _S, _W, _N = SEATS

_FIXED_ACTION_JSON: dict[int, dict[str, Any]] = {}
#: The waits of a concealed hand, by ``(wild, *tiles)``: a seat's hand stays the same while
#: the others move, so its waits are asked for again and again (emptied when full).
_CACHE_SIZE = 10_000
_WAITS: dict[tuple[int, ...], tuple[Tile, ...]] = {}


@dataclass(frozen=True, slots=True)
class SeenMeld:
    """A meld as one seat sees it: ``tiles`` is ``None`` for another seat's concealed kong
    (face down); ``claimed`` is the discard it took and ``source`` the seat it came from
    (``None`` for a concealed kong).

    >>> SeenMeld(MeldKind.CKONG, None, None, None).to_json()
    {'kind': 'ckong', 'tiles': None, 'claimed': None, 'from': None}
    """

    kind: MeldKind
    tiles: tuple[Tile, ...] | None
    claimed: Tile | None
    source: Seat | None

    @property
    def meld(self) -> Meld | None:
        """The face-up meld, or ``None`` when it lies face down.

        >>> SeenMeld(MeldKind.PUNG, (Tile.parse("7z"),) * 3, Tile.parse("7z"), Seat.W).meld
        Meld.parse('pung 777z')
        """
        return None if self.tiles is None else Meld(self.kind, self.tiles)

    def to_json(self) -> dict[str, Any]:
        """The meld as JSON.

        >>> SeenMeld(MeldKind.CHOW, tuple(ALL_TILES[i] for i in (0, 1, 2)), ALL_TILES[1],
        ...          Seat.N).to_json()
        {'kind': 'chow', 'tiles': ['1m', '2m', '3m'], 'claimed': '2m', 'from': 'N'}
        """
        return {
            "kind": self.kind.value,
            "tiles": None if self.tiles is None else _codes(self.tiles),
            "claimed": None if self.claimed is None else str(self.claimed),
            "from": None if self.source is None else self.source.value,
        }


@dataclass(frozen=True, slots=True)
class Window:
    """An open claim window: on a discard (``claim``) or an added kong (``rob``, 搶槓).

    >>> Window("claim", Tile.parse("5m"), Seat.E).to_json()
    {'kind': 'claim', 'tile': '5m', 'from': 'E'}
    """

    kind: str
    tile: Tile
    source: Seat

    def to_json(self) -> dict[str, Any]:
        """The window as JSON.

        >>> Window("rob", Tile.parse("2p"), Seat.N).to_json()["kind"]
        'rob'
        """
        return {"kind": self.kind, "tile": str(self.tile), "from": self.source.value}


@dataclass(frozen=True, slots=True)
class Last:
    """The last public action: ``draw``, ``discard``, ``chi``, ``peng``, ``jiagang``, ``hu``
    or ``liuju``; ``tile`` is ``None`` where the seat may not see it (another seat's draw).

    >>> Last(Seat.E, "discard", Tile.parse("5m")).to_json()
    {'seat': 'E', 'kind': 'discard', 'tile': '5m'}
    """

    seat: Seat | None
    kind: str
    tile: Tile | None

    def to_json(self) -> dict[str, Any]:
        """As JSON.

        >>> Last(None, "liuju", None).to_json()["seat"] is None
        True
        """
        return {
            "seat": None if self.seat is None else self.seat.value,
            "kind": self.kind,
            "tile": None if self.tile is None else str(self.tile),
        }


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view of a hand.

    ``hand`` holds all the seat's concealed tiles, sorted, the drawn tile included (the
    JSON lists it apart, as ``drawn``); ``table_melds`` every seat's melds as this seat sees
    them (:attr:`melds` gives the face-up ones as :class:`~paiju.mazhan.melds.Meld`);
    ``discards`` each river as ``(tile, seat that claimed it or None)``.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> v = observe(new_hand(Ruleset(), seed=4), Seat.E)
    >>> v.my_turn, v.wall_left > 0, len(v.hand_counts)
    (True, True, 34)
    """

    seat: Seat
    phase: Phase
    version: int
    my_turn: bool
    turn: Seat | None
    window: Window | None
    wild: Tile
    indicator: Tile
    set_aside: tuple[Tile, ...]
    dice: tuple[int, int]
    wall_left: int
    dead_wall: int
    hand: tuple[Tile, ...]
    drawn: Tile | None
    table_melds: dict[Seat, tuple[SeenMeld, ...]]
    bonus: dict[Seat, tuple[Tile, ...]]
    discards: dict[Seat, tuple[tuple[Tile, Seat | None], ...]]
    hand_sizes: dict[Seat, int]
    last: Last | None
    legal: tuple[Action, ...]
    result: dict[str, Any] | None
    _shared: _Shared | None = field(default=None, compare=False, repr=False)

    @property
    def melds(self) -> dict[Seat, tuple[Meld, ...]]:
        """Every seat's face-up melds (another seat's concealed kongs left out).

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> observe(new_hand(Ruleset(), seed=4), Seat.E).melds[Seat.S]
        ()
        """
        return {
            s: tuple(m.meld for m in ms if m.meld is not None) for s, ms in self.table_melds.items()
        }

    @property
    def claim_tile(self) -> Tile | None:
        """The tile of the open claim window, if any.

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> observe(new_hand(Ruleset(), seed=4), Seat.E).claim_tile is None
        True
        """
        return None if self.window is None else self.window.tile

    @property
    def claim_from(self) -> Seat | None:
        """The seat whose discard (or added kong) the window is on, if any: East's 2m here.

        >>> from paiju.mazhan.actions import Action
        >>> from paiju.mazhan.rules import Ruleset, apply, new_hand
        >>> s, _ = apply(new_hand(Ruleset(), seed=0), Action.parse("E discard 2m"))
        >>> observe(s, Seat.S).claim_from, observe(s, Seat.S).claim_tile
        (<Seat.E: 'E'>, Tile.parse('2m'))
        """
        return None if self.window is None else self.window.source

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

    @property
    def waits(self) -> tuple[Tile, ...]:
        """聽牌: the faces that would complete the hand when it is one tile short (the wild
        face included when a ★ would); empty otherwise.

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> observe(new_hand(Ruleset(), seed=4), Seat.W).waits
        ()
        """
        melds = len(self.table_melds[self.seat])
        if len(self.hand) + 3 * melds != 16:
            return ()
        return tuple(waiting_faces(HandTiles.parse(self.hand, self.wild)))

    def _waits(self) -> tuple[Tile, ...]:
        """:attr:`waits`, computed from the counts (the same faces, in the same order)."""
        melds = len(self.table_melds[self.seat])
        if len(self.hand) + 3 * melds != 16:
            return ()
        key = (self.wild.index, *[t.index for t in self.hand])
        found = _WAITS.get(key)
        if found is None:
            counts = [0] * 34
            for f in key[1:]:
                counts[f] += 1
            found = tuple(ALL_TILES[f] for f in wait_indices(counts, self.wild.index))
            if len(_WAITS) >= _CACHE_SIZE:
                _WAITS.clear()
            _WAITS[key] = found
        return found

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (``docs/views.md``, format 2). The views of one state share the
        public parts of their JSON (each seat's block, the result): read it, or copy it
        before changing it.

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> v = observe(new_hand(Ruleset(), seed=4), Seat.W).to_json()
        >>> v["format"], v["seat"], v["my_turn"], v["turn"], len(v["hand"])
        (2, 'W', False, 'E', 16)
        """
        hand = list(self.hand)
        if self.drawn is not None:
            hand.remove(self.drawn)
        shared = self._shared
        if shared is not None:  # the blocks every seat shares, made once per state
            i = self.seat.number - 1
            b = shared.block
            seats = {"E": b(0), "S": b(1), "W": b(2), "N": b(3)}
            mine = self.table_melds[self.seat]
            if mine is not shared.melds[i]:  # its own concealed kongs, face up to it
                seats[self.seat.value] = _seat_json(
                    self.seat, shared.hand_sizes[i], mine, shared.bonus[i], shared.discards[i]
                )
            waits = self._waits()
        else:
            seats = {
                s.value: _seat_json(
                    s, self.hand_sizes[s], self.table_melds[s], self.bonus[s], self.discards[s]
                )
                for s in SEATS
            }
            waits = self.waits
        return {
            **view_head("mazhan", FORMAT, self),
            "window": None if self.window is None else self.window.to_json(),
            "dealer": "E",
            "wild": str(self.wild),
            "indicator": str(self.indicator),
            "set_aside": _codes(self.set_aside),
            "dice": list(self.dice),
            "wall_left": self.wall_left,
            "dead_wall": self.dead_wall,
            "hand": _codes(hand),
            "drawn": None if self.drawn is None else str(self.drawn),
            "waits": _codes(waits),
            "seats": seats,
            "last": None if self.last is None else self.last.to_json(),
            "legal": [self.action_json(a) for a in self.legal],
            "result": self.result,
        }

    def action_json(self, action: Action) -> dict[str, Any]:
        """One legal action as JSON: ``action`` is the string to send back; ``tile`` the
        tile it is about (the discard, the kong's face, the claimed tile, the winning tile);
        ``tiles`` what it lays down.

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> v = observe(new_hand(Ruleset(), seed=4), Seat.E)
        >>> v.action_json(v.legal[-1])["kind"]
        'discard'
        """
        fixed = _FIXED_ACTION_JSON.get(id(action))
        if fixed is not None:  # one of the engine's interned actions (alive for good)
            return fixed
        kind = action.kind
        tile: Tile | None = action.tile
        tiles: tuple[Tile, ...] = ()
        if kind is ActionKind.DISCARD:
            tiles = (action.tile,) if action.tile else ()
        elif kind in (ActionKind.ANGANG, ActionKind.JIAGANG):
            tiles = (action.tile,) * 4 if action.tile else ()
        elif kind is ActionKind.SHAZHU:
            tiles = (self.wild,) * 3
        elif kind is ActionKind.HU:
            tile = self.claim_tile if self.window is not None else self.drawn
        elif kind is ActionKind.CHI:
            tile, tiles = self.claim_tile, action.chow
        elif kind is ActionKind.PENG:
            tile = self.claim_tile
            tiles = (tile,) * 3 if tile else ()
        elif kind is ActionKind.GANG:
            tile = self.claim_tile
            tiles = (tile,) * 4 if tile else ()
        return {
            "action": str(action),
            "kind": kind.value,
            "tile": None if tile is None else str(tile),
            "tiles": _codes(tiles),
        }


def _fixed_action_json() -> dict[int, dict[str, Any]]:
    """The JSON of the engine's interned actions whose JSON depends on nothing else (a
    discard, a kong from the hand, a pass), by ``id``: those objects live as long as the
    engine, so no other object can take their ``id``."""
    from paiju.mazhan import rules

    out: dict[int, dict[str, Any]] = {}
    for table in (rules._A_DISCARD, rules._A_ANGANG, rules._A_JIAGANG):
        for row in table:
            for a in row:
                if a is not None and a.tile is not None:
                    n = 1 if a.kind is ActionKind.DISCARD else 4
                    out[id(a)] = {
                        "action": str(a),
                        "kind": a.kind.value,
                        "tile": str(a.tile),
                        "tiles": [str(a.tile)] * n,
                    }
    for a in rules._A_PASS:
        out[id(a)] = {"action": str(a), "kind": "pass", "tile": None, "tiles": []}
    return out


def _seen_melds(state: State, k: int, viewer: int) -> tuple[SeenMeld, ...]:
    """Seat ``k``'s melds as ``viewer`` sees them: another seat's concealed kong face down
    until the hand is over."""
    over = state.phase is Phase.OVER
    out = []
    for meld, (src, claimed) in zip(state.melds[k], state.meld_src[k], strict=True):
        face_down = meld.kind is MeldKind.CKONG and viewer != k and not over
        out.append(
            SeenMeld(
                meld.kind,
                None if face_down else meld.tiles,
                None if claimed < 0 else ALL_TILES[claimed],
                None if src < 0 else SEATS[src],
            )
        )
    return tuple(out)


def _last(state: State, i: int) -> Last | None:
    """The last public action, derived from the state (see :class:`Last`)."""
    if state.phase is Phase.OVER:
        r = state.result
        if r is None or r.winner is None:
            return Last(None, "liuju", None)
        return Last(r.winner, "hu", r.win_tile)
    if state.phase is Phase.CLAIM:
        return Last(SEATS[state.claim_from], "discard", ALL_TILES[state.claim_tile])
    if state.phase is Phase.ROB:
        return Last(SEATS[state.claim_from], "jiagang", ALL_TILES[state.claim_tile])
    c = state.current
    if not state.drew:  # a chow or a pung just taken
        meld = state.melds[c][-1]
        _src, claimed = state.meld_src[c][-1]
        kind = "chi" if meld.kind is MeldKind.CHOW else "peng"
        return Last(SEATS[c], kind, ALL_TILES[claimed])
    if state.drawn < 0:
        return None  # the dealer's first turn
    return Last(SEATS[c], "draw", ALL_TILES[state.drawn] if c == i else None)


def _result_json(state: State) -> dict[str, Any]:
    r = state.result
    assert r is not None
    hands = {
        s.value: {
            "concealed": _codes(state.concealed(s)),
            "melds": [m.to_json() for m in _seen_melds(state, k, k)],
            "bonus": [str(ALL_TILES[b]) for b in state.bonus[k]],
        }
        for k, s in enumerate(SEATS)
    }
    return _outcome_json(r, hands, r.settlement)


def scored_json(hand: FinishedHand) -> dict[str, Any]:
    """A finished hand given to the scorer (§11), scored and laid out as a finished hand's
    view lays out its result (``result`` of the final view: every hand, every score
    explained, the payments), for a page that shows it as the table's settlement does.
    The hand is taken as checked (:meth:`FinishedHand.from_json` checks what it reads).

    >>> from paiju.mazhan.record import EXAMPLE
    >>> r = scored_json(FinishedHand.from_json(EXAMPLE))
    >>> r["winner"], r["scores"]["S"]["value"], r["net"]["S"], r["hands"]["S"]["melds"][0]
    ('S', 320, 1280, {'kind': 'pung', 'tiles': ['7z', '7z', '7z'], 'claimed': None, 'from': None})
    """
    hands = {
        s.value: {
            "concealed": _codes(sorted(p.concealed, key=lambda t: t.index)),
            "melds": [SeenMeld(m.kind, m.tiles, None, None).to_json() for m in p.melds],
            "bonus": _codes(p.bonus),
        }
        for s, p in ((s, hand.players[s]) for s in SEATS)
    }
    return _outcome_json(hand, hands, score(hand))


def _outcome_json(how: Ending, hands: dict[str, Any], settlement: Settlement) -> dict[str, Any]:
    """The result's JSON from how the hand ended (a played hand's or a scored one's),
    every seat's tiles and the settlement."""
    return {
        **ending_json(how),
        "hands": hands,
        "scores": {s.value: _score_json(settlement.players[s]) for s in SEATS},
        "payments": [
            {**p.to_json(), "dealer": Seat.E in (p.payer, p.payee)} for p in settlement.payments
        ],
        "net": {s.value: settlement.net[s] for s in SEATS},
    }


def _score_json(p: SeatScore) -> dict[str, Any]:
    return {
        "role": p.role,
        "base": p.base,
        "rounded": p.rounded,
        "tai": p.tai,
        "value": p.value,
        "uncapped": p.uncapped,
        "capped": p.uncapped > p.value,
        "formula": p.formula(),
        "hand": [{"zh": zh, "en": en} for zh, en in p.hand],
        "items": [{"zh": i.name, "en": i.en, "points": i.points} for i in p.items],
        "tai_items": [{"zh": t.name, "en": t.en, "tai": t.tai} for t in p.tai_items],
        "sets": [s.to_json() for s in p.scored_sets],
    }


def _seat_json(
    s: Seat,
    size: int,
    melds: tuple[SeenMeld, ...],
    bonus: tuple[Tile, ...],
    discards: tuple[tuple[Tile, Seat | None], ...],
) -> dict[str, Any]:
    return {
        "wind": s.value,
        "hand_size": size,
        "melds": [m.to_json() for m in melds],
        "bonus": _codes(bonus),
        "discards": [
            {"tile": str(t), "claimed_by": None if c is None else c.value} for t, c in discards
        ],
    }


class _Shared:
    """What every seat may see of one state, made once and kept on the state (a state never
    changes once :func:`~paiju.mazhan.rules.apply` has returned it) for the four views and
    their JSON: each seat's public block (another seat's concealed kong face down), as
    objects and as JSON, and the result. It holds nothing a seat may not see: a seat's own
    concealed kongs, face up to it alone, are added by its own view. The JSON blocks are
    shared by the four views' JSON: read them, do not change them."""

    __slots__ = (
        "blocks",
        "bonus",
        "bonus_by_seat",
        "discards",
        "discards_by_seat",
        "hand_sizes",
        "melds",
        "melds_by_seat",
        "owner",
        "result",
        "set_aside",
        "set_aside_src",
        "sizes_by_seat",
    )

    set_aside: tuple[Tile, ...]
    set_aside_src: tuple[int, ...]

    def __init__(self, state: State, before: _Shared | None = None) -> None:
        over = state.phase is Phase.OVER
        self.owner = state.hands
        if before is None:
            blocks = tuple(_block(state, k, over, None) for k in range(4))
        else:
            old = before.blocks
            blocks = tuple(_block(state, k, over, old[k]) for k in range(4))
        self.blocks: tuple[_Block, ...] = blocks
        if before is not None and state.set_aside is before.set_aside_src:
            self.set_aside = before.set_aside
        else:
            self.set_aside = tuple(ALL_TILES[t] for t in state.set_aside)
        self.set_aside_src = state.set_aside
        self.result = None if state.result is None else _result_json(state)
        b0, b1, b2, b3 = blocks
        self.melds = (b0.melds, b1.melds, b2.melds, b3.melds)
        self.bonus = (b0.bonus, b1.bonus, b2.bonus, b3.bonus)
        self.discards = (b0.discards, b1.discards, b2.discards, b3.discards)
        self.hand_sizes = (b0.size, b1.size, b2.size, b3.size)
        # dict displays, not dict(zip()): made for every state a view is asked of
        self.melds_by_seat = {_E: b0.melds, _S: b1.melds, _W: b2.melds, _N: b3.melds}
        self.bonus_by_seat = {_E: b0.bonus, _S: b1.bonus, _W: b2.bonus, _N: b3.bonus}
        self.discards_by_seat = {_E: b0.discards, _S: b1.discards, _W: b2.discards, _N: b3.discards}
        self.sizes_by_seat = {_E: b0.size, _S: b1.size, _W: b2.size, _N: b3.size}

    def block(self, k: int) -> dict[str, Any]:
        """Seat ``k``'s public block as JSON."""
        return self.blocks[k].to_json(k)


class _Block:
    """One seat's public part of a state (its melds as every other seat sees them, its
    bonus tiles, river and hand size) and, once asked for, its JSON. It keeps the seat's
    lists it was made from: a state made by :func:`~paiju.mazhan.rules.apply` shares the
    lists a move left unchanged with the state before it (and no state's lists change
    once it is returned), so the next state's block is this one while they are the same
    objects."""

    __slots__ = ("bonus", "discards", "json", "lists", "melds", "over", "size")

    melds: tuple[SeenMeld, ...]
    bonus: tuple[Tile, ...]
    discards: tuple[tuple[Tile, Seat | None], ...]
    size: int

    def __init__(
        self, state: State, k: int, over: bool, lists: tuple[Any, ...], before: _Block | None
    ) -> None:
        self.lists = lists
        self.over = over
        # each part is the block before's while the lists it is made from are the same
        # objects (a draw changes the hand alone: the river is not built again)
        prev = before if before is not None and before.over is over else None
        was = _NO_LISTS if prev is None else prev.lists
        if prev is not None and was[1] is lists[1] and was[2] is lists[2]:
            self.melds = prev.melds
        else:
            self.melds = _seen_melds(state, k, -1)
        if prev is not None and was[3] is lists[3]:
            self.bonus = prev.bonus
        else:
            self.bonus = tuple(ALL_TILES[b] for b in state.bonus[k])
        if prev is not None and was[4] is lists[4] and was[5] is lists[5]:
            self.discards = prev.discards
        else:
            self.discards = tuple(
                (ALL_TILES[t], None if c < 0 else SEATS[c])
                for t, c in zip(state.discards[k], state.claimed_by[k], strict=True)
            )
        self.size = prev.size if prev is not None and was[0] is lists[0] else sum(lists[0])
        self.json: dict[str, Any] | None = None

    def to_json(self, k: int) -> dict[str, Any]:
        """The block as JSON (made once; shared: read it, do not change it)."""
        block = self.json
        if block is None:
            block = self.json = _seat_json(
                SEATS[k], self.size, self.melds, self.bonus, self.discards
            )
        return block


def _block(state: State, k: int, over: bool, before: _Block | None) -> _Block:
    """Seat ``k``'s public block of ``state``: the block of the state before it when the
    seat's lists are the same objects, else a new one."""
    lists = (
        state.hands[k], state.melds[k], state.meld_src[k], state.bonus[k],
        state.discards[k], state.claimed_by[k],
    )  # fmt: skip
    if before is not None and before.over is over:
        was = before.lists
        # unrolled: this runs four times for every state a view is asked of
        if (
            was[0] is lists[0] and was[1] is lists[1] and was[2] is lists[2]
            and was[3] is lists[3] and was[4] is lists[4] and was[5] is lists[5]
        ):  # fmt: skip
            return before
    return _Block(state, k, over, lists, before)


#: No lists: every part of a first block is made (no object is any of these).
_NO_LISTS: tuple[Any, ...] = (object(),) * 6


_FIXED_ACTION_JSON.update(_fixed_action_json())


def _table_melds(state: State, shared: _Shared, i: int) -> dict[Seat, tuple[SeenMeld, ...]]:
    """Every seat's melds as seat ``i`` sees them: the shared public ones, with its own
    concealed kongs face up (until the hand is over; then every kong is face up)."""
    if state.phase is Phase.OVER or not any(m.kind is MeldKind.CKONG for m in state.melds[i]):
        return shared.melds_by_seat
    melds = dict(shared.melds_by_seat)
    melds[SEATS[i]] = _seen_melds(state, i, i)
    return melds


def _shared(state: State) -> _Shared:
    shared = state._views
    if shared is None or shared.owner is not state.hands:
        # none yet, or the state before this one's (a new state starts with it, to take
        # the blocks of the seats a move left unchanged): this state's own, made now
        shared = state._views = _Shared(state, shared)
    return shared  # type: ignore[no-any-return]


def observe(state: State, seat: Seat) -> View:
    """What ``seat`` may know of ``state``.

    The parts every seat sees alike are made once per state and shared by the four views
    (and by their JSON).

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> observe(new_hand(Ruleset(), seed=4), Seat.E).legal[-1].kind.value
    'discard'
    """
    i = seat.number - 1
    phase = state.phase
    shared = _shared(state)
    window = None
    if phase is Phase.CLAIM or phase is Phase.ROB:
        window = Window(phase.value, ALL_TILES[state.claim_tile], SEATS[state.claim_from])
    legal = legal_actions_for(state, seat)
    return View(
        seat=seat,
        phase=phase,
        version=seat_version(state, seat),
        my_turn=bool(legal),
        turn=SEATS[state.current] if phase is Phase.ACT else None,
        window=window,
        wild=ALL_TILES[state.wild],
        indicator=ALL_TILES[state.indicator],
        set_aside=shared.set_aside,
        dice=state.dice,
        wall_left=state.tail - state.head,
        dead_wall=state.ruleset.dead_wall,
        hand=state.concealed(seat),
        drawn=(
            ALL_TILES[state.drawn]
            if phase is Phase.ACT and state.current == i and state.drawn >= 0
            else None
        ),
        table_melds=_table_melds(state, shared, i),
        bonus=shared.bonus_by_seat,
        discards=shared.discards_by_seat,
        hand_sizes=shared.sizes_by_seat,
        last=_last(state, i),
        legal=legal,
        result=shared.result,
        _shared=shared,
    )
