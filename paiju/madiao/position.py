"""Positions: a Ma Diao hand at any moment, written down (what FEN is to chess).

One line of ``key=value`` fields separated by whitespace, after the word ``madiao``; seats
are listed E/S/W/N separated by ``/``, and ``-`` is an empty list. :func:`to_position`
writes the fields in this order; :func:`from_position` reads them in any order.

- ``v=9``: the version (cards played so far).
- ``banker=E``.
- ``hands=…/…/…/…``: each seat's cards (canonical notation).
- ``stock=…``: the eight stock cards in the order they will be drawn, one by one; the last
  is the 面張.
- ``tricks=…/…``: the finished tricks, each as its leader and its cards in play order: the
  lead, then ``+card`` for a capture (捉, face up) or ``-card`` for a card thrown face down
  (滅): ``E9m+wt-3c-2s``.
- ``trick=S9m-2t``: the trick being played (``-`` before its lead).
- ``rules=tu:m,wrap_straights:false``: the ruleset's options that differ from the defaults
  (``special_hands`` names joined by ``|``).

A position is read by dealing its cards again (each seat's hand plus the cards it played)
and playing its tricks through the rules, so it is checked as a hand is: 40 cards, eight a
seat, who leads, every capture higher than the best face-up card of the led suit
(:class:`~paiju.errors.InvalidPositionError` names what is wrong). Once eight tricks are
written the hand is over (開沖 and the settlement follow, as in play).

>>> from paiju.madiao.rules import Ruleset, new_hand
>>> s = new_hand(Ruleset(), seed=1)
>>> from_position(to_position(s)) == s
True
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from paiju.errors import RulesError
from paiju.kit.positions import bad_position as _bad
from paiju.kit.positions import position_fields, position_list
from paiju.madiao.cards import ALL_CARDS, Card, format_cards, parse_cards
from paiju.madiao.rules import (
    Action,
    ActionKind,
    Ruleset,
    State,
    _chong_and_settle,
    apply,
    first_leader,
    special_hand,
)
from paiju.madiao.scoring import BAILAO
from paiju.madiao.seats import SEATS

__all__ = ["from_position", "to_position"]

_ORDER = ("v", "banker", "hands", "stock", "tricks", "trick", "rules")
_DEFAULTS = Ruleset()


# --- writing ----------------------------------------------------------------------------------


def to_position(state: State) -> str:
    """The position of ``state`` as one line (see the module docstring).

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> to_position(new_hand(Ruleset(), seed=1)).split()[:3]
    ['madiao', 'v=0', 'banker=E']
    """
    s = state
    fields = [
        "madiao",
        f"v={s.version}",
        f"banker={SEATS[s.banker].value}",
        "hands=" + "/".join(format_cards(ALL_CARDS[c] for c in h) or "-" for h in s.hands),
        "stock=" + "".join(str(ALL_CARDS[c]) for c in s.stock),
        "tricks=" + ("/".join(_trick(lead, plays) for lead, plays in s.history) or "-"),
        "trick=" + (_trick(s.leader, tuple(s.trick)) if s.trick else "-"),
    ]
    rules = _rules(s.ruleset)
    if rules:
        fields.append(f"rules={rules}")
    return " ".join(fields)


def _trick(lead: int, plays: tuple[tuple[int, int, bool], ...]) -> str:
    out = SEATS[lead].value
    for k, (_seat, c, up) in enumerate(plays):
        out += ("" if k == 0 else "+" if up else "-") + str(ALL_CARDS[c])
    return out


def _rules(r: Ruleset) -> str:
    parts = []
    for name in Ruleset.__dataclass_fields__:
        value = getattr(r, name)
        if value == getattr(_DEFAULTS, name):
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, tuple):
            text = "|".join(value)
        else:
            text = str(value)
        parts.append(f"{name}:{text}")
    return ",".join(parts)


# --- reading ----------------------------------------------------------------------------------


def _fields(text: str) -> dict[str, str]:
    return position_fields(text, "madiao", "Ma Diao", _ORDER, _ORDER[:-1])  # rules= may go


def _cards(value: str, field: str) -> list[Card]:
    return position_list(value, field, parse_cards)


def _parse_rules(value: str | None) -> Ruleset:
    if value is None:
        return Ruleset()
    options: dict[str, Any] = {}
    for item in value.split(","):
        name, sep, text = item.partition(":")
        if not sep or name not in Ruleset.__dataclass_fields__:
            raise _bad(f"rules: {item!r} is not option:value with a Ma Diao option")
        default = getattr(_DEFAULTS, name)
        if isinstance(default, bool):
            if text not in ("true", "false"):
                raise _bad(f"rules: {name} is true or false, got {text!r}")
            options[name] = text == "true"
        elif isinstance(default, int):
            if not text.isdigit():
                raise _bad(f"rules: {name} is a whole number, got {text!r}")
            options[name] = int(text)
        elif isinstance(default, tuple):
            options[name] = tuple(text.split("|")) if text else ()
        else:
            options[name] = text
    try:
        return Ruleset(**options)
    except RulesError as err:
        raise _bad(f"rules: {err}") from None


_TRICK = re.compile(r"([ESWN])([^+-]{2})((?:[+-][^+-]{2}){0,3})")


def _plays(value: str, field: str) -> tuple[int, list[tuple[Card, bool]]]:
    """A trick's leader and its cards with face-up flags (``E9m+wt-3c``)."""
    m = _TRICK.fullmatch(value)
    if m is None:
        raise _bad(
            f"{field}: {value!r} is not a trick: its leader, the lead, then +card (face up) or "
            "-card (face down) for each later play, four at most"
        )
    lead = "ESWN".index(m.group(1))
    out = [(_one(m.group(2), field), True)]
    rest = m.group(3)
    for k in range(0, len(rest), 3):
        out.append((_one(rest[k + 1 : k + 3], field), rest[k] == "+"))
    return lead, out


def _one(text: str, field: str) -> Card:
    cards = _cards(text, field)
    if len(cards) != 1:
        raise _bad(f"{field}: {text!r} is not one card")
    return cards[0]


def from_position(text: str) -> State:
    """The state a written position describes, checked by playing its tricks again.

    >>> from_position("madiao v=0 banker=E")
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidPositionError: position: missing field 'hands'

    Raises :class:`~paiju.errors.InvalidPositionError` naming the field and the problem.
    """
    f = _fields(text)
    ruleset = _parse_rules(f.get("rules"))
    if f["banker"] not in ("E", "S", "W", "N"):
        raise _bad(f"banker: expected E, S, W or N, got {f['banker']!r}")
    banker = "ESWN".index(f["banker"])
    hand_texts = f["hands"].split("/")
    if len(hand_texts) != 4:
        raise _bad(f"hands: expected four seats separated by '/', got {len(hand_texts)}")
    hands = [
        [c.index for c in _cards(h, f"hands.{SEATS[i].value}")] for i, h in enumerate(hand_texts)
    ]
    stock = tuple(c.index for c in _cards(f["stock"], "stock"))
    if len(stock) != 8:
        raise _bad(f"stock: the stock holds 8 cards, got {len(stock)}")
    tricks = [] if f["tricks"] == "-" else [_plays(t, "tricks") for t in f["tricks"].split("/")]
    if len(tricks) > 8:
        raise _bad(f"tricks: a hand has eight tricks, got {len(tricks)}")
    current = None if f["trick"] == "-" else _plays(f["trick"], "trick")
    if current is not None and len(current[1]) == 4:
        raise _bad("trick: a finished trick goes under tricks=")
    if current is not None and len(tricks) == 8:
        raise _bad("trick: all eight tricks are played")
    # the deal: each seat's hand plus the cards it played
    dealt = [list(h) for h in hands]
    sequence: list[tuple[int, list[tuple[Card, bool]]]] = list(tricks)
    if current is not None:
        sequence.append(current)
    for lead, plays in sequence:
        for k, (card, _up) in enumerate(plays):
            dealt[(lead + k) % 4].append(card.index)
    seen = Counter(c for h in dealt for c in h) + Counter(stock)
    for c in range(40):
        if seen[c] != 1:
            card = ALL_CARDS[c]
            how = "missing" if seen[c] == 0 else f"there {seen[c]} times"
            raise _bad(f"cards: {card} ({card.name_zh}) is {how}; each of the 40 is once in play")
    for i, h in enumerate(dealt):
        if len(h) != 8:
            raise _bad(
                f"hands.{SEATS[i].value}: holds {len(hands[i])} cards and played "
                f"{len(h) - len(hands[i])}; a seat is dealt 8"
            )
    holder = next((i for i, h in enumerate(dealt) if BAILAO.index in h), -1)
    lead = first_leader(ruleset, banker)
    s = State(ruleset, 0, (), banker, [sorted(h) for h in dealt], holder, stock, lead, lead)
    special = special_hand(s)
    if special is not None:
        if sequence:
            raise _bad(
                f"tricks: {SEATS[special[0]].value} holds {special[1]}; the hand is not played"
            )
        s.special = special
        _chong_and_settle(s, None)
        _check_version(s, f["v"])
        return s
    for n, (trick_lead, plays) in enumerate(sequence):
        if trick_lead != s.leader:
            raise _bad(
                f"tricks: trick {n + 1} is led by {SEATS[s.leader].value}, not "
                f"{SEATS[trick_lead].value}"
            )
        for k, (card, up) in enumerate(plays):
            seat = SEATS[(trick_lead + k) % 4]
            kind = ActionKind.FA if k == 0 else ActionKind.ZHUO if up else ActionKind.MIE
            try:
                s, _ = apply(s, Action(seat, kind, card))
            except RulesError as err:
                raise _bad(f"trick {n + 1}: {err}") from None
    _check_version(s, f["v"])
    return s


def _check_version(s: State, value: str) -> None:
    if not value.isdigit() or int(value) != s.version:
        raise _bad(f"v: {value!r}, but {s.version} cards have been played")
