"""A finished hand as the scorer reads it (rules §11), checked strictly.

:meth:`FinishedHand.from_json` takes the JSON object of §11 and raises
:class:`~paiju.errors.InvalidHandError` (or :class:`~paiju.errors.NotationError`) with a
one-line message that names the field and the problem.

>>> hand = FinishedHand.from_json({
...     "wild": "9p", "winner": None,
...     "players": {s: {"concealed": "123m456m789m123p4p", "melds": ["chow 567p"]}
...                 for s in "E"},
... })
Traceback (most recent call last):
...
paiju.errors.InvalidHandError: players: expected the four seats E, S, W, N; missing S, W, N
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from paiju.errors import InvalidHandError, NotationError, RulesError, json_kind, quote
from paiju.kit.enums import FastEnum
from paiju.kit.inputs import exactly_one
from paiju.mazhan.hand import HandTiles
from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.tiles import ALL_TILES, Tile, parse_tiles

__all__ = ["PROBLEMS_MOST", "Ending", "FinishedHand", "SeatHand", "WinBy", "ending_json"]

#: At most this many problems are gathered from one hand (:meth:`FinishedHand.read`).
PROBLEMS_MOST = 12

_T = TypeVar("_T")


class _Problems:
    """The problems found so far in one hand, each field's read once: a field that cannot be
    read adds its problem and gives ``default``, and the reading goes on to the next field."""

    def __init__(self) -> None:
        self.found: list[RulesError] = []

    def take(self, read: Callable[[], _T], default: _T) -> _T:
        try:
            return read()
        except RulesError as err:
            self.add(err)
            return default

    def add(self, err: RulesError) -> None:
        if len(self.found) < PROBLEMS_MOST:
            self.found.append(err)


class WinBy(FastEnum):
    """How the hand was won: ``is_discard_like`` for a discard or a robbed kong (the tile
    came from another player), ``is_self_drawn`` for 自摸 (a win on a kong replacement
    included).

    >>> WinBy("robbed_kong").is_discard_like, WinBy.SELF_DRAW.is_discard_like
    (True, False)
    >>> [w.value for w in WinBy if w.is_self_drawn]
    ['self_draw', 'kong_replacement']
    """

    SELF_DRAW = "self_draw"
    DISCARD = "discard"
    ROBBED_KONG = "robbed_kong"
    KONG_REPLACEMENT = "kong_replacement"
    SHA_ZHU = "sha_zhu"

    def __init__(self, code: object) -> None:  # object: WinBy(value) looks any value up
        #: A discard or a robbed kong: the tile came from another player.
        self.is_discard_like: bool = code in ("discard", "robbed_kong")
        #: 自摸: a self-drawn win, a win on a kong replacement included.
        self.is_self_drawn: bool = code in ("self_draw", "kong_replacement")


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One seat's tiles at the end of the hand.

    >>> SeatHand.parse({"concealed": "11m", "melds": [], "bonus": "5z1h"}, "E").bonus
    (Tile.parse('5z'), Tile.parse('1h'))
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    bonus: tuple[Tile, ...]

    @staticmethod
    def parse(data: object, where: str) -> SeatHand:
        """Read one seat's ``{"concealed", "melds", "bonus"}``.

        >>> SeatHand.parse({"concealed": "11m", "flowers": ""}, "S")
        Traceback (most recent call last):
        ...
        paiju.errors.InvalidHandError: players.S: unknown field 'flowers' (expected concealed, ...)

        Raises :class:`~paiju.errors.InvalidHandError` naming the first problem.
        """
        problems = _Problems()
        seat = SeatHand._read(data, where, problems)
        if problems.found:
            raise problems.found[0]
        assert seat is not None
        return seat

    @staticmethod
    def _read(data: object, where: str, problems: _Problems) -> SeatHand | None:
        """One seat's fields, each read on its own: every problem goes to ``problems``; the
        seat when all of them could be read, else ``None``."""
        path = f"players.{where}"
        before = len(problems.found)
        obj = problems.take(
            lambda: _object(data, path, required=("concealed",), optional=("melds", "bonus")),
            None,
        )
        if obj is None:
            return None
        concealed = problems.take(lambda: _tiles(obj["concealed"], f"{path}.concealed"), None)
        for tile in concealed or ():
            if tile.is_bonus:
                problems.add(
                    InvalidHandError(
                        f"{path}.concealed: {tile} ({tile.name_zh}) is a bonus tile; "
                        "list it under bonus",
                        why="concealed_bonus",
                        field=f"{path}.concealed",
                        tile=str(tile),
                    )
                )
                break
        melds: list[Meld] = []
        melds_raw = obj.get("melds", [])
        if not isinstance(melds_raw, list):
            problems.add(
                InvalidHandError(
                    f"{path}.melds: expected an array of strings like 'pung 777z', "
                    f"got {json_kind(melds_raw)}"
                )
            )
            melds_raw = []
        for i, text in enumerate(melds_raw):
            meld = problems.take(partial(_meld, text, f"{path}.melds[{i}]"), None)
            if meld is not None:
                melds.append(meld)
        no_tiles: list[Tile] = []
        bonus = problems.take(lambda: _tiles(obj.get("bonus", ""), f"{path}.bonus"), no_tiles)
        for tile in bonus:
            if not tile.is_bonus:
                problems.add(
                    InvalidHandError(
                        f"{path}.bonus: {tile} is not a bonus tile (only 5z, 1h–4h, 1j–4j)",
                        why="not_bonus",
                        field=f"{path}.bonus",
                        tile=str(tile),
                    )
                )
                break
        if len(problems.found) > before or concealed is None:
            return None
        return SeatHand(tuple(concealed), tuple(melds), tuple(bonus))

    @property
    def size(self) -> int:
        """Tiles held, a kong counting as three, bonus tiles not counted.

        >>> SeatHand((), (Meld.parse("kong 1111m"),), ()).size
        3
        """
        return len(self.concealed) + 3 * len(self.melds)


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """Everything the scorer needs about one finished hand (§11).

    >>> h = FinishedHand.from_json(EXAMPLE)
    >>> h.winner, h.win_by, h.win_tile
    (<Seat.S: 'S'>, <WinBy.SELF_DRAW: 'self_draw'>, Tile.parse('2p'))
    """

    wild: Tile
    winner: Seat | None
    win_tile: Tile | None
    win_by: WinBy | None
    discarder: Seat | None
    tianhu: bool
    dihu: bool
    players: Mapping[Seat, SeatHand]

    @staticmethod
    def from_json(data: object) -> FinishedHand:
        """Read and check a finished hand given as the JSON object of §11.

        >>> FinishedHand.from_json({**EXAMPLE, "winner": "X"})
        Traceback (most recent call last):
        ...
        paiju.errors.InvalidHandError: winner: expected "E", "S", "W", "N" or null, got 'X'

        Raises :class:`~paiju.errors.InvalidHandError` naming the field and the problem (the
        first of :meth:`read`'s).
        """
        hand, problems = FinishedHand.read(data)
        if problems:
            raise problems[0]
        assert hand is not None
        return hand

    @staticmethod
    def read(data: object) -> tuple[FinishedHand | None, list[RulesError]]:
        """Read and check a finished hand, gathering every problem a scorekeeper can fix at
        once (at most :data:`PROBLEMS_MOST`): the hand and ``[]``, or ``None`` and the
        problems, the first being what :meth:`from_json` raises.

        Each field is read on its own, so every field that cannot be read is named (a typo
        in one seat's tiles and another in a second seat's melds), and every seat that could
        be read is counted. Once all are read, the copies of each tile are counted too; the
        win is checked last, when nothing else is wrong, and only its first problem is named
        (each of its checks assumes the one before).

        >>> hand, problems = FinishedHand.read({**EXAMPLE, "wild": "9x", "winner": "X"})
        >>> hand, [str(p).split(":")[0] for p in problems]
        (None, ['wild', 'winner'])
        >>> FinishedHand.read(EXAMPLE)[1]
        []
        """
        problems = _Problems()
        obj = problems.take(
            lambda: _object(
                data,
                "hand",
                required=("wild", "winner", "players"),
                optional=("win_tile", "win_by", "discarder", "tianhu", "dihu"),
            ),
            None,
        )
        if obj is None:
            return None, problems.found
        wild = problems.take(lambda: _wild(obj["wild"]), None)
        before = len(problems.found)
        winner = problems.take(lambda: _seat(obj["winner"], "winner"), None)
        winner_read = len(problems.found) == before
        discarder = problems.take(lambda: _seat(obj.get("discarder"), "discarder"), None)
        win_tile = problems.take(
            lambda: None if obj.get("win_tile") is None else _one_tile(obj["win_tile"], "win_tile"),
            None,
        )
        win_by = problems.take(lambda: _win_by(obj.get("win_by")), None)
        tianhu = problems.take(lambda: _flag(obj.get("tianhu", False), "tianhu"), False)
        dihu = problems.take(lambda: _flag(obj.get("dihu", False), "dihu"), False)
        players: dict[Seat, SeatHand] = {}
        seats = problems.take(lambda: _seats(obj["players"]), None)
        if seats is not None:
            for s in SEATS:
                seat = SeatHand._read(seats[s.value], s.value, problems)
                if seat is not None:
                    players[s] = seat
        if problems.found or wild is None:
            # the seats that could be read are still counted, each on its own
            if winner_read:
                _check_seats(players, wild, winner, problems)
            return None, problems.found
        hand = FinishedHand(wild, winner, win_tile, win_by, discarder, tianhu, dihu, players)
        hand._check(problems)
        return (None, problems.found) if problems.found else (hand, [])

    def validate(self) -> None:
        """Check the hand against the rules (tile counts, sizes, the win); raise if wrong.

        >>> FinishedHand.from_json(EXAMPLE).validate()

        Raises :class:`~paiju.errors.InvalidHandError` naming the first problem.
        """
        problems = _Problems()
        self._check(problems)
        if problems.found:
            raise problems.found[0]

    def _check(self, problems: _Problems) -> None:
        """The rules' checks of a hand read whole: every count, meld and size problem, then
        (only when there are none) the first problem of the win."""
        self._check_counts(problems)
        _check_seats(self.players, self.wild, self.winner, problems)
        if problems.found:
            return
        if self.winner is None:
            problems.take(self._check_draw, None)
        else:
            winner = self.winner
            problems.take(lambda: self._check_win(winner), None)

    def _check_counts(self, problems: _Problems) -> None:
        counts = [0] * 42  # by face index, the tiles' own order
        for sh in self.players.values():
            for t in sh.concealed:
                counts[t.index] += 1
            for t in sh.bonus:
                counts[t.index] += 1
            for meld in sh.melds:
                for t in meld.tiles:
                    counts[t.index] += 1
        wild = self.wild.index
        for index, n in enumerate(counts):
            if n <= 1 or (n <= 4 and index < 34 and index != wild):
                continue
            tile = ALL_TILES[index]
            if index == wild and n > 3:
                problems.add(
                    InvalidHandError(
                        f"{n} copies of the wild face {tile} in play: the indicator is the fourth, "
                        "so at most three ★",
                        why="wild_copies",
                        field=self._most(tile),
                        n=n,
                        tile=str(tile),
                        seats=self._holders(tile),
                    )
                )
                continue
            limit = 1 if tile.index >= 34 else 4
            if n > limit:
                problems.add(
                    InvalidHandError(
                        f"{n} copies of {tile} ({tile.name_zh}) at the table: there "
                        + ("is only one" if limit == 1 else "are only four"),
                        why="copies",
                        field=self._most(tile),
                        n=n,
                        tile=str(tile),
                        limit=limit,
                        seats=self._holders(tile),
                    )
                )

    def _holders(self, tile: Tile) -> str:
        """The seats that list ``tile`` anywhere, as letters (``"ES"``): where to look."""
        return "".join(
            seat.value
            for seat, sh in self.players.items()
            if tile in sh.concealed or tile in sh.bonus or any(tile in m.tiles for m in sh.melds)
        )

    def _most(self, tile: Tile) -> str:
        """The field that lists the most copies of ``tile`` (the first seat's, on a tie):
        where a surplus copy was most likely typed (``"players.E.concealed"``)."""
        counts = []
        for seat, sh in self.players.items():
            counts.append((sh.concealed.count(tile), f"players.{seat.value}.concealed"))
            counts.append((sh.bonus.count(tile), f"players.{seat.value}.bonus"))
            in_melds = sum(m.tiles.count(tile) for m in sh.melds)
            counts.append((in_melds, f"players.{seat.value}.melds"))
        return max(counts, key=lambda c: c[0])[1]

    def _check_draw(self) -> None:
        for name in ("win_tile", "win_by", "discarder"):
            if getattr(self, name) is not None:
                raise InvalidHandError(f"{name}: must be null when there is no winner (流局)")
        if self.tianhu or self.dihu:
            raise InvalidHandError("tianhu/dihu: a drawn hand (流局) has no winner")

    def _check_first_turn(self, flag: str) -> None:
        """天胡 ends the hand before the first discard, 地胡 on it: before then only the dealer
        has had a turn, and there was no discard to claim. So no seat holds a meld, except the
        dealer's concealed kongs before 天胡 (§3.6, §5.2: the dealer may declare one and act
        again); before 地胡 not those either (§7: "no kong before it")."""
        name = "天胡" if flag == "tianhu" else "地胡"
        for seat in SEATS:
            for meld in self.players[seat].melds:
                held = f"{flag}: players.{seat.value}.melds holds {str(meld)!r}"
                if seat is not Seat.E:
                    key, why = (
                        "first_turn_seat",
                        f"only the dealer (E) has had a turn before {name}",
                    )
                elif meld.kind is not MeldKind.CKONG:
                    key = "first_turn_claim"
                    why = f"there is no discard to claim and no pung to add to before {name}"
                elif flag == "dihu":
                    key, why = "dihu_kong", "地胡 needs no kong before the dealer's first discard"
                else:
                    continue  # the dealer's concealed kong before 天胡
                raise InvalidHandError(
                    f"{held}, but {why}",
                    why=key,
                    field=f"players.{seat.value}.melds",
                    flag=flag,
                    seat=seat.value,
                    meld=str(meld),
                )

    def _check_win(self, winner: Seat) -> None:
        win_by = self.win_by
        sh = self.players[winner]
        stars = sum(1 for t in sh.concealed if t == self.wild)
        if win_by is None:
            raise InvalidHandError(
                "win_by: required when there is a winner "
                "(self_draw, discard, robbed_kong, kong_replacement or sha_zhu)"
            )
        if self.tianhu and self.dihu:
            raise InvalidHandError(
                "tianhu and dihu: a hand cannot be both", why="tianhu_and_dihu", field="tianhu"
            )
        if self.tianhu:
            if winner is not Seat.E:
                raise InvalidHandError(
                    "tianhu: only the dealer (E) can win 天胡", why="tianhu_dealer", field="tianhu"
                )
            if not win_by.is_self_drawn:
                raise InvalidHandError(
                    "tianhu: 天胡 is won before the first discard, not on one",
                    why="tianhu_discard",
                    field="tianhu",
                )
            self._check_first_turn("tianhu")
        if self.dihu:
            if winner is Seat.E:
                raise InvalidHandError(
                    "dihu: 地胡 is won by a non-dealer, not by E", why="dihu_dealer", field="dihu"
                )
            if win_by is not WinBy.DISCARD or self.discarder is not Seat.E:
                raise InvalidHandError(
                    "dihu: 地胡 is a win on the dealer's (E's) first discard",
                    why="dihu_first",
                    field="dihu",
                )
            self._check_first_turn("dihu")
        if win_by is WinBy.KONG_REPLACEMENT and not any(
            m.kind in (MeldKind.KONG, MeldKind.CKONG) for m in sh.melds
        ):
            raise InvalidHandError(
                f"win_by: kong_replacement needs a kong of the winner's ({winner.value}), "
                "exposed or concealed, in their melds; none is listed",
                why="replacement_kong",
                field="win_by",
                seat=winner.value,
            )
        if win_by.is_discard_like:
            if self.discarder is None:
                robbing = win_by is WinBy.ROBBED_KONG
                raise InvalidHandError(
                    f"discarder: required for a {win_by.value} win",
                    why="robbed_required" if robbing else "discarder_required",
                    field="discarder",
                    win_by=win_by.value,
                )
            if self.discarder is winner:
                raise InvalidHandError(
                    "discarder: the winner cannot win on their own discard",
                    why="discarder_self",
                    field="discarder",
                    seat=winner.value,
                )
        elif self.discarder is not None:
            raise InvalidHandError(f"discarder: must be null for a {win_by.value} win")
        if win_by is WinBy.SHA_ZHU:
            if stars != 3:
                raise InvalidHandError(
                    f"win_by: sha_zhu (殺豬) needs all three ★ ({self.wild}) in "
                    f"{winner.value}'s concealed tiles; found {stars}",
                    why="sha_zhu_stars",
                    field="win_by",
                    seat=winner.value,
                    tile=str(self.wild),
                    stars=stars,
                )
            if self.win_tile is not None and self.win_tile not in sh.concealed:
                raise InvalidHandError(
                    f"win_tile: {self.win_tile} is not among {winner.value}'s concealed tiles "
                    "(殺豬 needs no winning tile: omit it)"
                )
            return
        if self.win_tile is None:
            if not self.tianhu:
                raise InvalidHandError(
                    f"win_tile: required for a {win_by.value} win",
                    why="win_tile_required",
                    field="win_tile",
                    win_by=win_by.value,
                )
        else:
            if self.win_tile not in sh.concealed:
                raise InvalidHandError(
                    f"win_tile: {self.win_tile} is not among {winner.value}'s concealed tiles "
                    "(the winner's concealed tiles include the winning tile)",
                    why="win_tile_missing",
                    field="win_tile",
                    seat=winner.value,
                    tile=str(self.win_tile),
                )
            if win_by.is_discard_like and self.win_tile == self.wild:
                raise InvalidHandError(
                    f"win_tile: {self.win_tile} is the wild face; a ★ is never discarded",
                    why="win_tile_wild",
                    field="win_tile",
                    tile=str(self.win_tile),
                )
        if win_by is WinBy.ROBBED_KONG:
            robbed = self.players[self.discarder] if self.discarder else None
            pung = robbed is not None and any(
                m.kind is MeldKind.PUNG and m.face == self.win_tile for m in robbed.melds
            )
            if not pung:
                seat = self.discarder.value if self.discarder else "?"
                raise InvalidHandError(
                    f"discarder: a robbed kong (搶槓) leaves the robbed player "
                    f"{seat} an exposed pung of {self.win_tile}; none is listed",
                    why="robbed_pung",
                    field=f"players.{seat}.melds" if self.discarder else "discarder",
                    seat=seat,
                    tile=str(self.win_tile),
                )
        if not HandTiles.parse(sh.concealed, self.wild).is_complete():
            raise InvalidHandError(
                f"players.{winner.value}: the winner's hand is not complete "
                "(five sets and a pair, ★ read as needed)",
                why="incomplete",
                field=f"players.{winner.value}.concealed",
                seat=winner.value,
            )


class Ending(Protocol):
    """How a hand ended: a played hand's result or a finished hand given to the scorer."""

    @property
    def winner(self) -> Seat | None: ...
    @property
    def win_by(self) -> WinBy | None: ...
    @property
    def win_tile(self) -> Tile | None: ...
    @property
    def discarder(self) -> Seat | None: ...
    @property
    def tianhu(self) -> bool: ...
    @property
    def dihu(self) -> bool: ...


def ending_json(how: Ending) -> dict[str, Any]:
    """How a hand ended, as every result's JSON begins (§11's names).

    >>> e = ending_json(FinishedHand.from_json(EXAMPLE))
    >>> e["winner"], e["win_by"], e["win_tile"], e["discarder"], e["tianhu"], e["dihu"]
    ('S', 'self_draw', '2p', None, False, False)
    """
    return {
        "winner": None if how.winner is None else how.winner.value,
        "win_by": None if how.win_by is None else how.win_by.value,
        "win_tile": None if how.win_tile is None else str(how.win_tile),
        "discarder": None if how.discarder is None else how.discarder.value,
        "tianhu": how.tianhu,
        "dihu": how.dihu,
    }


def _check_seats(
    players: Mapping[Seat, SeatHand],
    wild: Tile | None,
    winner: Seat | None,
    problems: _Problems,
) -> None:
    """Each seat's own problems: a ★ in a meld (when the wild is known), a wrong number of
    tiles."""
    for seat, sh in players.items():
        for meld in sh.melds:
            if wild is not None and wild in meld.tiles:
                problems.add(
                    InvalidHandError(
                        f"players.{seat.value}.melds: {meld} holds the wild face "
                        f"{wild}; a ★ is never part of a meld",
                        why="meld_wild",
                        field=f"players.{seat.value}.melds",
                        meld=str(meld),
                        tile=str(wild),
                    )
                )
                break
        expected = 17 if seat is winner else 16
        if sh.size != expected:
            role = "the winner" if seat is winner else "a non-winner"
            tiles = "tile" if sh.size == 1 else "tiles"
            melds = "meld" if len(sh.melds) == 1 else "melds"
            problems.add(
                InvalidHandError(
                    f"players.{seat.value}: holds {sh.size} {tiles} ({len(sh.concealed)} "
                    f"concealed + {len(sh.melds)} {melds} × 3), {role} holds {expected}",
                    why="seat_size",
                    field=f"players.{seat.value}",
                    seat=seat.value,
                    size=sh.size,
                    concealed=len(sh.concealed),
                    melds=len(sh.melds),
                    expected=expected,
                )
            )


def _shown(value: object) -> str:
    """A JSON value as an error message shows it: a string quoted (cut short when long),
    anything else by its JSON kind."""
    return quote(value) if isinstance(value, str) else json_kind(value)


#: No meld string is longer (``ckong 7777z`` is 11 characters, with room for spaces).
_MELD_CHARS = 60


def _object(
    data: object, path: str, *, required: tuple[str, ...], optional: tuple[str, ...]
) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidHandError(f"{path}: expected a JSON object, got {json_kind(data)}")
    for key in required:
        if key not in data:
            raise InvalidHandError(f"{path}: missing field {key!r}")
    allowed = required + optional
    for key in data:
        if key not in allowed:
            raise InvalidHandError(
                f"{path}: unknown field {quote(key)} (expected {', '.join(allowed)})"
            )
    return data


def _tiles(value: object, path: str) -> list[Tile]:
    if not isinstance(value, str):
        raise InvalidHandError(
            f"{path}: expected a tile string like '123m45p', got {json_kind(value)}"
        )
    try:
        return parse_tiles(value)
    except NotationError as err:
        raise err.under(path) from None


def _meld(text: object, path: str) -> Meld:
    if not isinstance(text, str) or len(text) > _MELD_CHARS:
        shown = quote(text) if isinstance(text, str) else json_kind(text)
        raise InvalidHandError(f"{path}: expected a meld like 'pung 777z', got {shown}")
    try:
        return Meld.parse(text)
    except (InvalidHandError, NotationError) as err:
        raise err.under(path) from None


def _one_tile(value: object, path: str) -> Tile:
    return exactly_one(_tiles(value, path), path, "tile", _shown(value))


def _wild(value: object) -> Tile:
    wild = _one_tile(value, "wild")
    if wild.is_bonus:
        raise InvalidHandError(
            f"wild: {wild} is a bonus tile; the wild is never a bonus tile",
            why="wild_bonus",
            field="wild",
            tile=str(wild),
        )
    return wild


def _win_by(value: object) -> WinBy | None:
    if value is None:
        return None
    try:
        return WinBy(value)
    except ValueError:
        choices = ", ".join(w.value for w in WinBy)
        raise InvalidHandError(f"win_by: expected one of {choices}, got {_shown(value)}") from None


def _seats(value: object) -> dict[str, object]:
    """``players``: an object with the four seats' hands, by letter."""
    if not isinstance(value, dict):
        raise InvalidHandError(
            f"players: expected an object with the seats E, S, W, N, got {json_kind(value)}"
        )
    missing = [s.value for s in SEATS if s.value not in value]
    extra = [k for k in value if k not in {s.value for s in SEATS}]
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if extra:
            parts.append("unknown " + ", ".join(quote(k) for k in extra))
        raise InvalidHandError("players: expected the four seats E, S, W, N; " + "; ".join(parts))
    return value


def _seat(value: object, path: str) -> Seat | None:
    if value is None:
        return None
    if isinstance(value, str) and value in {"E", "S", "W", "N"}:
        return Seat(value)
    raise InvalidHandError(f'{path}: expected "E", "S", "W", "N" or null, got {_shown(value)}')


def _flag(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidHandError(f"{path}: expected true or false, got {_shown(value)}")
    return value


#: The seed example of rules §7 (example 1), as §11's JSON.
EXAMPLE: dict[str, Any] = {
    "wild": "9s",
    "winner": "S",
    "win_tile": "2p",
    "win_by": "self_draw",
    "discarder": None,
    "tianhu": False,
    "dihu": False,
    "players": {
        "E": {"concealed": "1123456789m123456s", "melds": [], "bonus": ""},
        "S": {
            "concealed": "1p3p678p789p2p2p2p",
            "melds": ["pung 777z", "pung 555p"],
            "bonus": "2j",
        },
        "W": {"concealed": "2345679m44p1122334z", "melds": [], "bonus": ""},
        "N": {"concealed": "15678s23456p99p44z66z", "melds": [], "bonus": ""},
    },
}
