"""The Ma Diao ``heuristic`` bot: keep red cards to capture with, lead what cannot be beaten.

- Leading: a card that no unseen card of its suit can beat wins the trick, so lead it (the
  most valuable first: 賞 and 百老 score on the table). Otherwise lead the lowest 青 card of the
  longest suit, and keep the red cards back.
- Following: capture when this seat plays last, or when the capturing card cannot be beaten
  by any card still unseen, with the lowest card that does; hold back (滅) otherwise, throwing
  the least useful card face down.

>>> import random
>>> from paiju.madiao.rules import Ruleset, new_hand
>>> from paiju.madiao.views import observe
>>> from paiju.madiao.seats import Seat
>>> s = new_hand(Ruleset(), seed=5, banker=Seat.E)
>>> HeuristicBot().act(observe(s, Seat.E), observe(s, Seat.E).legal, random.Random(0)).kind.value
'fa'
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from paiju.bots.base import ViewBot
from paiju.bots.sampling import paired_best, play_worlds
from paiju.madiao.cards import ALL_CARDS, Card, Role
from paiju.madiao.rules import Action, ActionKind, State
from paiju.madiao.rules import Phase as MadiaoPhase
from paiju.madiao.rules import Ruleset as MadiaoRuleset
from paiju.madiao.rules import State as MadiaoState
from paiju.madiao.rules import apply as madiao_apply
from paiju.madiao.rules import legal_actions_for as madiao_legal
from paiju.madiao.scoring import BAILAO
from paiju.madiao.seats import SEATS as MADIAO_SEATS
from paiju.madiao.views import View

__all__ = [
    "ExpertMadiaoBot",
    "HeuristicBot",
    "heuristic_play",
    "madiao_rollout",
    "sample_madiao_world",
]

_KEEP = {
    Role.SHANG: 6,
    Role.BAI: 6,
    Role.JIAN: 5,
    Role.JI: 3,
    Role.DING: 2,
    Role.FUJI: 1,
    Role.QING: 0,
}


def _value(card: Card) -> int:
    """How much a card is worth keeping."""
    return _KEEP[card.role] * 10 + card.rank


#: Each card's keeping value, and the cards of its suit that beat it, by index.
_VALUES = tuple(_value(c) for c in ALL_CARDS)
_HIGHER = tuple(
    frozenset(o.index for o in ALL_CARDS if o.suit is c.suit and o.rank > c.rank) for c in ALL_CARDS
)


def _unbeatable(card: Card, known: set[int] | frozenset[int]) -> bool:
    return _HIGHER[card.index] <= known


def heuristic_play(legal: Sequence[Action], known: set[int], trick_len: int) -> Action:
    """``heuristic``'s play from what it needs: the legal plays, the cards the seat knows
    (its hand and every face-up card) and how many cards the trick holds.

    >>> heuristic_play([Action.parse("E fa 9m"), Action.parse("E fa 1m")], set(), 0)
    Action.parse('E fa 9m')
    """
    if len(legal) == 1:
        return legal[0]
    if legal[0].kind is ActionKind.FA:
        sure = [a for a in legal if _unbeatable(a.card, known)]
        if sure:
            return max(sure, key=lambda a: _VALUES[a.card.index])
        counts: dict[object, int] = {}
        for a in legal:
            counts[a.card.suit] = counts.get(a.card.suit, 0) + 1
        return min(
            legal,
            key=lambda a: (
                _VALUES[a.card.index] >= 30,
                -counts[a.card.suit],
                _VALUES[a.card.index],
            ),
        )
    captures = [a for a in legal if a.kind is ActionKind.ZHUO]
    last = trick_len == 3
    good = [a for a in captures if last or _unbeatable(a.card, known)]
    if good:
        return min(good, key=lambda a: a.card.rank)
    discards = [a for a in legal if a.kind is ActionKind.MIE]
    return min(discards, key=lambda a: _VALUES[a.card.index])


class HeuristicBot(ViewBot[View, Action]):
    """Plays to win tricks it can hold and to get its red cards 上桌.

    >>> HeuristicBot().name
    'heuristic'
    >>> HeuristicBot().act(None, [Action.parse("E fa 9m"), Action.parse("E fa 8m")],
    ...                     random.Random(0))
    Action.parse('E fa 9m')
    """

    name = "heuristic"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose a play (see the module docstring).

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> from paiju.madiao.views import observe
        >>> from paiju.madiao.seats import Seat
        >>> view = observe(new_hand(Ruleset(), seed=5, banker=Seat.E), Seat.E)
        >>> HeuristicBot().choose(view, view.legal, random.Random(0)).kind.value
        'fa'
        """
        known = {c.index for c in view.seen} | {c.index for c in view.hand}
        return heuristic_play(legal, known, len(view.trick))


# --- search: the ``expert`` bot ---------------------------------------------------------------

#: Sampled worlds per decision in the arena (reproducible per seed).
DEFAULT_WORLDS = 8


def sample_madiao_world(view: View, rng: random.Random) -> State:
    """A full Ma Diao state consistent with ``view``: the other hands, the cards others threw
    face down and the stock under the 面張 dealt at random from the cards this seat has not
    seen; the seat's legal plays are the view's.

    The view does not keep the finished tricks one by one, so the world leaves their order
    out (``history`` empty): the settlement does not read it (包賠 is only logged), and
    which top cards captured which (``captured``, for 開沖) is left empty too.

    >>> from paiju.madiao.rules import Ruleset, new_hand, legal_actions_for
    >>> from paiju.madiao.views import observe
    >>> from paiju.madiao.seats import Seat
    >>> v = observe(new_hand(Ruleset(), seed=5, banker=Seat.S), Seat.W)
    >>> w = sample_madiao_world(v, random.Random(0))
    >>> w.hands[2] == [c.index for c in v.hand], len(w.stock), w.mian == v.mian
    (True, 8, True)

    Raises ``ValueError`` for a finished hand or a view no hand can match.
    """
    if view.phase is MadiaoPhase.OVER:
        raise ValueError("the hand is over: nothing is hidden")
    me = view.seat.number - 1
    known = {c.index for c in view.hand}
    known |= {c.index for c in view.seen}
    known |= {c.index for c in view.face_down_cards}
    known.add(view.mian.index)
    for _s, c, _up in view.trick:
        if c is not None:
            known.add(c.index)
    pool = [c for c in range(40) if c not in known]
    rng.shuffle(pool)
    hands: list[list[int]] = [[], [], [], []]
    hands[me] = sorted(c.index for c in view.hand)
    for k, seat in enumerate(MADIAO_SEATS):
        if k != me:
            hands[k] = sorted(pool.pop() for _ in range(view.hand_sizes[seat]))
    trick: list[tuple[int, int, bool]] = []
    down_in_trick = dict.fromkeys(MADIAO_SEATS, 0)
    for s, c, up in view.trick:
        if c is None:
            down_in_trick[s] += 1
        trick.append((s.number - 1, pool.pop() if c is None else c.index, up))
    out_down: list[int] = [c.index for c in view.face_down_cards]
    mine_in_trick = sum(1 for s, _c, up in view.trick if s is view.seat and not up)
    del out_down[len(out_down) - mine_in_trick :]
    down_of: dict[int, int] = {}
    for k, seat in enumerate(MADIAO_SEATS):
        if k != me:
            for _ in range(view.face_down[seat] - down_in_trick[seat]):
                card = pool.pop()
                out_down.append(card)
                down_of[card] = k
    if len(pool) != 7:
        raise ValueError(f"the view leaves {len(pool)} cards for the stock, not 7")
    stock = (*pool, view.mian.index)
    table = [[c.index for c in view.table[s]] for s in MADIAO_SEATS]
    on_table = {c for t in table for c in t}
    ups_in_trick = {c.index for _s, c, up in view.trick if up and c is not None}
    out_up = [c.index for c in view.seen if c.index not in on_table and c.index not in ups_in_trick]
    b = BAILAO.index
    holder = -1
    for k in range(4):
        if b in hands[k] or b in table[k]:
            holder = k
    if b in {c.index for c in view.face_down_cards}:
        holder = me
    for player, played, _up in trick:
        if played == b:
            holder = player
    if b in down_of:
        holder = down_of[b]
    if holder < 0 and b in out_up:
        holder = rng.choice([k for k in range(4) if k != me])
    state = MadiaoState(
        MadiaoRuleset(),
        0,
        tuple(range(40)),
        view.banker.number - 1,
        hands,
        holder,
        stock,
        view.leader.number - 1,
        -1 if view.turn is None else view.turn.number - 1,
        view.trick_no,
        trick,
        table,
        [view.tricks_won[s] for s in MADIAO_SEATS],
        {},
        out_up,
        out_down,
        version=view.version,
    )
    if madiao_legal(state, view.seat) != view.legal:
        raise ValueError("the sampled world gives the seat other plays than the view")
    return state


def madiao_rollout(state: State, seat_index: int, rng: random.Random) -> int | float:
    """Play ``state`` to its end with ``heuristic`` at every seat; seat ``seat_index``'s net.

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> isinstance(madiao_rollout(new_hand(Ruleset(), seed=2), 0, random.Random(0)), int)
    True
    """
    while state.phase is not MadiaoPhase.OVER:
        seat = MADIAO_SEATS[state.turn]
        legal = madiao_legal(state, seat)
        known = {*state.hands[state.turn], *state.out_up}
        for t in state.table:
            known.update(t)
        known.update(c for _s, c, up in state.trick if up)
        state, _ = madiao_apply(state, heuristic_play(legal, known, len(state.trick)))
    assert state.result is not None
    net = state.result.settlement.net[MADIAO_SEATS[seat_index]]
    return int(net) if net == int(net) else float(net)


class ExpertMadiaoBot:
    """Ma Diao by search: each legal play is tried in the same sampled worlds
    (:func:`sample_madiao_world`) and played out by ``heuristic`` at every seat; the play
    with the best mean net wins, unless it does not beat ``heuristic``'s own choice by ``z``
    standard errors of the paired difference. ``worlds`` per decision (the arena's budget,
    reproducible), and optionally a wall-clock limit ``seconds`` read from ``clock`` (the
    table's).

    >>> ExpertMadiaoBot().name
    'expert'
    >>> ExpertMadiaoBot(worlds=1)
    Traceback (most recent call last):
    ...
    ValueError: the search needs 2 or more worlds, got 1

    Raises ``ValueError`` for fewer than two worlds.
    """

    name = "expert"
    needs_view = True
    heavy = True

    def __init__(
        self,
        worlds: int = DEFAULT_WORLDS,
        z: float = 1.0,
        seconds: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if worlds < 2:
            raise ValueError(f"the search needs 2 or more worlds, got {worlds}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"a time budget must be positive, got {seconds}")
        self.worlds = worlds
        self.z = z
        self.seconds = seconds
        self.clock = clock
        self._base = HeuristicBot()
        #: The cheaper bot a busy server plays in this one's place (the rollouts' own).
        self.fallback = self._base

    def act(self, view: View | None, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose a play by search.

        >>> import random
        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> from paiju.madiao.views import observe
        >>> from paiju.madiao.seats import Seat
        >>> v = observe(new_hand(Ruleset(), seed=5, banker=Seat.E), Seat.E)
        >>> ExpertMadiaoBot(worlds=2).act(v, v.legal, random.Random(0)) in v.legal
        True
        """
        start = self.clock()
        base = self._base.act(view, legal, rng)
        if view is None or len(legal) == 1:
            return base
        seed = rng.getrandbits(64)
        me = view.seat.number - 1
        candidates = list(dict.fromkeys(legal))

        def play(world: MadiaoState, a: Action, chance: random.Random) -> tuple[float, int]:
            return float(madiao_rollout(madiao_apply(world, a)[0], me, chance)), 0

        values, n, _ = play_worlds(
            candidates, lambda rng: sample_madiao_world(view, rng), play, seed=seed,
            start=start, clock=self.clock, seconds=self.seconds, worlds=self.worlds,
        )  # fmt: skip
        if n < 2:
            return base
        return paired_best(candidates, values, base, self.z)
