"""Observation layouts: named sections of a flat vector, and the same data as planes.

A :class:`Layout` is built once per game. Each section has an offset, a size, a kind and a
line of documentation; :meth:`Layout.table` prints the table that ``docs/env.md`` shows (the
game's module docstring shows it less the blocks of seats 1–3; a test keeps them equal).
:class:`Planes` turns a flat vector into the plane encoding (``[C, H, W]``, like RLCard's
``[C, 34, 4]``) with one gather per call:

- a **set** section (counts or 0/1 by tile or card) becomes one channel: a thermometer over
  the copies of each face (column ``k`` is 1 when the count is more than ``k``: a game with
  several copies of a face), or a 0/1 mark at the card's cell of a grid such as suit × rank
  (a game whose cards are all different);
- a **scalar** becomes a constant channel holding its value.

Sections of other kinds (sequences) are drawn by the game's encoder itself.

>>> lay = Layout()
>>> lay.add("hand", 34, "set", "own tiles")
slice(0, 34, None)
>>> lay.add("wall", 1, "scalar", "tiles left")
slice(34, 35, None)
>>> lay.size, lay.table().splitlines()[2]
(35, '| 0 | 34 | `hand` | own tiles |')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Layout", "Planes", "Ring", "Section", "cells", "seat_index"]


def cells(array: npt.NDArray[Any]) -> Any:
    """A flat memoryview of a C-contiguous array's values: writing one value through it is
    a Python store (tens of nanoseconds), not a NumPy call, and a run of values copies into
    another view of the same format in one ``memcpy``. Typed ``Any``: a memoryview of
    ``float32`` takes and gives Python floats, which the ``memoryview`` stubs do not say.

    >>> a = np.zeros((2, 3), dtype=np.float32); m = cells(a)
    >>> m[4] = 2.5; m[0:3] = m[3:6]; a.tolist()
    [[0.0, 2.5, 0.0], [0.0, 2.5, 0.0]]

    Raises ``ValueError`` for an array that is not C-contiguous (a view would not be flat)
    or neither float32 nor int8.
    """
    if not array.flags.c_contiguous:
        raise ValueError("cells() needs a C-contiguous array")
    if array.dtype != np.float32 and array.dtype != np.int8:
        raise ValueError(f"cells() takes float32 or int8 arrays, not {array.dtype}")
    flat = array.data.cast("B")  # no reshaped array kept alive beside the view
    return flat if array.dtype == np.int8 else flat.cast("f")


@dataclass(frozen=True, slots=True)
class Section:
    """One named run of values in the flat vector.

    >>> Section("hand", 0, 34, "set", "own tiles").stop
    34
    """

    name: str
    offset: int
    size: int
    kind: str
    doc: str

    @property
    def stop(self) -> int:
        """The offset just past the section.

        >>> Section("x", 3, 2, "scalar", "").stop
        5
        """
        return self.offset + self.size


class Layout:
    """Sections added in order, each right after the last.

    >>> lay = Layout(); _ = lay.add("a", 2, "scalar", "two values")
    >>> lay["a"].size
    2
    """

    def __init__(self) -> None:
        self.sections: list[Section] = []
        self.size = 0
        self._by_name: dict[str, Section] = {}

    def add(self, name: str, size: int, kind: str, doc: str) -> slice:
        """Append a section; its slice of the flat vector.

        >>> Layout().add("x", 4, "nope", "")
        Traceback (most recent call last):
        ...
        ValueError: unknown section kind 'nope'

        Raises ``ValueError`` for an unknown kind or a name used twice.
        """
        if kind not in ("set", "scalar", "codes", "actions"):
            raise ValueError(f"unknown section kind {kind!r}")
        if name in self._by_name:
            raise ValueError(f"section {name!r} is defined twice")
        section = Section(name, self.size, size, kind, doc)
        self.sections.append(section)
        self._by_name[name] = section
        self.size += size
        return slice(section.offset, section.stop)

    def add_context(self, scores: str, stake: str, repeat: str) -> slice:
        """The match context, eight scalars in the order the encoders' ``set_context`` writes
        them: ``scores`` (4, one per relative seat), ``stake``, ``hand_no``, ``hands_left``,
        ``repeat``; the game's words for the scores, the stake and the repeats.

        >>> lay = Layout(); lay.add_context("score / 10", "stake", "unused")
        slice(0, 8, None)
        >>> lay["hands_left"].doc
        'hands left in the match after this one'
        """
        start = self.size
        self.add("scores", 4, "scalar", scores)
        self.add("stake", 1, "scalar", stake)
        self.add("hand_no", 1, "scalar", "hands played before this one in the match")
        self.add("hands_left", 1, "scalar", "hands left in the match after this one")
        self.add("repeat", 1, "scalar", repeat)
        return slice(start, self.size)

    def add_seats(self, block: Sequence[tuple[str, int, str, str]]) -> None:
        """The public block of each relative seat ``r`` = 0–3, one after another: each
        ``(name, size, kind, doc)`` of ``block`` as section ``s{r}_name``, its doc led by
        "relative seat {r}: ".

        >>> lay = Layout(); lay.add_seats([("size", 1, "scalar", "tiles in hand")])
        >>> [s.name for s in lay.sections], lay["s2_size"].doc
        (['s0_size', 's1_size', 's2_size', 's3_size'], 'relative seat 2: tiles in hand')
        """
        for r in range(4):
            for name, size, kind, doc in block:
                self.add(f"s{r}_{name}", size, kind, f"relative seat {r}: {doc}")

    def __getitem__(self, name: str) -> Section:
        return self._by_name[name]

    def table(self, omit: Sequence[str] = ()) -> str:
        """The layout as a Markdown table (offset, size, name, content), less the sections
        whose names begin with one of ``omit`` (a block repeated per seat, shown once).

        >>> lay = Layout(); _ = lay.add("a", 2, "scalar", "two values")
        >>> _ = lay.add("s1_a", 1, "scalar", "one value")
        >>> lay.table().splitlines()[0], len(lay.table(omit=("s1_",)).splitlines())
        ('| offset | size | name | content |', 3)
        """
        lines = ["| offset | size | name | content |", "|---|---|---|---|"]
        lines += [
            f"| {s.offset} | {s.size} | `{s.name}` | {s.doc} |"
            for s in self.sections
            if not s.name.startswith(tuple(omit))
        ]
        return "\n".join(lines)


class Ring:
    """The buffers both encoders keep: each seat's public block once in a ring of four
    (seats E S W N, ``_ring``), and each observer's own part, the values before the blocks
    (``_heads[me]``, ``start`` values). An observation is assembled on demand: observer
    ``me``'s head, then the ring from its own seat round the table (two runs of the ring),
    three ``memcpy`` into the array asked for (:meth:`_assemble`): a new one when the
    environment hands out copies, else the observer's own buffer (made when first asked
    for). ``_ctx_ver`` counts the changes of the match context and ``_ctx_seen[me]`` the
    last one ``me``'s head took in. Values are written through the
    memoryviews ``_rm`` (ring) and ``_hm`` (heads: seat ``me``'s value ``k`` at
    ``me * start + k``).

    >>> r = Ring(block=3, flat=20, start=8)
    >>> r._ring.shape, r._heads.shape
    ((4, 3), (4, 8))
    >>> r._rm[0] = 1.0; r._rm[9] = 4.0; r._hm[8 + 2] = 7.0  # seat E's block, N's, S's head
    >>> r._assemble(1, None)[0].tolist()  # seen from S: its head, then S W N E
    [0.0, 0.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0,
     1.0, 0.0, 0.0]
    """

    def __init__(self, block: int, flat: int, start: int) -> None:
        if flat != start + 4 * block:
            raise ValueError(f"a flat vector of {flat} is not {start} + 4 blocks of {block}")
        self._flat = flat
        # the ring and the heads share one buffer (one array and one view less to hold)
        both = np.zeros(4 * (block + start), dtype=np.float32)
        self._ring = both[: 4 * block].reshape(4, block)
        self._heads = both[4 * block :].reshape(4, start)
        cm = cells(both)
        self._rm = rm = cm[: 4 * block]
        self._hm = cm[4 * block :]
        # observer me's ring runs, made once (slicing a memoryview costs more than the
        # copy): from its seat to the end, and before its seat (none for E); its head is
        # sliced when asked for (four views less to hold per environment)
        self._runs = tuple(
            (rm[me * block :] if me else rm, rm[: me * block] if me else None) for me in range(4)
        )
        self._start = start
        self._block = block
        # each observer's own buffer, made when an observation is asked for without ``out``
        self._own: list[npt.NDArray[np.float32] | None] = [None, None, None, None]
        self._ctx_ver = 0
        self._ctx_seen = [-1] * 4

    def _assemble(
        self, me: int, out: npt.NDArray[np.float32] | None
    ) -> tuple[npt.NDArray[np.float32], Any]:
        """Observer ``me``'s flat vector, written whole into ``out`` (a flat ``float32``
        array) or, without it, into ``me``'s own buffer: the array and a memoryview of it
        (where the encoder writes the values that move every step).

        Raises ``ValueError`` for an ``out`` that is not a flat ``float32`` array of the
        observation's size.
        """
        if out is None:
            out = self._own[me]
            if out is None:
                out = self._own[me] = np.empty(self._flat, dtype=np.float32)
        elif out.shape != (self._flat,) or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous float32 array of shape ({self._flat},)")
        m = out.data
        tail, front = self._runs[me]
        s = self._start
        cut = self._flat - me * self._block
        m[:s] = self._hm[me * s : me * s + s]
        m[s:cut] = tail
        if front is not None:
            m[cut:] = front
        return out, m


class Planes:
    """The plane encoding of a layout: ``set`` sections and scalars, gathered in one step.

    ``cells[f]`` lists, for tile or card index ``f``, the cell of the ``H × W`` plane that
    holds it (a grid of distinct cards), or ``None`` for a thermometer over ``W`` copies of
    ``H`` faces (a game with several copies of a face). ``sets`` maps each set channel to a
    list of flat offsets (one per face, ``-1`` for an empty cell); ``scalars`` lists the
    flat offsets drawn as constant channels; ``extra`` channels are left for the encoder to
    fill (sequences).

    >>> p = Planes((3, 2), None, [[0, 1, 2]], [3], extra=0)
    >>> out = p.render(np.array([2, 0, 1, 7], dtype=np.float32))
    >>> out.shape, out[0].tolist(), float(out[1, 0, 0])
    ((2, 3, 2), [[1.0, 1.0], [0.0, 0.0], [1.0, 0.0]], 7.0)
    """

    def __init__(
        self,
        shape: tuple[int, int],
        cells: Sequence[int] | None,
        sets: Sequence[Sequence[int]],
        scalars: Sequence[int],
        extra: int,
    ) -> None:
        self.shape = shape
        h, w = shape
        self.n_sets = len(sets)
        self.channels = len(sets) + len(scalars) + extra
        self.extra_start = len(sets) + len(scalars)
        self._thermo = cells is None
        if cells is None:
            # index into the flat vector with one zero appended (offset -1 -> the zero)
            self._gather = np.array(sets, dtype=np.intp).reshape(len(sets), h)
            self._levels = np.arange(w, dtype=np.float32)
        else:
            grid = np.full((len(sets), h * w), -1, dtype=np.intp)
            for c, offsets in enumerate(sets):
                for f, off in enumerate(offsets):
                    grid[c, cells[f]] = off
            self._gather = grid
        self._scalars = np.array(scalars, dtype=np.intp)

    def render(
        self, flat: npt.NDArray[np.float32], out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The planes of one flat vector (into ``out`` when given).

        >>> p = Planes((2, 2), [0, 3], [[0, 1]], [], extra=1)
        >>> p.render(np.array([1, 1], dtype=np.float32))[0].tolist()
        [[1.0, 0.0], [0.0, 1.0]]
        """
        h, w = self.shape
        if out is None:
            out = np.zeros((self.channels, h, w), dtype=np.float32)
        ext = np.append(flat, np.float32(0))
        vals = ext[self._gather]
        if self._thermo:
            out[: self.n_sets] = vals[:, :, None] > self._levels
        else:
            out[: self.n_sets] = vals.reshape(self.n_sets, h, w)
        out[self.n_sets : self.extra_start] = ext[self._scalars][:, None, None]
        return out


def seat_index(seat: Any) -> int:
    """0–3 for a seat (E S W N) given as the engine's seat (either game's) or its letter.

    >>> from paiju.games import game, names
    >>> north = game(names()[0]).seats[3]
    >>> seat_index("W"), seat_index(north)
    (2, 3)
    >>> seat_index("X")
    Traceback (most recent call last):
    ...
    ValueError: a seat is one of E, S, W, N; got 'X'

    Raises ``ValueError`` for another letter, ``TypeError`` for anything else.
    """
    if isinstance(seat, str):
        if seat not in ("E", "S", "W", "N"):
            raise ValueError(f"a seat is one of E, S, W, N; got {seat!r}")
        return "ESWN".index(seat)
    number = getattr(seat, "number", None)
    if not isinstance(number, int):
        raise TypeError(f"a seat is a Seat or one of 'E', 'S', 'W', 'N'; got {seat!r}")
    return number - 1
