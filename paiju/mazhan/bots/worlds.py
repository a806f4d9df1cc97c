"""Determinization for Mazhan search: whole hands consistent with what one seat has seen.

:func:`sample_world` turns a seat's :class:`~paiju.mazhan.views.View` into a full engine
:class:`~paiju.mazhan.rules.State`: the seat's own tiles, every discard, face-up meld, bonus
tile, the indicator and the tiles set aside stay as seen; the tiles it cannot see (the other
hands, the faces of other seats' concealed kongs, the wall's order) are dealt at random from
the unseen ones, with each hand its seen size and no bonus tile in any hand. Nothing but the
view is read, so two states that look the same to the seat give the same worlds.

The world puts the seat at the same decision: the same phase, the same window (a discard's
claim, or an added kong's 搶槓 — the tile being added stays in the declarer's hand until the
window closes, as in the engine) and so the same legal actions; the other seats' options in
a window follow from their sampled tiles. :func:`sample_world` checks that the seat's legal
actions match the view's and raises otherwise.

>>> import random
>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> from paiju.mazhan.views import observe
>>> from paiju.mazhan.seats import Seat
>>> real = new_hand(Ruleset(), seed=4)
>>> world = sample_world(observe(real, Seat.S), random.Random(1))
>>> world.hands[1] == real.hands[1], world.live_tiles == real.live_tiles
(True, True)
"""

from __future__ import annotations

import random

from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.rules import Phase, Ruleset, State, legal_actions_for
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.tiles import ALL_TILES
from paiju.mazhan.views import View
from paiju.mazhan.wall import FULL_SET

__all__ = ["WorldError", "sample_world", "unseen_tiles"]

_WHITE = 31


class WorldError(ValueError):
    """A view no full hand can match (the view is inconsistent)."""


def _is_bonus(face: int) -> bool:
    return face >= 34 or face == _WHITE


def unseen_tiles(view: View) -> list[int]:
    """Copies of each of the 42 faces that ``view``'s seat cannot see (in other hands, face
    down in other seats' concealed kongs, or in the wall).

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.views import observe
    >>> v = observe(new_hand(Ruleset(), seed=4), Seat.W)
    >>> sum(unseen_tiles(v)) == 144 - 16 - 1 - sum(len(b) for b in v.bonus.values()) \\
    ...     - len(v.set_aside)
    True
    """
    left = [0] * 42
    for face in FULL_SET:
        left[face] += 1
    seen: list[int] = [t.index for t in view.hand]
    for melds in view.table_melds.values():
        for m in melds:
            if m.tiles is not None:
                seen.extend(t.index for t in m.tiles)
    for bonus in view.bonus.values():
        seen.extend(t.index for t in bonus)
    for river in view.discards.values():
        seen.extend(t.index for t, claimed in river if claimed is None)
    seen.append(view.indicator.index)
    seen.extend(t.index for t in view.set_aside)
    if view.phase is Phase.ROB and view.window is not None:
        seen.append(view.window.tile.index)  # still in the declarer's hand, face up
    for face in seen:
        left[face] -= 1
        if left[face] < 0:
            raise WorldError(f"the view shows more than four of {ALL_TILES[face]}")
    return left


def _take(pool: list[int], n: int, rng: random.Random) -> list[int]:
    """``n`` tiles drawn at random from ``pool`` (a list of faces), removed from it."""
    out = []
    for _ in range(n):
        k = rng.randrange(len(pool))
        pool[k], pool[-1] = pool[-1], pool[k]
        out.append(pool.pop())
    return out


def sample_world(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view``, its hidden tiles dealt from ``rng``.

    >>> from paiju.mazhan.rules import Ruleset, new_hand, legal_actions_for
    >>> from paiju.mazhan.views import observe
    >>> v = observe(new_hand(Ruleset(), seed=8), Seat.E)
    >>> legal_actions_for(sample_world(v, random.Random(0)), Seat.E) == v.legal
    True

    Raises :class:`WorldError` when the view is inconsistent or the world would not give the
    seat the view's legal actions, and ``ValueError`` for a finished hand.
    """
    if view.phase is Phase.OVER:
        raise ValueError("the hand is over: nothing is hidden")
    me = view.seat.number - 1
    left = unseen_tiles(view)
    faces = [f for f in range(42) for _ in range(left[f])]
    hands = [[0] * 34 for _ in range(4)]
    for t in view.hand:
        hands[me][t.index] += 1
    if view.phase is Phase.ROB and view.window is not None:
        hands[view.window.source.number - 1][view.window.tile.index] += 1
    melds: list[list[Meld]] = [[] for _ in range(4)]
    meld_src: list[list[tuple[int, int]]] = [[] for _ in range(4)]
    kongs = 0
    for k, seat in enumerate(SEATS):
        for m in view.table_melds[seat]:
            if m.kind.is_kong:
                kongs += 1
            if m.tiles is None:  # another seat's concealed kong: a face with four unseen
                choices = [
                    f
                    for f in range(34)
                    if not _is_bonus(f) and f != view.wild.index and left[f] == 4
                ]
                if not choices:
                    raise WorldError(f"no face is left for {seat.value}'s concealed kong")
                f = choices[rng.randrange(len(choices))]
                left[f] = 0
                for _ in range(4):
                    faces.remove(f)
                melds[k].append(Meld(MeldKind.CKONG, (ALL_TILES[f],) * 4))
            else:
                melds[k].append(Meld(m.kind, m.tiles))
            src = -1 if m.source is None else m.source.number - 1
            claimed = -1 if m.claimed is None else m.claimed.index
            meld_src[k].append((src, claimed))
    naturals = [f for f in faces if not _is_bonus(f)]
    bonus_faces = [f for f in faces if _is_bonus(f)]
    for k, seat in enumerate(SEATS):
        if k == me:
            continue
        need = view.hand_sizes[seat] - sum(hands[k])
        if need > len(naturals):
            raise WorldError(f"too few unseen tiles for {seat.value}'s hand")
        for f in _take(naturals, need, rng):
            hands[k][f] += 1
    wall = naturals + bonus_faces
    rng.shuffle(wall)
    if len(wall) != view.wall_left:
        raise WorldError(f"the wall would hold {len(wall)} tiles, the view shows {view.wall_left}")
    state = State(
        Ruleset(dead_wall=view.dead_wall),
        0,
        tuple(wall),
        view.dice,
        0,
        len(wall),
        view.wild.index,
        view.indicator.index,
        tuple(t.index for t in view.set_aside),
        hands,
        melds,
        meld_src,
        [[t.index for t in view.bonus[s]] for s in SEATS],
        [[t.index for t, _ in view.discards[s]] for s in SEATS],
        [[-1 if c is None else c.number - 1 for _, c in view.discards[s]] for s in SEATS],
    )
    state.version = view.version
    state.dealer_discarded = bool(view.discards[Seat.E])
    state.kongs = kongs
    if view.phase is Phase.ACT:
        mover = view.turn if view.turn is not None else view.seat
        state.current = mover.number - 1
        last = view.last
        state.drew = not (last is not None and last.seat is mover and last.kind in ("chi", "peng"))
        # another seat's drawn tile is hidden: its world holds it, unmarked
        state.drawn = -1 if view.drawn is None else view.drawn.index
        # whether the draw replaced a kong only changes how a win now is scored, never
        # which actions are legal; a search always takes that win
        state.after_kong = False
    else:
        assert view.window is not None
        state.phase = view.phase
        state.current = state.claim_from = view.window.source.number - 1
        state.claim_tile = view.window.tile.index
        state.drew = False
        state = State.from_position(state.to_position())  # the others' options, checked
    if legal_actions_for(state, view.seat) != view.legal:
        raise WorldError(
            f"the sampled world gives {view.seat.value} other actions than the view: "
            f"{legal_actions_for(state, view.seat)} vs {view.legal}"
        )
    return state
