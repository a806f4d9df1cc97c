"""The hand review: for a finished hand and one seat, every decision the seat made, the
expert's choice from the seat's view, and, where they differ, what each is worth.

The estimate (docs/bots.md, "The hand review"): at a decision where the seat's play and the
expert's differ, ``W`` worlds are drawn from the seat's **view alone** (the game's
:attr:`Reviewer.sample`: the hidden cards or tiles dealt at random from those the seat has
not seen, never the true deal); in each world both choices are played, then the hand is
played to its end by the game's rollout bot (:attr:`Reviewer.rollout`) in every seat, with
the same world and the same chance for both (common random numbers). The seat's net at the
end, in the game's unit, is the value; the loss is the expert's value less the played one's,
world by world, with its 95% interval (:func:`paiju.stats.paired_difference`).

A game offers a review by registering its :class:`Reviewer` from its bots package
(:func:`register_reviewer`, next to ``register_bots``); this module names no game and finds
the reviewer as the bots' registry finds the bots, importing the game's bots package on the
first look-up.

>>> from paiju.bots.base import make_bot
>>> from paiju.bots.driver import play_match
>>> from paiju.games import game, names
>>> g = game(names()[0])
>>> bots = [make_bot(g.name, "greedy") for _ in range(4)]
>>> record = play_match(g.default_ruleset(), bots, seed=3, hands=1)[0].to_json()
>>> review = review_hand(record, "E", seed=1, worlds=2)
>>> review.decisions > 0, 0.0 <= review.agreement <= 1.0
(True, True)
>>> review == review_hand(record, "E", seed=1, worlds=2)  # deterministic per seed
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.bots.base import Bot, make_bot
from paiju.bots.driver import run_hand
from paiju.bots.sampling import play_worlds
from paiju.errors import ReplayError
from paiju.games import Game, registration
from paiju.games.lazy_registry import LazyRegistry
from paiju.records import check_record, read_record
from paiju.stats import Interval, mean_interval, paired_difference

__all__ = [
    "DEFAULT_WORLDS",
    "Decision",
    "DecisionReview",
    "Review",
    "Reviewer",
    "decisions_of",
    "format_review",
    "register_reviewer",
    "review_decision",
    "review_hand",
    "reviewer_of",
]

#: Worlds per differing decision by default: each costs two rollouts of the game's rollout
#: bot to the hand's end (docs/bots.md: the estimate's error at this count).
DEFAULT_WORLDS = 32


@dataclass(frozen=True, slots=True)
class Reviewer:
    """What a game gives the review: ``sample(view, rng)`` a full state consistent with one
    seat's view alone (the seat at the same decision, the same legal actions); ``rollout``
    and ``expert`` the names of the bots (``make_bot``) that play the rollouts in every seat
    and whose choice is compared; ``kind(legal)`` what kind of decision a seat's legal
    actions offer (``"discard"``, ``"claim or pass"`` …), for people.

    >>> Reviewer(lambda view, rng: view, "greedy", "strong").kind(["a", "b"])
    'decision'
    """

    sample: Callable[[Any, random.Random], Any]
    rollout: str
    expert: str
    kind: Callable[[Sequence[Any]], str] = field(default=lambda legal: "decision")


_REVIEWERS: LazyRegistry[Reviewer] = LazyRegistry("bots")


def register_reviewer(game: str, reviewer: Reviewer) -> Reviewer:
    """Register ``game``'s reviewer (again: replaced), from the game's bots package.

    >>> r = register_reviewer("cards", Reviewer(lambda v, rng: v, "random", "random"))
    >>> reviewer_of("cards") is r
    True
    """
    _REVIEWERS.entries[game] = reviewer
    return reviewer


def reviewer_of(game: str) -> Reviewer:
    """The reviewer of ``game``.

    >>> from paiju.games import names
    >>> reviewer_of(names()[0]).rollout in ("strong", "heuristic")
    True
    >>> reviewer_of("go")
    Traceback (most recent call last):
    ...
    KeyError: 'go: no review for this game'

    Raises ``KeyError`` for a game that offers no review.
    """
    entry = _REVIEWERS.get(game)
    if entry is None:
        raise KeyError(f"{game}: no review for this game")
    return entry


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat in a hand: the step (the actions before it: the
    action's index in the record, and the replay's step that shows the decision), the
    state before it, the seat's legal actions and what it played."""

    step: int
    state: Any
    legal: tuple[Any, ...]
    played: Any


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision reviewed: its step, kind, what was played and what the expert chose
    (in the game's notation), how many actions were legal; where the two differ, each one's
    value over the worlds and the loss (the expert's value less the played one's, paired
    world by world), all in the game's unit with 95% intervals.

    >>> d = DecisionReview(4, "discard", "E discard 1m", "E discard 1m", 3)
    >>> d.agrees, d.to_json()["loss"]
    (True, None)
    """

    step: int
    kind: str
    played: str
    expert: str
    legal: int
    played_value: Interval | None = None
    expert_value: Interval | None = None
    loss: Interval | None = None

    @property
    def agrees(self) -> bool:
        """Whether the seat played the expert's choice.

        >>> DecisionReview(0, "claim or pass", "S pass", "S peng", 2).agrees
        False
        """
        return self.played == self.expert

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON (intervals as ``{"mean", "lo", "hi", "n"}``, or ``None``).

        >>> DecisionReview(0, "win or not", "S pass", "S hu", 2, loss=Interval(9.0, 1.0,
        ...     17.0, 8)).to_json()["loss"]
        {'mean': 9.0, 'lo': 1.0, 'hi': 17.0, 'n': 8}
        """
        return {
            "step": self.step,
            "kind": self.kind,
            "played": self.played,
            "expert": self.expert,
            "legal": self.legal,
            "agrees": self.agrees,
            "played_value": _interval_json(self.played_value),
            "expert_value": _interval_json(self.expert_value),
            "loss": _interval_json(self.loss),
        }


def _interval_json(i: Interval | None) -> dict[str, Any] | None:
    if i is None:
        return None
    lo = None if i.lo != i.lo else round(i.lo, 2)  # NaN: no interval
    hi = None if i.hi != i.hi else round(i.hi, 2)
    return {"mean": round(i.mean, 2), "lo": lo, "hi": hi, "n": i.n}


@dataclass(frozen=True, slots=True)
class Review:
    """A hand's review for one seat: every decision in play order, and the settings that
    made it (``seed``, ``worlds``, the bots), the game's unit.

    >>> r = Review("g", 0, "E", "units", 1, 8, "strong", "expert", (
    ...     DecisionReview(2, "discard", "E discard 1m", "E discard 2m", 3,
    ...                    loss=Interval(12.0, 2.0, 22.0, 8)),
    ...     DecisionReview(5, "discard", "E discard 3m", "E discard 3m", 2)))
    >>> r.agreement, r.total_loss, [d.step for d in r.ranked()]
    (0.5, 12.0, [2])
    >>> print(r.summary())
    E: 1/2 as the expert (50%); estimated loss 12.0 units over 1 that differ (1 beyond the noise)
    """

    game: str
    hand: int | None
    seat: str
    unit: str
    seed: int
    worlds: int
    rollout: str
    expert: str
    items: tuple[DecisionReview, ...]

    @property
    def decisions(self) -> int:
        """How many decisions the seat made (more than one legal action)."""
        return len(self.items)

    @property
    def agreement(self) -> float:
        """The share of the seat's decisions where it played the expert's choice (1.0 for
        a hand without a decision)."""
        if not self.items:
            return 1.0
        return sum(d.agrees for d in self.items) / len(self.items)

    @property
    def total_loss(self) -> float:
        """The estimated losses summed over the decisions that differ (a negative loss, the
        rollouts preferring the seat's play, counts as it is)."""
        return sum(d.loss.mean for d in self.items if d.loss is not None)

    def ranked(self) -> list[DecisionReview]:
        """The decisions that differ, largest estimated loss first (then play order)."""
        differ = [d for d in self.items if d.loss is not None]
        return sorted(differ, key=lambda d: (-(d.loss.mean if d.loss else 0.0), d.step))

    def flagged(self) -> list[DecisionReview]:
        """The decisions beyond the noise: the loss's interval lies above 0 (the rollouts say
        the expert's choice was worth more), largest loss first."""
        return [d for d in self.ranked() if d.loss is not None and d.loss.lo > 0]

    def summary(self) -> str:
        """The one-line summary: agreement rate and total estimated loss."""
        agreed = sum(d.agrees for d in self.items)
        return (
            f"{self.seat}: {agreed}/{self.decisions} as the expert "
            f"({self.agreement:.0%}); estimated loss {self.total_loss:.1f} {self.unit} over "
            f"{self.decisions - agreed} that differ ({len(self.flagged())} beyond the noise)"
        )

    def to_json(self) -> dict[str, Any]:
        """The review as JSON: the settings, the summary's figures, every decision in play
        order and the steps of those that differ, largest loss first.

        >>> Review("g", 0, "E", "u", 1, 8, "r", "x", ()).to_json()["agreement"]
        1.0
        """
        return {
            "game": self.game,
            "hand": self.hand,
            "seat": self.seat,
            "unit": self.unit,
            "seed": self.seed,
            "worlds": self.worlds,
            "rollout": self.rollout,
            "expert": self.expert,
            "decisions": self.decisions,
            "agreement": round(self.agreement, 4),
            "total_loss": round(self.total_loss, 2),
            "summary": self.summary(),
            "ranked": [d.step for d in self.ranked()],
            "flagged": [d.step for d in self.flagged()],
            "items": [d.to_json() for d in self.items],
        }


def decisions_of(
    g: Game[Any, Any, Any, Any], record: Mapping[str, Any], seat: Any
) -> list[Decision]:
    """Every decision ``seat`` made in a record's hand: each action of the seat's at a state
    where it had more than one legal action (a forced move is no decision).

    >>> from paiju.bots.driver import play_match
    >>> from paiju.bots.uniform import RandomBot
    >>> from paiju.games import game, names
    >>> g = game(names()[0])
    >>> record = play_match(g.default_ruleset(), [RandomBot()] * 4, seed=3)[0].to_json()
    >>> all(d.played in d.legal for d in decisions_of(g, record, g.seats[0]))
    True

    Raises :class:`~paiju.errors.ReplayError` for a record that does not replay.
    """
    _g, ruleset, seed, setup, actions = read_record(record)
    state = g.new_hand(ruleset, seed, setup)
    found: list[Decision] = []
    for step, text in enumerate(actions):
        action = g.parse_action(text)
        legal = tuple(g.legal_actions(state, seat))
        if len(legal) > 1 and action in legal:
            found.append(Decision(step, state, legal, action))
        state, _ = g.apply(state, action)
    return found


def _decision_seed(seed: int, step: int) -> int:
    """The seed of one decision's review: the expert's chance and the worlds' (a decision's
    review does not depend on which others were reviewed)."""
    return random.Random(seed * 1_000_003 + step).getrandbits(63)


def review_decision(
    game_name: str,
    state: Any,
    seat: Any,
    played: Any,
    *,
    step: int,
    seed: int,
    worlds: int = DEFAULT_WORLDS,
    bots: tuple[Bot, Sequence[Bot]] | None = None,
) -> DecisionReview:
    """Review one decision: ``seat`` played ``played`` in ``state``. Only the seat's view
    of ``state`` (``observe``) and its legal actions are read, so two states that look the
    same to the seat give the same review.

    ``bots``: the expert and the four rollout bots (made from the reviewer's names when
    ``None``).

    >>> from paiju.games import game, names
    >>> g = game(names()[0])
    >>> start = g.new_hand(g.default_ruleset(), 5, g.first_deal(random.Random(5)).setup)
    >>> seat = g.acting(start)[0]
    >>> first = g.legal_actions(start, seat)[0]
    >>> d = review_decision(g.name, start, seat, first, step=0, seed=1, worlds=2)
    >>> d.agrees or d.loss.n == 2
    True
    """
    g = registration(game_name).game
    reviewer = reviewer_of(game_name)
    expert, rollers = bots or _bots(game_name, reviewer)
    view = g.observe(state, seat)
    legal = tuple(g.legal_actions(state, seat))
    base = _decision_seed(seed, step)
    choice = expert.act(view, legal, random.Random(base))
    d = DecisionReview(step, reviewer.kind(legal), str(played), str(choice), len(legal))
    if d.agrees:
        return d
    me = g.seats.index(seat)

    def play(world: Any, action: Any, chance: random.Random) -> tuple[float, int]:
        after, _ = g.apply(world, action)
        final, moves = run_hand(g, after, rollers, chance.getrandbits(63))
        return g.nets(final)[me], len(moves) + 1

    values, _n, _spent = play_worlds(
        [played, choice], lambda rng: reviewer.sample(view, rng), play, seed=base,
        start=0.0, clock=lambda: 0.0, seconds=None, worlds=worlds,
    )  # fmt: skip
    return DecisionReview(
        d.step, d.kind, d.played, d.expert, d.legal,
        played_value=mean_interval(values[0]),
        expert_value=mean_interval(values[1]),
        loss=paired_difference(values[1], values[0]),
    )  # fmt: skip


def _bots(game_name: str, reviewer: Reviewer) -> tuple[Bot, list[Bot]]:
    return make_bot(game_name, reviewer.expert), [
        make_bot(game_name, reviewer.rollout) for _ in range(4)
    ]


def review_hand(
    record: Mapping[str, Any],
    seat: str,
    *,
    seed: int = 0,
    worlds: int = DEFAULT_WORLDS,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a finished hand's record for the seat named ``seat`` (``"E"`` …): every
    decision it made (:func:`decisions_of`), each reviewed by :func:`review_decision`.
    ``progress(done, total)`` is told once the decisions are found, then after each.
    Deterministic for a ``seed``.

    >>> from paiju.bots.driver import play_match
    >>> from paiju.bots.uniform import RandomBot
    >>> from paiju.games import game, names
    >>> record = play_match(game(names()[-1]).default_ruleset(), [RandomBot()] * 4, 2)[0]
    >>> review_hand(record.to_json(), "X")
    Traceback (most recent call last):
    ...
    paiju.errors.ReplayError: no seat 'X': the seats are E, S, W, N

    Raises :class:`~paiju.errors.ReplayError` for a malformed or unfinished record, a seat
    the game does not have, a game without a review, or fewer than two worlds.
    """
    check_record(record)
    g = read_record(record)[0]
    letters = [s.value for s in g.seats]
    if seat not in letters:
        raise ReplayError(f"no seat {seat!r}: the seats are {', '.join(letters)}")
    if worlds < 2:
        raise ReplayError(f"worlds: at least 2 (an interval needs two), got {worlds}")
    try:
        reviewer = reviewer_of(g.name)
    except KeyError as err:
        raise ReplayError(str(err.args[0])) from None
    who = g.seats[letters.index(seat)]
    found = decisions_of(g, record, who)
    bots = _bots(g.name, reviewer)
    items: list[DecisionReview] = []
    if progress is not None:
        progress(0, len(found))  # the total is known before the first decision's rollouts
    for n, d in enumerate(found, start=1):
        items.append(
            review_decision(
                g.name, d.state, who, d.played, step=d.step, seed=seed, worlds=worlds, bots=bots
            )
        )
        if progress is not None:
            progress(n, len(found))
    hand = record.get("hand")
    return Review(
        g.name,
        hand if isinstance(hand, int) and not isinstance(hand, bool) else None,
        seat,
        registration(g.name).unit,
        seed,
        worlds,
        reviewer.rollout,
        reviewer.expert,
        tuple(items),
    )


def format_review(review: Review) -> str:
    """The review as text: the summary line, then the decisions that differ, largest loss
    first: the move's number, its kind, what was played and the expert's choice, the loss
    and the two values (95% intervals).

    >>> r = Review("g", 0, "E", "u", 1, 8, "r", "x", (DecisionReview(2, "discard",
    ...     "E discard 1m", "E discard 2m", 3, Interval(-10.0, -30.0, 10.0, 8),
    ...     Interval(2.0, -18.0, 22.0, 8), Interval(12.0, 2.0, 22.0, 8)),))
    >>> print(format_review(r))
    E: 0/1 as the expert (0%); estimated loss 12.0 u over 1 that differ (1 beyond the noise)
    move  kind             played → expert                 loss              played; expert
       3  discard          E discard 1m → E discard 2m     +12.0 [+2, +22]   -10.0; +2.0
    (the seat's net in u, 8 worlds from its view, rollouts by r; hand 0, seed 1)
    """
    lines = [review.summary()]
    ranked = review.ranked()
    if ranked:
        lines.append(
            f"{'move':>4}  {'kind':<15}  {'played → expert':<30}  {'loss':<16}  played; expert"
        )
        for d in ranked:
            played = d.played_value.mean if d.played_value else 0.0
            expert = d.expert_value.mean if d.expert_value else 0.0
            lines.append(
                f"{d.step + 1:>4}  {d.kind:<15}  {d.played + ' → ' + d.expert:<30}  "
                f"{_shown(d.loss):<16}  {played:+.1f}; {expert:+.1f}"
            )
    lines.append(
        f"(the seat's net in {review.unit}, {review.worlds} worlds from its view, rollouts by "
        f"{review.rollout}; hand {review.hand}, seed {review.seed})"
    )
    return "\n".join(lines)


def _shown(i: Interval | None) -> str:
    if i is None:
        return ""
    if not i.defined:
        return f"{i.mean:+.1f}"
    return f"{i.mean:+.1f} [{i.lo:+.0f}, {i.hi:+.0f}]"
