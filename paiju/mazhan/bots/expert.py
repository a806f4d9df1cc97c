"""The ``expert`` Mazhan bot: information-set Monte Carlo over the tiles it cannot see.

At each decision with more than one sensible answer:

1. **Candidates.** ``strong``'s rating (:func:`~paiju.mazhan.bots.strong.rank_actions`) of the
   discards (or, in a claim window, of the pass and each claim), with three changes measured
   in the arena: a cost on claiming a chow (``chow``: a chow takes the place of the seat's
   own draw, so only the chows that bring the hand a step closer are worth it), and double
   weight, in the acceptance, for the tiles that would make a pair a pung (``pairs``: any
   other seat's discard of them can be claimed, and a pung skips the seats between).
   Third, what the hand would be worth if another seat won (``loser``: the non-winners
   settle their differences in U, rules §7), so triplets are kept and pungs and kongs
   weighed by their points (:func:`rate_with_value`).
   ``pinghu`` > 0 also weighs keeping 平胡 possible (a seat with no bonus tile and no pung
   wins 100, or 400 with two ★, on a discard with chows only; off by default). The best few
   within reach of the top are the candidates, with any kong the seat may declare. A claim
   window is decided by the rating alone (unless ``search_claims``): the rollouts below
   never claim, so they misjudge claims.
2. **Worlds.** :func:`~paiju.mazhan.bots.worlds.sample_world` deals the hidden tiles — the other
   hands, other seats' face-down kongs, the wall's order — at random, consistent with the
   seat's view alone (the same legal actions, claim and 搶槓 windows included).
3. **Rollouts.** In each world, each candidate is played, then the hand is played out to its
   end by a cheap policy for all four seats (:func:`rollout`), and scored by the engine:
   the seat's net 胡, so the hand's value (台, flushes, the 400 cap, dealer ×2), what it
   pays when it deals in and what it gains when another seat does are all counted as the
   rules count them. Every candidate meets the same worlds and the same chance within them
   (common random numbers), so the differences between candidates are far less noisy than
   their values.
4. **Choice.** The top-rated candidate (a kong first, as ``strong`` would declare it)
   stands unless another beats it by a paired margin: mean difference above ``z`` standard
   errors.

Budgets: ``nodes`` (engine actions per decision, reproducible: the arena's default) and
``seconds`` (a wall-clock limit, for the table: ``expert@200ms``). A win (胡) and 殺豬 (400,
the cap) are always taken.

>>> import random
>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> from paiju.mazhan.views import observe
>>> from paiju.mazhan.seats import Seat
>>> view = observe(new_hand(Ruleset(), seed=9), Seat.E)
>>> ExpertBot(nodes=400).act(view, view.legal, random.Random(0)).kind.value in (
...     "discard", "hu", "shazhu", "angang")
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from paiju.bots.sampling import paired_best, play_worlds
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.bots.greedy import natural_counts
from paiju.mazhan.bots.strong import StrongBot, _Context, _neighbours, rate_actions
from paiju.mazhan.bots.value import HandValue, stake_doublings
from paiju.mazhan.bots.worlds import sample_world
from paiju.mazhan.rules import Phase, State, acting, apply, legal_actions_for
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.views import View

__all__ = ["ExpertBot", "SearchStats", "rollout", "rollout_action"]

#: Engine actions per decision in the arena (reproducible per seed).
DEFAULT_NODES = 800
#: ``strong``'s candidates searched, and how far below its top rating they may be.
CANDIDATES = 3
MARGIN = 150.0
#: Standard errors by which a candidate must beat the top-rated one. At 800 nodes a search
#: meets about six worlds, and over 8 hands against ``strong`` (seeds 0–7) none of its 49
#: searches moved off the top-rated candidate: the arena's expert plays its rating.
Z = 2.5
#: The weights of ``strong``'s defence and hand-value terms in the candidates' ranking.
#: Every non-winner pays the winner the same (rules §7), so holding back a tile an opponent
#: may want saves little; with the rating alone, defence off measured −2.51 [−10.11, +5.08]
#: and thrice as strong −1.99 [−4.87, +0.89] 胡/hand against ``strong`` (seed 11, 2,000
#: hands each): neither better, so ``strong``'s own weight stays, as the chow cost and the
#: pair weight below were measured with it.
DANGER = 1.0
VALUE = 1.0
#: The weight of keeping 平胡 possible (see :func:`~paiju.mazhan.bots.strong.rank_actions`): off by
#: default, as weight 1 measured no better over 2 × 2,000 hands (benchmarks/RESULTS.md).
PINGHU = 0.0
#: The cost of claiming a chow in the candidates' ranking (see
#: :func:`~paiju.mazhan.bots.strong.rank_actions`): ``strong`` claims every chow its rating
#: prefers by any margin; a chow that does not bring the hand a step closer gives up a draw
#: for a small gain in acceptance, and passing those measured better (benchmarks/RESULTS.md).
#: Paired on the same deals against 60 (expert with the rating alone in one seat, ``strong``
#: in three, 4,000 hands per seed, the same hands played where the decisions agree;
#: ``benchmarks/expert_variants.py``): 200 (never a chow) −18.89 [−27.33, −10.44] 胡/hand
#: (seed 13), so the chows that bring the hand a step closer are worth much; 30 +1.23
#: [−1.34, +3.80] (13) and −2.14 [−4.76, +0.48] (12); 0 (``strong``'s) +0.38 [−5.31, +6.06]
#: (13) and −10.40 [−16.34, −4.46] (12).
CHOW = 60.0
#: Whether claim windows are searched. The rollouts never claim, for any seat, so they
#: misjudge a claim (they rated a chow above passing by 51 胡 on average where the arena
#: measured the marginal chows a loss): by default a claim window is decided by the rating.
SEARCH_CLAIMS = False
#: The weight, in the acceptance, of the tiles that would make a pair a pung (see
#: :func:`~paiju.mazhan.bots.strong.rank_actions`): any of three seats may discard them for a 碰,
#: a pung that skips the seats between, where a run waits on the seat's own draws (and its
#: chows are now dear).
#: Paired against 2 (seed 13, 4,000 hands, as for the chow): 3 −3.67 [−7.48, +0.13],
#: 1.5 −1.22 [−5.84, +3.40].
PAIRS = 2.0
#: Rating points per doubling of the stake in the value model (:mod:`paiju.mazhan.bots.value`;
#: 0: ``strong``'s value term). Off: against ``strong``, rating alone, 4,000 hands on seed
#: 21, 60 measured +11.24 [+1.34, +21.14], 30 +9.25 [−0.57, +19.07] and 60 without the
#: 平胡 chance +10.57 [+0.80, +20.34], against +14.41 [+4.38, +24.44] with ``strong``'s term.
#: Paired against 0 (seed 13, 4,000 hands, as for the chow): 120 −12.21 [−22.03, −2.39].
VALUE_PER_DOUBLING = 0.0
#: How far below the best discard's rating the discards rated two steps deep may be (0:
#: none). Off: 30 measured +13.93 [+3.45, +24.41] against +14.41 (same seed and hands) at
#: four times the cost.
TWO_STEP = 0.0
#: Rating points per 胡 of what the hand is worth as a non-winner (U), as it stands (0:
#: none). The non-winners settle their differences in U (rules §7): in ``strong``'s own
#: games 96% of non-winners hold some U and the settlement moves 99 胡 per non-winner per
#: hand on average (200 hands), as much as the winner's own value, and a seat does not win
#: three hands in four. Against ``strong``, rating alone, 4,000 hands each (tuning seeds):
#: none +14.41 [+4.38, +24.44] (seed 21) and +11.60 [+1.82, +21.37] (seed 22); weight 1
#: +17.73 [+7.51, +27.95] (21); weight 2.5 +17.85 [+7.60, +28.10] (21) and +13.63
#: [+3.65, +23.61] (22).
LOSER = 2.5
#: Whether U is counted before rounding the base up (see
#: :meth:`~paiju.mazhan.bots.value.HandValue.as_loser_smooth`: a point that does not move the
#: rounded base now may move it when more come). Off: weight 2.5 before rounding measured
#: +14.67 (21) and +15.79 (22), weight 5 +15.25 (21) and +14.72 (22), no better than the
#: rules' own U.
SMOOTH = False
#: At most this many discards (faces) are rated two steps deep.
TWO_STEP_MOST = 3
#: What was tried and not kept, with the figures: docs/bots.md (the expert's settings).


def rollout_action(state: State, seat_index: int, rng: random.Random) -> Action:
    """The cheap rollout policy's action for a seat that may act: win when it can, never
    claim, discard the tile with the fewest neighbours (pairs and near tiles kept).

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> rollout_action(new_hand(Ruleset(), seed=3), 0, random.Random(0)).kind.value in (
    ...     "discard", "hu", "shazhu")
    True
    """
    legal = legal_actions_for(state, SEATS[seat_index])
    for a in legal:
        if a.kind is ActionKind.HU or a.kind is ActionKind.SHAZHU:
            return a
    if state.phase is not Phase.ACT:
        return next(a for a in legal if a.kind is ActionKind.PASS)
    h = state.hands[seat_index]
    best: Action | None = None
    best_key = 1e9
    for a in legal:
        if a.kind is not ActionKind.DISCARD or a.tile is None:
            continue
        f = a.tile.index
        if f >= 27:
            key = 6.0 * (h[f] - 1)
        else:
            r = f % 9
            key = 6.0 * (h[f] - 1) + (1.0 if 0 < r < 8 else 0.0)
            for d, w in ((1, 3.0), (2, 1.5)):
                if r - d >= 0 and h[f - d]:
                    key += w
                if r + d <= 8 and h[f + d]:
                    key += w
        key += rng.random()
        if key < best_key:
            best, best_key = a, key
    return best if best is not None else legal[-1]


def rollout(state: State, seat_index: int, rng: random.Random) -> tuple[int, int]:
    """Play ``state`` to its end with :func:`rollout_action` for every seat; the net 胡 of
    seat ``seat_index`` and the number of engine actions played.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> net, nodes = rollout(new_hand(Ruleset(), seed=3), 0, random.Random(0))
    >>> nodes > 0, isinstance(net, int)
    (True, True)
    """
    nodes = 0
    while state.phase is not Phase.OVER:
        seat = state.current if state.phase is Phase.ACT else acting(state)[0].number - 1
        state, _ = apply(state, rollout_action(state, seat, rng))
        nodes += 1
    assert state.result is not None
    return state.result.settlement.net[SEATS[seat_index]], nodes


class SearchStats:
    """What the last decisions cost: decisions searched, worlds and engine actions.

    >>> SearchStats().worlds
    0
    """

    def __init__(self) -> None:
        self.searched = 0
        self.worlds = 0
        self.nodes = 0
        self.switched = 0


class ExpertBot:
    """Search over sampled worlds; see the module docstring.

    ``nodes``: engine actions per decision (``None``: no node limit); ``seconds``: a
    wall-clock limit per decision (``None``: none), read from ``clock``. At least one of
    the two must be set.

    >>> ExpertBot().name, ExpertBot(seconds=0.2, nodes=None).heavy
    ('expert', True)
    >>> ExpertBot(nodes=None)
    Traceback (most recent call last):
    ...
    ValueError: the expert needs a node budget or a time budget

    Raises ``ValueError`` without a budget, or for a budget that is not positive.
    """

    name = "expert"
    needs_view = True
    #: The server runs a heavy bot's decision in a worker thread.
    heavy = True

    def __init__(
        self,
        nodes: int | None = DEFAULT_NODES,
        seconds: float | None = None,
        candidates: int = CANDIDATES,
        z: float = Z,
        clock: Callable[[], float] = time.perf_counter,
        danger: float = DANGER,
        value: float = VALUE,
        pinghu: float = PINGHU,
        chow: float = CHOW,
        search_claims: bool = SEARCH_CLAIMS,
        pairs: float = PAIRS,
        per_doubling: float = VALUE_PER_DOUBLING,
        two_step: float = TWO_STEP,
        loser: float = LOSER,
    ) -> None:
        if nodes is None and seconds is None:
            raise ValueError("the expert needs a node budget or a time budget")
        if (nodes is not None and nodes < 1) or (seconds is not None and seconds <= 0):
            raise ValueError(f"budgets must be positive, got nodes={nodes} seconds={seconds}")
        self.nodes = nodes
        self.seconds = seconds
        self.candidates = candidates
        self.z = z
        self.clock = clock
        self.danger = danger
        self.value = value
        self.pinghu = pinghu
        self.chow = chow
        self.search_claims = search_claims
        self.pairs = pairs
        self.per_doubling = per_doubling
        self.two_step = two_step
        self.loser = loser
        self.stats = SearchStats()
        self._strong = StrongBot()
        #: The cheaper bot a busy server plays in this one's place (its own rating's base).
        self.fallback = self._strong

    def act(self, view: View | None, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action (see the module docstring).

        >>> ExpertBot().act(None, [Action.parse("N pass"), Action.parse("N hu")],
        ...                 random.Random(0))
        Action.parse('N hu')
        """
        start = self.clock()
        for a in legal:
            if a.kind is ActionKind.HU or a.kind is ActionKind.SHAZHU:
                return a  # 殺豬 is 400, the cap: nothing later is worth more
        if view is None or len(legal) == 1:
            return self._strong.act(view, legal, rng)
        seed = rng.getrandbits(64)
        ranked = rate_with_value(
            view,
            legal,
            self.per_doubling,
            self.danger,
            self.chow,
            self.pairs,
            self.two_step,
            self.loser,
            self.pinghu,
            self.value,
        )
        if not ranked:
            return self._strong.act(view, legal, rng)
        top = ranked[0][0]
        base = ranked[0][1]
        if view.phase is not Phase.ACT and not self.search_claims:
            return base
        candidates = [a for u, a in ranked[: self.candidates] if u >= top - MARGIN]
        specials = [a for a in legal if a.kind in (ActionKind.ANGANG, ActionKind.JIAGANG)]
        if specials:  # strong would declare it: the search starts from there
            base = specials[0]
            candidates = specials + candidates
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, candidates, base, seed, start)

    def _search(
        self, view: View, candidates: list[Action], base: Action, seed: int, start: float
    ) -> Action:
        me = view.seat.number - 1

        def play(world: State, a: Action, chance: random.Random) -> tuple[float, int]:
            net, used = rollout(apply(world, a)[0], me, chance)
            return net, used + 1

        values, worlds, nodes = play_worlds(
            candidates, lambda rng: sample_world(view, rng), play, seed=seed, start=start,
            clock=self.clock, seconds=self.seconds, nodes=self.nodes,
        )  # fmt: skip
        self.stats.searched += 1
        self.stats.worlds += worlds
        self.stats.nodes += nodes
        if worlds < 2:
            return base
        best = paired_best(candidates, values, base, self.z)
        if best is not base:
            self.stats.switched += 1
        return best


class _ValueContext(_Context):
    """``strong``'s evaluation with the hand-value term from the value model
    (:mod:`paiju.mazhan.bots.value`, ``value`` rating points per doubling of the stake; 0 keeps
    ``strong``'s own term), and the acceptance two steps deep on request."""

    def __init__(
        self,
        view: View,
        wilds: int,
        danger: float,
        value: float,
        pairs: float,
        loser: float = 0.0,
        pinghu: float = 0.0,
        weight: float = 1.0,
    ) -> None:
        super().__init__(view, wilds, danger, weight, pinghu, pairs)
        self.loser_weight = loser
        self.per_doubling = value
        self.dealer = view.seat is Seat.E
        self.my_melds = list(view.melds[view.seat])
        self.my_bonus = view.bonus[view.seat]
        self.memo: dict[tuple[int, ...], float] = {}  # acceptance by hand, for speed()

    def _value(self, counts: list[int], extra_melds: int) -> float:
        value = 0.0 if self.per_doubling else super()._value(counts, extra_melds)
        if not self.per_doubling and not self.loser_weight:
            return value
        melds = [*self.my_melds, self.pending] if self.pending is not None else self.my_melds
        hand = HandValue(
            counts, self.wilds, melds, self.my_bonus, self.view.seat.number, self.unseen
        )
        if self.per_doubling:
            value += self.per_doubling * stake_doublings(hand.expected(), self.dealer)
        if self.loser_weight:
            u = hand.as_loser_smooth() if SMOOTH else hand.as_loser()
            value += self.loser_weight * u
        return value

    def _accept(self, counts: list[int], sf: int) -> float:
        """The (weighted) unseen tiles that bring these 16 tiles below shanten ``sf``."""
        accept = float(self.unseen_wilds)
        pairs = self.pair_weight
        for x in _neighbours(counts):
            if x != self.wild_face and self.unseen[x] and counts[x] < 4:
                counts[x] += 1
                if self.distance(counts, 0) < sf:
                    accept += self.unseen[x] * (pairs if counts[x] >= 3 else 1.0)
                counts[x] -= 1
        return accept

    def speed(self, counts: list[int], sf: int, accept: float) -> float:
        """The acceptance two steps deep: the harmonic mean of this hand's acceptance and
        the mean acceptance after one of its tiles arrives and the best discard follows
        (a hand whose next step leaves a poor hand is slower than its acceptance says).
        A ready or complete hand's is its acceptance."""
        if sf < 1 or accept <= 0:
            return accept
        total = 0.0
        weight = 0.0
        pairs = self.pair_weight
        for x in _neighbours(counts):
            if x == self.wild_face or not self.unseen[x] or counts[x] >= 4:
                continue
            counts[x] += 1
            if self.distance(counts, 0) < sf:
                w = self.unseen[x] * (pairs if counts[x] >= 3 else 1.0)
                best = 0.0
                for d in range(34):
                    if counts[d] and d != x:
                        counts[d] -= 1
                        if self.distance(counts, 0) < sf:
                            key = tuple(counts)
                            got = self.memo.get(key)
                            if got is None:
                                got = self.memo[key] = self._accept(counts, sf - 1)
                            best = max(best, got)
                        counts[d] += 1
                total += w * best
                weight += w
            counts[x] -= 1
        if weight <= 0 or total <= 0:
            return accept
        after = total / weight
        return 2.0 / (1.0 / accept + 1.0 / after)


def rate_with_value(
    view: View,
    legal: Sequence[Action],
    per_doubling: float = VALUE_PER_DOUBLING,
    danger: float = DANGER,
    chow: float = CHOW,
    pairs: float = PAIRS,
    two_step: float = 0.0,
    loser: float = 0.0,
    pinghu: float = 0.0,
    value: float = VALUE,
) -> list[tuple[float, Action]]:
    """The expert's rating: ``strong``'s (:func:`~paiju.mazhan.bots.strong.rate_actions`: shanten,
    then acceptance, then value, less danger), best first (ties in the order of ``legal``).
    In a claim window the pass and each claim are rated, a chow less ``chow``.

    - ``loser``: points per 胡 of what the hand would be worth as a non-winner
      (:meth:`~paiju.mazhan.bots.value.HandValue.as_loser`);
    - ``per_doubling``: the value term from the value model, in points per doubling of the
      stake (0: ``strong``'s term, weighed by ``value``);
    - ``two_step`` > 0: the discards rated within ``two_step`` points of the best have their
      acceptance replaced by the acceptance two steps deep (:meth:`_ValueContext.speed`);
    - ``pinghu``, ``danger``, ``pairs``: as in :func:`~paiju.mazhan.bots.strong.rank_actions`.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.views import observe
    >>> view = observe(new_hand(Ruleset(), seed=9), Seat.E)
    >>> {a.kind.value for _, a in rate_with_value(view, view.legal, 60.0)}
    {'discard'}
    """
    counts, wilds = natural_counts(view)
    ctx = _ValueContext(view, wilds, danger, per_doubling, pairs, loser, pinghu, value)
    rated = rate_actions(view, legal, chow=chow, context=ctx)
    out = [(r.utility, r.action) for r in rated]
    if two_step > 0 and out and view.phase is Phase.ACT:
        # the best discards' acceptance two steps deep (the utility is linear in it)
        top = max(u for u, _ in out)
        done: dict[int, float] = {}
        for k in sorted(range(len(out)), key=lambda k: -out[k][0]):
            r = rated[k]
            if r.utility < top - two_step or r.action.tile is None:
                break
            i = r.action.tile.index
            if i not in done:
                if len(done) >= TWO_STEP_MOST:  # the rest rank below those rated
                    out[k] = (r.utility - 2 * two_step, r.action)
                    continue
                counts[i] -= 1
                done[i] = ctx.speed(counts, r.shanten, r.accept)
                counts[i] += 1
            out[k] = (r.utility - r.accept + done[i], r.action)
    out.sort(key=lambda ua: -ua[0])
    return out
