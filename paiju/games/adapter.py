"""What a game's :class:`~paiju.games.Game` adapter only forwards to its rules module, written
once: a game whose core is a rules module (``Ruleset``, ``Phase``, ``acting``,
``legal_actions_for``, ``apply``, ``seat_version``, a state with a ``result``) subclasses
:class:`RulesGame`, names that module, its action class and its ``observe``, and writes only
what is its own (the deals, the settlement, the timeouts, the tally).

>>> from paiju.games import game, names
>>> g = game(names()[0])
>>> isinstance(g, RulesGame), g.is_over(g.new_hand(g.default_ruleset(), 1, {}))
(True, False)
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

__all__ = ["RulesGame"]

S = TypeVar("S")  # a hand's state
A = TypeVar("A")  # an action
V = TypeVar("V")  # a seat's view
R = TypeVar("R")  # a ruleset


class RulesGame(Generic[S, A, V, R]):
    """The hand-level methods of a :class:`~paiju.games.Game` read from the rules module
    :attr:`rules`; :attr:`action` reads an action's text (``action.parse``), :attr:`viewer`
    is the game's ``observe(state, seat)``.

    >>> from paiju.games import game, names
    >>> g = game(names()[0])
    >>> s = g.new_hand(g.default_ruleset(), 1, {})
    >>> seat = g.acting(s)[0]
    >>> after, events = g.apply(s, g.legal_actions(s, seat)[0])
    >>> g.seat_version(after, seat) > g.seat_version(s, seat), isinstance(events, list)
    (True, True)
    """

    #: The game's rules module.
    rules: Any
    #: The game's action class (its ``parse`` reads the notation).
    action: Any
    #: The game's ``observe(state, seat)``.
    viewer: Any
    #: The game's tally class (:meth:`tally` makes an empty one).
    tallies: Any

    def default_ruleset(self) -> R:
        """The default rules.

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); g.default_ruleset() == g.default_ruleset()
        True
        """
        ruleset: R = self.rules.Ruleset()
        return ruleset

    def ruleset_from_json(self, data: object) -> R:
        """Read a ruleset (``ValueError`` if it is not one of this game's).

        >>> from paiju.games import game, names
        >>> g = game(names()[0])
        >>> g.ruleset_from_json({"game": g.name}) == g.default_ruleset()
        True
        """
        ruleset: R = self.rules.Ruleset.from_json(data)
        return ruleset

    def acting(self, state: S) -> tuple[Any, ...]:
        """The seats that must decide now.

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); len(g.acting(g.new_hand(g.default_ruleset(), 1, {})))
        1
        """
        seats: tuple[Any, ...] = self.rules.acting(state)
        return seats

    def legal_actions(self, state: S, seat: Any) -> tuple[A, ...]:
        """The seat's legal actions (none for a seat that may not act now).

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); s = g.new_hand(g.default_ruleset(), 1, {})
        >>> [len(g.legal_actions(s, seat)) > 0 for seat in g.seats].count(True)
        1
        """
        legal: tuple[A, ...] = self.rules.legal_actions_for(state, seat)
        return legal

    def apply(self, state: S, action: A) -> tuple[S, list[Any]]:
        """Apply an action (``RulesError`` if illegal): the new state and its events.

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); s = g.new_hand(g.default_ruleset(), 1, {})
        >>> g.apply(s, g.legal_actions(s, g.acting(s)[0])[0])[0].version
        1
        """
        new, events = self.rules.apply(state, action)
        return new, list(events)

    def observe(self, state: S, seat: Any) -> V:
        """The seat's view.

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); s = g.new_hand(g.default_ruleset(), 1, {})
        >>> g.observe(s, g.seats[2]).to_json()["game"] == g.name
        True
        """
        view: V = type(self).viewer(state, seat)
        return view

    def seat_version(self, state: S, seat: Any) -> int:
        """The version the seat's next action must carry (the view's version).

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); s = g.new_hand(g.default_ruleset(), 1, {})
        >>> g.seat_version(s, g.seats[0])
        0
        """
        return int(self.rules.seat_version(state, seat))

    def tally(self) -> Any:
        """An empty summary of many hands' results (for ``paiju simulate``): the game's
        :attr:`tallies`.

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); g.tally().summary(0) == g.tally().summary(0)
        True
        """
        return self.tallies()

    def is_over(self, state: S) -> bool:
        """True once the hand has ended.

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); g.is_over(g.new_hand(g.default_ruleset(), 1, {}))
        False
        """
        return bool(state.phase is self.rules.Phase.OVER)  # type: ignore[attr-defined]

    def result_json(self, state: S) -> dict[str, Any]:
        """The result of a finished hand.

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); g.result_json(g.new_hand(g.default_ruleset(), 1, {}))
        Traceback (most recent call last):
        ...
        ValueError: the hand is not over

        Raises ``ValueError`` before the end.
        """
        result: dict[str, Any] = self.finished(state).to_json()
        return result

    def parse_action(self, text: str) -> A:
        """Read an action (``NotationError`` if malformed).

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); s = g.new_hand(g.default_ruleset(), 1, {})
        >>> first = g.legal_actions(s, g.acting(s)[0])[0]
        >>> g.parse_action(str(first)) == first
        True
        """
        action: A = self.action.parse(text)
        return action

    def finished(self, state: S) -> Any:
        """The result of a finished hand (the state's ``result``).

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); g.finished(g.new_hand(g.default_ruleset(), 1, {}))
        Traceback (most recent call last):
        ...
        ValueError: the hand is not over

        Raises ``ValueError`` while the hand is not over.
        """
        result = state.result  # type: ignore[attr-defined]
        if result is None:
            raise ValueError("the hand is not over")
        return result

    def legal_or_raise(self, state: S, seat: Any) -> tuple[A, ...]:
        """The seat's legal actions, for a timeout's choice.

        >>> from paiju.games import game, names
        >>> g = game(names()[0]); s = g.new_hand(g.default_ruleset(), 1, {})
        >>> idle = next(seat for seat in g.seats if seat not in g.acting(s))
        >>> g.legal_or_raise(s, idle)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: seat ... has nothing to do

        Raises ``ValueError`` when the seat has nothing to do.
        """
        legal = self.legal_actions(state, seat)
        if not legal:
            raise ValueError(f"seat {seat.value} has nothing to do")
        return legal
