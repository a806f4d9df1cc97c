"""The ``strong`` Mazhan bot: discards and claims chosen by expected value, not distance alone.

Every candidate (each discard, each claim or pass) is rated by the hand it leaves:

- **distance**: shanten with ★ (:func:`~paiju.mazhan.shanten.shanten`: tiles from a complete
  hand, junk costing nothing), first of all;
- **acceptance** (進張): how many of the tiles still unseen would bring the hand one step
  closer, counted against what this seat can see (its hand, every meld, bonus tile and
  discard, the wild indicator), ★ included;
- **value**: the hand it heads for: a flush (清一色 is a limit hand, 混一色 a 台), pairs of
  中, 發 or the seat wind (a 台 each once they are pungs), pairs and pungs towards 對對胡;
- **defence**: when an opponent shows two or more melds, or the wall runs low, while this hand
  is still far, tiles that opponent has not discarded are dangerous (a discard that completes
  another hand pays its whole value).

>>> import random
>>> from paiju.mazhan.rules import Ruleset, new_hand, legal_actions_for
>>> from paiju.mazhan.views import observe
>>> from paiju.mazhan.seats import Seat
>>> state = new_hand(Ruleset(), seed=9)
>>> view = observe(state, Seat.E)
>>> StrongBot().act(view, view.legal, random.Random(0)).kind.value in (
...     "discard", "hu", "shazhu", "angang")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from paiju.bots.base import ViewBot
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.bots.greedy import natural_counts, sure_action
from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.rules import Phase
from paiju.mazhan.seats import SEATS
from paiju.mazhan.shanten import shanten, shanten_each_plus
from paiju.mazhan.views import View

__all__ = ["Rating", "StrongBot", "rank_actions", "rate_actions"]

_RED, _GREEN = 33, 32
#: 清一色 pull: a bonus for each suited tile fewer than this off the main suit, ×8.
_FLUSH_SPAN = 3


def _unseen(view: View) -> list[int]:
    """Copies of each face this seat cannot see (★ counted at the wild face)."""
    seen = [0] * 34
    for t in view.hand:
        seen[t.index] += 1
    for melds in view.melds.values():
        for m in melds:
            for t in m.tiles:
                seen[t.index] += 1
    for discards in view.discards.values():
        for t, claimed in discards:
            if not claimed:
                seen[t.index] += 1
    seen[view.indicator.index] += 1
    return [max(0, 4 - s) for s in seen]


def _neighbours(counts: list[int]) -> list[int]:
    """Faces that could improve these tiles: the same honour, or within two in a suit."""
    out = set()
    for i, c in enumerate(counts):
        if not c:
            continue
        if i >= 27:
            out.add(i)
            continue
        lo = i - i % 9
        for j in range(max(lo, i - 2), min(lo + 9, i + 3)):
            out.add(j)
    return sorted(out)


class StrongBot(ViewBot[View, Action]):
    """Expected value over distance; see the module docstring.

    >>> StrongBot().name
    'strong'
    >>> StrongBot().act(None, [Action.parse("N pass")], random.Random(0))
    Action.parse('N pass')
    """

    name = "strong"
    forced = staticmethod(sure_action)

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action with nothing sure to take
        (:func:`~paiju.mazhan.bots.greedy.sure_action`): the best rated
        (:func:`rank_actions`; a tie on its turn drawn with ``rng``).

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> from paiju.mazhan.views import observe
        >>> from paiju.mazhan.seats import Seat
        >>> view = observe(new_hand(Ruleset(), seed=9), Seat.E)
        >>> StrongBot().choose(view, view.legal, random.Random(0)) in view.legal
        True
        """
        ranked = rank_actions(view, legal)
        if not ranked:
            return legal[0]
        if view.phase is not Phase.ACT:
            return ranked[0][1]
        top = ranked[0][0]
        best = [a for u, a in ranked if abs(u - top) <= 1e-9]
        return best[rng.randrange(len(best))]


@dataclass(frozen=True, slots=True)
class Rating:
    """``strong``'s rating of one action and the terms it is made of.

    ``utility`` = −100 × ``shanten`` + ``accept`` + ``value`` − ``danger`` (+ 5 for a kong
    claimed on a discard, − the 平胡 terms when ``pinghu`` is on). For a discard the terms are
    those of the hand after it; for a chow or pung those after the best discard that follows
    it; for a kong claimed on a discard those after the kong; for a pass those of the hand as
    it stands.

    >>> Rating(Action.parse("E discard 1m"), -95.0, 1, 5, 0.0, 0.0).shanten
    1
    """

    action: Action
    utility: float
    shanten: int  # tiles from complete after the action (−1: complete)
    accept: float  # unseen tiles (★ included) that would bring the hand one step closer
    value: float  # the hand-value term (flush, dragon and wind pairs, 對對胡)
    danger: float  # the defence term subtracted (0 when nobody threatens)


def rank_actions(
    view: View,
    legal: Sequence[Action],
    danger: float = 1.0,
    value: float = 1.0,
    pinghu: float = 0.0,
    chow: float = 0.0,
    pairs: float = 1.0,
) -> list[tuple[float, Action]]:
    """``strong``'s rating of each discard (on its turn) or each claim and the pass (in a
    claim window), best first; wins and kongs are not rated (``strong`` always takes them).
    Ties keep the order of ``legal``. ``danger`` and ``value`` scale the defence and the
    hand-value terms (1: ``strong`` itself); ``pinghu`` weighs keeping 平胡 possible (0:
    ``strong`` itself): a seat with no bonus tile and no pung is worth 100 (400 with two ★)
    when it wins on a discard with chows only, so while that is likely to last (few bonus
    tiles still to come before the wall ends) pairs beyond the one, triplets and claiming a
    pung cost. ``chow`` is a cost, in rating points, of claiming a chow (0: ``strong``
    itself): a chow gives up the draw it replaces and fixes two concealed tiles, so with a
    cost only the chows that bring the hand a step closer (100 points) are claimed.
    ``pairs`` weighs, in the acceptance, the tiles that would make a pair a pung (1:
    ``strong`` itself): any other seat's discard of them can be claimed (碰), where the tiles
    that complete a run come from the seat's own draws alone (or a chow).

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.views import observe
    >>> from paiju.mazhan.seats import Seat
    >>> view = observe(new_hand(Ruleset(), seed=9), Seat.E)
    >>> ranked = rank_actions(view, view.legal)
    >>> ranked[0][0] >= ranked[-1][0], {a.kind.value for _, a in ranked}
    (True, {'discard'})
    """
    rated = rate_actions(view, legal, danger, value, pinghu, chow, pairs)
    out = [(r.utility, r.action) for r in rated]
    out.sort(key=lambda ua: -ua[0])
    return out


def rate_actions(
    view: View,
    legal: Sequence[Action],
    danger: float = 1.0,
    value: float = 1.0,
    pinghu: float = 0.0,
    chow: float = 0.0,
    pairs: float = 1.0,
    context: _Context | None = None,
) -> list[Rating]:
    """The :class:`Rating` of each action :func:`rank_actions` rates, in the order of
    ``legal`` (the same arguments; unsorted). Reads only the view: what this seat may know.
    ``context``: an evaluation made for this view beforehand (a subclass of the context
    with terms of its own, as the expert's); ``danger``, ``value``, ``pinghu`` and ``pairs``
    are then its own.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.views import observe
    >>> from paiju.mazhan.seats import Seat
    >>> view = observe(new_hand(Ruleset(), seed=9), Seat.E)
    >>> r = rate_actions(view, view.legal)[0]
    >>> r.utility == -100 * r.shanten + r.accept + r.value - r.danger
    True
    """
    counts, wilds = natural_counts(view)
    ctx = _Context(view, wilds, danger, value, pinghu, pairs) if context is None else context
    if view.phase is not Phase.ACT:
        return _rate_claims(view, ctx, counts, legal, chow)
    out: list[Rating] = []
    for a in legal:
        if a.kind is not ActionKind.DISCARD or a.tile is None:
            continue
        i = a.tile.index
        counts[i] -= 1
        sf, accept, val = ctx.parts(counts)
        u = ctx.combine(sf, accept, val)
        d = ctx.danger(i)
        counts[i] += 1
        out.append(Rating(a, u - d, sf, accept, val * ctx.value_weight, d))
    return out


def _rate_claims(
    view: View, ctx: _Context, counts: list[int], legal: Sequence[Action], chow: float = 0.0
) -> list[Rating]:
    tile = view.claim_tile
    out: list[Rating] = []
    for a in legal:
        if a.kind is ActionKind.PASS:
            sf, accept, val = ctx.parts(counts)
            u = ctx.combine(sf, accept, val)
            out.append(Rating(a, u, sf, accept, val * ctx.value_weight, 0.0))
    if tile is None:
        return out
    f = tile.index
    for a in legal:
        if a.kind is ActionKind.GANG:
            ctx.pending = Meld(MeldKind.KONG, (tile,) * 4)
            counts[f] -= 3
            sf, accept, val = ctx.parts(counts, melds=1)
            u = ctx.combine(sf, accept, val) + 5  # a kong's points and an extra draw
            counts[f] += 3
            u -= 60.0 * ctx.pinghu_weight
            d = 0.0
        elif a.kind in (ActionKind.PENG, ActionKind.CHI):
            if a.kind is ActionKind.PENG:
                used = [f, f]
                ctx.pending = Meld(MeldKind.PUNG, (tile,) * 3)
            else:
                used = [t.index for t in a.chow if t.index != f]
                ctx.pending = Meld(MeldKind.CHOW, a.chow)
            for x in used:
                counts[x] -= 1
            u = -1e9
            sf, accept, val, d = 99, 0.0, 0.0, 0.0
            for k in range(34):
                if counts[k]:
                    counts[k] -= 1
                    p = ctx.parts(counts, melds=1)
                    dk = ctx.danger(k)
                    uk = ctx.combine(*p) - dk
                    if uk > u:
                        u = uk
                        (sf, accept, val), d = p, dk
                    counts[k] += 1
            for x in used:
                counts[x] += 1
            if a.kind is ActionKind.PENG:
                u -= 60.0 * ctx.pinghu_weight
            else:
                u -= chow
        else:
            continue
        ctx.pending = None
        # a tie goes to the pass, as it always has
        out.append(Rating(a, u - 1e-6, sf, accept, val * ctx.value_weight, d))
    return out


def _pinghu_weight(view: View, wilds: int) -> float:
    """How much 平胡 is worth keeping for this seat: 0 once it holds a bonus tile or a pung
    or kong; else the chance that no bonus tile comes to it before the wall ends (tripled
    with two ★: 平胡 is then a limit hand)."""
    me = view.seat
    if view.bonus[me] or any(m.kind is not MeldKind.CHOW for m in view.table_melds[me]):
        return 0.0
    shown = sum(len(b) for b in view.bonus.values()) + len(view.set_aside)
    bonus_left = max(0, 12 - shown)  # 8 flowers and seasons, 4 white dragons
    hidden = view.wall_left + sum(n for s, n in view.hand_sizes.items() if s is not me)
    draws = max(0, view.wall_left - view.dead_wall) / 4
    clean = float((1 - bonus_left / max(1, hidden)) ** draws)
    return clean * (3.0 if wilds >= 2 else 1.0)


class _Context:
    """What the evaluation needs from the view, computed once per decision."""

    def __init__(
        self,
        view: View,
        wilds: int,
        danger: float = 1.0,
        value: float = 1.0,
        pinghu: float = 0.0,
        pairs: float = 1.0,
    ) -> None:
        self.danger_weight = danger
        self.pair_weight = pairs
        self.value_weight = value
        self.pinghu_weight = _pinghu_weight(view, wilds) * pinghu if pinghu else 0.0
        self.view = view
        self.wilds = wilds
        self.wild_face = view.wild.index
        self.unseen = _unseen(view)
        self.unseen_wilds = max(
            0,
            3
            - wilds
            - sum(1 for ms in view.melds.values() for m in ms for t in m.tiles if t == view.wild),
        )
        self.seat_wind = view.seat.wind.index
        my_melds = view.melds[view.seat]
        self.meld_suits = {m.face.suit for m in my_melds if m.face.is_suited}
        self.meld_honours = any(not m.face.is_suited for m in my_melds)
        self.meld_chows = any(m.kind is MeldKind.CHOW for m in my_melds)
        self.meld_count = len(my_melds)
        late = view.wall_left <= view.dead_wall + 24
        self.threats = [
            s for s in SEATS if s is not view.seat and (len(view.melds[s]) >= 2 or late)
        ]
        self.discarded = {s: {t.index for t, _ in view.discards[s]} for s in SEATS}
        self.far = True  # set by each utility() call, read by danger()
        #: the meld the claim being rated would lay down (for value terms that read melds)
        self.pending: Meld | None = None

    def distance(self, counts: list[int], melds: int) -> int:
        """Shanten of these concealed tiles beside this seat's melds (and ``melds`` more)."""
        return shanten(counts, self.meld_count + melds, self.wilds)

    def parts(self, counts: list[int], melds: int = 0) -> tuple[int, float, float]:
        """Shanten, acceptance and the (unweighted) value term of these concealed tiles."""
        sf = self.distance(counts, melds)
        accept = 0.0
        if sf > -1:
            accept += self.unseen_wilds
            pairs = self.pair_weight
            unseen = self.unseen
            wild = self.wild_face
            faces = [x for x in _neighbours(counts) if x != wild and unseen[x] and counts[x] < 4]
            # each face's tile added in turn, the unchanged suits read once
            after = shanten_each_plus(counts, faces, self.meld_count + melds, self.wilds)
            for x, s in zip(faces, after, strict=True):
                if s < sf:
                    accept += unseen[x] * (pairs if counts[x] >= 2 else 1.0)
        self.far = sf >= 1
        return sf, accept, self._value(counts, melds)

    def combine(self, sf: int, accept: float, value: float) -> float:
        """The utility of :meth:`parts`: distance first, then acceptance, then value."""
        return -100.0 * sf + accept + self.value_weight * value

    def utility(self, counts: list[int], melds: int = 0) -> float:
        """Higher is better: distance first, then acceptance, then value."""
        return self.combine(*self.parts(counts, melds))

    def _value(self, counts: list[int], extra_melds: int) -> float:
        suited = [sum(counts[s * 9 : s * 9 + 9]) for s in range(3)]
        honours = sum(counts[27:34])
        total = sum(suited) + honours
        value = 0.0
        top = max(range(3), key=lambda s: suited[s])
        off_melds = any(s.value != "mps"[top] for s in self.meld_suits)
        if total and not off_melds:
            off = total - suited[top]
            pure_off = off if not self.meld_honours else 99
            if pure_off <= _FLUSH_SPAN:
                value += (_FLUSH_SPAN + 1 - pure_off) * 8.0  # 清一色 is a limit hand
            elif off - honours <= 2:
                value += (3 - (off - honours)) * 3.0  # 混一色: one 台
        for face in {_RED, _GREEN, self.seat_wind}:
            if counts[face] >= 2:
                value += 6.0
        pairs = sum(1 for c in counts if c >= 2)
        if self.pinghu_weight:
            trips = sum(1 for c in counts if c >= 3)
            value -= self.pinghu_weight * (10.0 * max(0, pairs - 1) + 15.0 * trips)
        elif not self.meld_chows and pairs + self.meld_count + extra_melds >= 4:
            value += 4.0
        return value

    def danger(self, face: int) -> float:
        """How dangerous discarding ``face`` is now (0 when nobody threatens or when this
        hand is close enough to push)."""
        if not self.threats or not self.far or not self.danger_weight:
            return 0.0
        risk = 0.0
        for s in self.threats:
            if face not in self.discarded[s]:
                risk += 1.0
        if self.unseen[face] == 0:
            risk *= 0.5  # every other copy is visible: only a wait on this exact tile
        return 12.0 * risk * self.danger_weight
