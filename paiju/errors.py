"""The errors every game core raises, each with a stable ``code``.

A server sends the code to the client, the CLI prints the message on one line and exits 2.

>>> from paiju.errors import NotationError
>>> err = NotationError("8z is not a tile", text="8z", position=0)
>>> err.code
'notation'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

#: The most of an input string a :meth:`RulesError.detail` repeats.
DETAIL_CHARS = 200

#: A parameter of an error's ``why``: a tile or card code, a seat letter, a count.
Param = str | int


class RulesError(ValueError):
    """Base class of every rule, notation and input error raised by a game core.

    Besides its English message, an error about input a person typed may say what is wrong
    in a form a client can put into any language: ``why``, a stable key (``"seat_size"``);
    ``field``, where in the input (``"players.S"``); and ``params``, the key's values (tile
    codes, seat letters, counts). :meth:`detail` gathers them for the wire.

    >>> RulesError("no").code
    'rules'
    >>> err = RulesError("players.S: holds 15 tiles", why="seat_size", field="players.S", size=15)
    >>> err.detail()
    {'why': 'seat_size', 'field': 'players.S', 'params': {'size': 15}}
    >>> RulesError("no").detail() is None
    True

    Each kind of error names its ``code`` where it is declared (``class
    GameOverError(IllegalActionError, code="game_over")``):

    >>> kinds = (NotationError, InvalidHandError, IllegalActionError, NotYourTurnError,
    ...          GameOverError, InvalidRulesetError, InvalidPositionError, ReplayError)
    >>> [k.code for k in kinds]
    ['notation', 'invalid_hand', 'illegal_action', 'not_your_turn', 'game_over',
     'invalid_ruleset', 'invalid_position', 'replay_mismatch']
    >>> NotationError("bad", "9x", 1).code, GameOverError("over").code
    ('notation', 'game_over')
    """

    code = "rules"

    def __init_subclass__(cls, code: str = "", **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if code:
            cls.code = code

    def __init__(self, message: str = "", *, why: str = "", field: str = "", **params: Param):
        super().__init__(message)
        self.why = why
        self.field = field
        self.params = params

    def detail(self) -> dict[str, object] | None:
        """``why``, ``field`` and ``params`` as a JSON object; ``None`` when the error has no
        ``why`` (its message is all there is).

        >>> InvalidHandError("x", why="one_tile", field="wild", got="").detail()
        {'why': 'one_tile', 'field': 'wild', 'params': {'got': ''}}
        """
        if not self.why:
            return None
        params = {
            k: v[:DETAIL_CHARS] + "…" if isinstance(v, str) and len(v) > DETAIL_CHARS else v
            for k, v in self.params.items()
        }
        return {"why": self.why, "field": self.field, "params": params}

    def under(self, field: str) -> InvalidHandError:
        """This error as found in the input's ``field``: the message prefixed with it, the
        ``why`` and ``params`` kept.

        >>> err = NotationError("unknown suit letter 'x'", "9x", 1, why="notation_letter")
        >>> bad = err.under("wild")
        >>> str(bad)
        "wild: unknown suit letter 'x' in '9x' at position 1"
        >>> bad.detail()
        {'why': 'notation_letter', 'field': 'wild', 'params': {'text': '9x', 'position': 1}}
        """
        return InvalidHandError(f"{field}: {self}", why=self.why, field=field, **self.params)


class NotationError(RulesError, code="notation"):
    """A tile or card string that does not follow the notation.

    The message quotes the input and names the position of the fault.

    >>> e = NotationError("unknown suit letter 'x'", text="12x", position=2)
    >>> str(e)
    "unknown suit letter 'x' in '12x' at position 2"
    >>> str(NotationError("bad letter 'x'", text="1m" * 100 + "x", position=200))
    "bad letter 'x' in '…m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1mx' (201 characters) at position 200"

    A long input is quoted short (:func:`quote`); ``text`` keeps all of it.
    """

    def __init__(
        self, problem: str, text: str, position: int, *, why: str = "", **params: Param
    ) -> None:
        self.problem = problem
        self.text = text
        self.position = position
        super().__init__(f"{problem} in {quote(text, position)} at position {position}", why=why)
        if why:
            self.params = {**params, "text": text, "position": position}

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole (a worker process's error reaches its parent as raised).

        >>> import pickle
        >>> err = pickle.loads(pickle.dumps(NotationError("bad", "9x", 1, why="notation_letter")))
        >>> str(err), err.why, err.params
        ("bad in '9x' at position 1", 'notation_letter', {'text': '9x', 'position': 1})
        """
        return (type(self), (self.problem, self.text, self.position), self.__dict__)


class InvalidHandError(RulesError, code="invalid_hand"):
    """A hand or finished-hand record that cannot be scored as given."""


class IllegalActionError(RulesError, code="illegal_action"):
    """An action that the rules do not allow in the current state."""


class NotYourTurnError(IllegalActionError, code="not_your_turn"):
    """An action by a seat that may not act now."""


class GameOverError(IllegalActionError, code="game_over"):
    """An action on a finished game."""


class InvalidRulesetError(RulesError, code="invalid_ruleset"):
    """Rule options that are not valid (checked when a ``Ruleset`` is made or read)."""


class InvalidPositionError(RulesError, code="invalid_position"):
    """A written position (``State.from_position``) that is malformed or that no hand could
    reach: tiles or cards not conserved, wrong hand sizes, a phase that does not fit."""


class ReplayError(RulesError, code="replay_mismatch"):
    """A game record that does not replay to its recorded result."""


#: How much of a long input an error message quotes.
QUOTE_CHARS = 40


def quote(text: str, position: int = 0) -> str:
    """``text`` quoted for an error message: whole when short, else the :data:`QUOTE_CHARS`
    characters around ``position``, cut with "…", and the length (a bad input of megabytes
    gives a one-line error, not a copy of itself).

    >>> quote("12x")
    "'12x'"
    >>> quote("1m" * 1000)
    "'1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m…' (2,000 characters)"
    >>> quote("1m" * 1000 + "x", position=2000)
    "'…m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1mx' (2,001 characters)"
    """
    if len(text) <= QUOTE_CHARS + 20:
        return repr(text)
    start = max(0, min(position - QUOTE_CHARS // 2, len(text) - QUOTE_CHARS))
    end = start + QUOTE_CHARS
    piece = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    return f"{piece!r} ({len(text):,} characters)"


def json_kind(value: object) -> str:
    """What a value read from JSON is, in JSON's words (for error messages).

    >>> json_kind(None), json_kind([]), json_kind({}), json_kind(3), json_kind(True)
    ('null', 'an array', 'an object', 'a number', 'a boolean')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
