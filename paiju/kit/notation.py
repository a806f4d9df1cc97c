"""The notation's grammar, shared by tiles (``123m45p``) and cards (``wqt98m``): groups of
faces, each closed by its suit letter; whitespace may stand between groups, never inside one.

What a face means is each core's own (a digit 1–9 for a tile, ``w``, ``0``, ``9`` … for a
card): :func:`notation_groups` finds the groups and raises the grammar's errors, the core
reads the faces.

>>> text = "12m 9p"
>>> suits = {"m": "characters", "p": "dots"}
>>> [(suit, [text[f] for f in faces])
...  for _, suit, faces in notation_groups(text, "tile", "digits", "0123456789", suits)]
[('characters', ['1', '2']), ('dots', ['9'])]
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Mapping
from typing import TypeVar

from paiju.errors import NotationError, json_kind, quote

__all__ = ["notation_groups"]

S = TypeVar("S")


def notation_groups(
    text: str,
    what: str,
    word: str,
    faces: Container[str],
    letters: Mapping[str, S],
    bad_face: Callable[[str, int], NotationError] | None = None,
) -> Iterator[tuple[int, S, list[int]]]:
    """The groups of ``text``, each as its suit letter's position, its suit and its faces'
    positions, yielded as each letter is read (an error in a group's faces, raised by the
    caller, comes before any error later in the text).

    ``what`` names a piece in messages (``tile``, ``card``), ``word`` its faces (``digits``,
    ``faces``); ``faces`` holds the face characters, ``letters`` maps each suit letter to
    its suit.
    ``bad_face(text, pos)``, when given, is the error for a character that is neither face
    nor suit letter where a group begins, right before a suit letter (``xt``: a bad face).

    >>> letters = {"m": "M", "p": "P"}
    >>> list(notation_groups("", "tile", "digits", "0123456789", letters))
    []
    >>> list(notation_groups(" 12m\\t3p", "tile", "digits", "0123456789", letters))
    [(3, 'M', [1, 2]), (6, 'P', [5])]
    >>> list(notation_groups("12 3m", "tile", "digits", "0123456789", letters))
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: whitespace inside a group: digits '12' lack a suit letter in ...
    >>> list(notation_groups("1m2", "card", "faces", "0123456789", letters))
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: faces '2' lack a suit letter in '1m2' at position 2
    >>> list(notation_groups(None, "tile", "digits", "0123456789", letters))
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: expected a tile string, got null

    Raises :class:`~paiju.errors.NotationError` quoting the input and the position.
    """
    if not isinstance(text, str):
        err = NotationError(f"expected a {what} string, got {json_kind(text)}", text="", position=0)
        err.args = (err.problem,)  # there is no text to quote
        raise err
    pending: list[int] = []  # positions of faces waiting for their suit letter
    for pos, ch in enumerate(text):
        if ch in faces:  # a container's `in`, not a call a character: parse_tiles is timed
            pending.append(pos)
            continue
        if ch.isspace():
            if pending:
                faces = text[pending[0] : pos]
                raise NotationError(
                    f"whitespace inside a group: {word} {quote(faces)} lack a suit letter",
                    text,
                    pos,
                    why="notation_space",
                    digits=faces,
                )
            continue
        suit = letters.get(ch)
        if suit is None:
            if (
                bad_face is not None
                and not pending
                and pos + 1 < len(text)
                and text[pos + 1] in letters
            ):
                raise bad_face(text, pos)
            if ch.isalpha():
                raise NotationError(
                    f"unknown suit letter {ch!r}", text, pos, why="notation_letter", letter=ch
                )
            raise NotationError(
                f"unexpected character {ch!r}", text, pos, why="notation_char", char=ch
            )
        if not pending:
            raise NotationError(
                f"suit letter {ch!r} has no {word} before it",
                text,
                pos,
                why="notation_no_digits",
                letter=ch,
            )
        yield pos, suit, pending
        pending = []
    if pending:
        faces = text[pending[0] :]
        raise NotationError(
            f"{word} {quote(faces)} lack a suit letter",
            text,
            pending[0],
            why="notation_no_suit",
            digits=faces,
        )
