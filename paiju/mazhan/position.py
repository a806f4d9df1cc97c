"""Positions: a Mazhan hand at any moment, written down (what FEN is to chess).

One line of ``key=value`` fields separated by whitespace, after the word ``mazhan``. Seats
are listed E/S/W/N, separated by ``/``; ``-`` is an empty list. :func:`to_position` writes
the fields in this order; :func:`from_position` reads them in any order.

- ``v=44``: the version (actions applied so far).
- The phase, one of:

  - ``act=S draw=…``: South moves; ``draw=5m`` it drew 5m, ``draw=5m@kong`` as a kong's
    replacement, ``draw=deal`` the dealer's first turn (no drawn tile), ``draw=claim`` it
    took a chow or pung and must discard;
  - ``claim=E:5m``: East's discard 5m may be claimed;
  - ``rob=E:5m``: East added 5m to a pung and it may be robbed (搶槓);
  - with either window, ``decided=S:chi:345m,W:pass``: the seats that have answered (the
    others are still deciding; their options follow from their tiles);
  - ``over=S:self_draw:2p``: the winner, how (``self_draw``, ``discard``, ``robbed_kong``,
    ``kong_replacement``, ``sha_zhu``), the winning tile (``-`` for none) and the discarder
    or robbed seat (``over=W:discard:6s:N``); ``over=liuju`` for a drawn hand.

- ``wild=9s``: the wild face (the indicator's face); ``aside=1h``: bonus tiles set aside while
  looking for the indicator; ``dice=3,5``; ``dead=11``: the ruleset's dead wall.
- ``hands=…/…/…/…``: each seat's concealed tiles (canonical notation).
- ``melds=…``: each seat's melds, separated by ``,``: ``c123m<N2m`` (a chow of North's 2m),
  ``p777z<W7z`` (a pung), ``k5555p<S5p`` (an exposed kong), ``a7777z`` (a concealed kong).
- ``bonus=…``: each seat's bonus tiles, in the order laid out.
- ``rivers=…``: each seat's discards in order; ``2s>S`` was claimed by South.
- ``wall=…``: the tiles left in the wall, from the next one drawn to the last (the tail).

Tiles in ``aside``, ``bonus``, ``rivers`` and ``wall`` are written one by one (``1m5z``) since
their order matters. A position is checked (:class:`~paiju.errors.InvalidPositionError`):
its 144 tiles, hand sizes, melds and the discards they claimed, and that the phase fits. The
history that led to it is not checked (which seat discarded first, for instance).

>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> s = new_hand(Ruleset(), seed=1)
>>> text = to_position(s)
>>> text.split()[:4]
['mazhan', 'v=0', 'act=E', 'draw=deal']
>>> from_position(text) == s
True
"""

from __future__ import annotations

from collections import Counter

from paiju.errors import RulesError
from paiju.kit.positions import bad_position as _bad
from paiju.kit.positions import position_fields, position_list
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.record import WinBy
from paiju.mazhan.rules import (
    Phase,
    Ruleset,
    State,
    _claim_options,
    _finish,
    _finish_draw,
    _keys_of,
    _robbers,
)
from paiju.mazhan.seats import SEATS
from paiju.mazhan.tiles import ALL_TILES, Tile, format_tiles, parse_tiles
from paiju.mazhan.wall import FULL_SET

__all__ = ["from_position", "to_position"]

_KIND_LETTER = {MeldKind.CHOW: "c", MeldKind.PUNG: "p", MeldKind.KONG: "k", MeldKind.CKONG: "a"}
_LETTER_KIND = {v: k for k, v in _KIND_LETTER.items()}
_ORDER = (
    "v",
    "act",
    "draw",
    "claim",
    "rob",
    "decided",
    "over",
    "wild",
    "aside",
    "dice",
    "dead",
    "hands",
    "melds",
    "bonus",
    "rivers",
    "wall",
)


def _full(tiles: list[int] | tuple[int, ...]) -> str:
    return "".join(str(ALL_TILES[t]) for t in tiles) or "-"


def _per_seat(values: list[str]) -> str:
    return "/".join(v or "-" for v in values)


# --- writing ----------------------------------------------------------------------------------


def to_position(state: State) -> str:
    """The position of ``state`` as one line (see the module docstring).

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> "dice=4,5 dead=11" in to_position(new_hand(Ruleset(), seed=1))
    True
    """
    s = state
    fields = ["mazhan", f"v={s.version}"]
    if s.phase is Phase.ACT:
        fields.append(f"act={SEATS[s.current].value}")
        if not s.drew:
            draw = "claim"
        elif s.drawn < 0:
            draw = "deal"
        else:
            draw = str(ALL_TILES[s.drawn]) + ("@kong" if s.after_kong else "")
        fields.append(f"draw={draw}")
    elif s.phase is Phase.OVER:
        fields.append(f"over={_over(s)}")
    else:
        fields.append(f"{s.phase.value}={SEATS[s.claim_from].value}:{ALL_TILES[s.claim_tile]}")
        if s.decisions:
            order = sorted(s.decisions, key=lambda o: (o - s.claim_from) % 4)
            fields.append("decided=" + ",".join(_decision(s.decisions[o]) for o in order))
    fields += [
        f"wild={ALL_TILES[s.wild]}",
        f"aside={_full(s.set_aside)}",
        f"dice={s.dice[0]},{s.dice[1]}",
        f"dead={s.ruleset.dead_wall}",
        "hands=" + _per_seat([format_tiles(s.concealed(seat)) for seat in SEATS]),
        "melds=" + _per_seat([_melds(s, i) for i in range(4)]),
        "bonus=" + _per_seat([_full(b).strip("-") for b in s.bonus]),
        "rivers=" + _per_seat([_river(s, i) for i in range(4)]),
        f"wall={_full(s.wall[s.head : s.tail])}",
    ]
    return " ".join(fields)


def _over(s: State) -> str:
    r = s.result
    if r is None or r.winner is None or r.win_by is None:
        return "liuju"
    parts = [r.winner.value, r.win_by.value]
    if r.win_tile is not None or r.discarder is not None:
        parts.append("-" if r.win_tile is None else str(r.win_tile))
    if r.discarder is not None:
        parts.append(r.discarder.value)
    return ":".join(parts)


def _decision(a: Action) -> str:
    if a.kind is ActionKind.CHI:
        return f"{a.seat.value}:chi:{format_tiles(a.chow)}"
    return f"{a.seat.value}:{a.kind.value}"


def _melds(s: State, i: int) -> str:
    out = []
    for meld, (src, claimed) in zip(s.melds[i], s.meld_src[i], strict=True):
        text = _KIND_LETTER[meld.kind] + format_tiles(meld.tiles)
        if src >= 0:
            text += f"<{SEATS[src].value}{ALL_TILES[claimed]}"
        out.append(text)
    return ",".join(out)


def _river(s: State, i: int) -> str:
    return "".join(
        str(ALL_TILES[t]) + ("" if by < 0 else f">{SEATS[by].value}")
        for t, by in zip(s.discards[i], s.claimed_by[i], strict=True)
    )


# --- reading ----------------------------------------------------------------------------------


def _fields(text: str) -> dict[str, str]:
    return position_fields(text, "mazhan", "Mazhan", _ORDER)


def _tiles(value: str, field: str) -> list[Tile]:
    return position_list(value, field, parse_tiles)


def _seat(value: str, field: str) -> int:
    if value not in ("E", "S", "W", "N"):
        raise _bad(f"{field}: expected a seat E, S, W or N, got {value!r}")
    return "ESWN".index(value)


def _four(value: str, field: str) -> list[str]:
    parts = value.split("/")
    if len(parts) != 4:
        raise _bad(f"{field}: expected four seats separated by '/', got {len(parts)}")
    return parts


def _int(value: str, field: str) -> int:
    if not value.isdigit():
        raise _bad(f"{field}: expected a whole number, got {value!r}")
    return int(value)


def _one_tile(value: str, field: str) -> Tile:
    tiles = _tiles(value, field)
    if len(tiles) != 1:
        raise _bad(f"{field}: expected one tile, got {value!r}")
    return tiles[0]


def _parse_melds(value: str, owner: int) -> tuple[list[Meld], list[tuple[int, int]]]:
    field = f"melds.{SEATS[owner].value}"
    melds: list[Meld] = []
    src: list[tuple[int, int]] = []
    if value == "-":
        return melds, src
    for token in value.split(","):
        kind = _LETTER_KIND.get(token[:1])
        if kind is None:
            raise _bad(f"{field}: {token!r} must start with c, p, k or a (chow, pung, kong, ckong)")
        body, sep, origin = token[1:].partition("<")
        try:
            meld = Meld.of(kind, _tiles(body, field))
        except RulesError as err:
            raise _bad(f"{field}: {err}") from None
        if kind is MeldKind.CKONG:
            if sep:
                raise _bad(f"{field}: a concealed kong ({token}) was claimed from nobody")
            src.append((-1, -1))
        else:
            if not sep or len(origin) < 3:
                raise _bad(
                    f"{field}: {token!r} names where it came from, like 'p777z<W7z' "
                    "(the seat and the tile claimed)"
                )
            d = _seat(origin[0], field)
            claimed = _one_tile(origin[1:], field)
            if d == owner:
                raise _bad(f"{field}: {token} cannot come from the seat's own discard")
            if claimed not in meld.tiles:
                raise _bad(f"{field}: {token}: the claimed {claimed} is not in the meld")
            if kind is MeldKind.CHOW and d != (owner - 1) % 4:
                raise _bad(f"{field}: {token}: a chow comes from the previous seat only")
            src.append((d, claimed.index))
        melds.append(meld)
    return melds, src


def _parse_river(value: str, seat: int) -> tuple[list[int], list[int]]:
    field = f"rivers.{SEATS[seat].value}"
    tiles: list[int] = []
    by: list[int] = []
    if value == "-":
        return tiles, by
    for chunk_no, chunk in enumerate(value.split(">")):
        body = chunk
        if chunk_no > 0:
            if not chunk:
                raise _bad(f"{field}: '>' must be followed by the seat that claimed the tile")
            if not tiles or by[-1] >= 0:
                raise _bad(f"{field}: '>' follows a discarded tile")
            claimer = _seat(chunk[0], field)
            if claimer == seat:
                raise _bad(f"{field}: a seat does not claim its own discard")
            by[-1] = claimer
            body = chunk[1:]
        for t in _tiles(body, field) if body else []:
            tiles.append(t.index)
            by.append(-1)
    return tiles, by


def from_position(text: str) -> State:
    """The state a written position describes, checked.

    >>> from_position("mazhan v=0")
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidPositionError: position: one of act, claim, rob or over is needed

    Raises :class:`~paiju.errors.InvalidPositionError` naming the field and the problem.
    """
    f = _fields(text)
    phases = [k for k in ("act", "claim", "rob", "over") if k in f]
    if len(phases) != 1:
        if not phases:
            raise _bad("one of act, claim, rob or over is needed")
        raise _bad(f"only one of act, claim, rob, over may be given ({', '.join(phases)})")
    required = ("v", "wild", "dice", "dead", "hands", "melds", "rivers", "wall")
    missing = [k for k in required if k not in f]
    if missing:
        raise _bad(f"missing field {missing[0]!r}")
    try:
        ruleset = Ruleset(dead_wall=_int(f["dead"], "dead"))
    except RulesError as err:
        raise _bad(f"dead: {err}") from None
    wild = _one_tile(f["wild"], "wild")
    if wild.is_bonus:
        raise _bad(f"wild: {wild} is a bonus tile; the wild is never a bonus tile")
    dice_text = f["dice"].split(",")
    if len(dice_text) != 2 or not all(d in "123456" and len(d) == 1 for d in dice_text):
        raise _bad(f"dice: expected two dice like '3,5', got {f['dice']!r}")
    aside = [t.index for t in _tiles(f.get("aside", "-"), "aside")]
    for f_aside in aside:
        if not ALL_TILES[f_aside].is_bonus:
            raise _bad(f"aside: {ALL_TILES[f_aside]} is not a bonus tile")
    hands = [[0] * 34 for _ in range(4)]
    for i, part in enumerate(_four(f["hands"], "hands")):
        for t in _tiles(part, f"hands.{SEATS[i].value}"):
            if t.is_bonus:
                raise _bad(f"hands.{SEATS[i].value}: {t} is a bonus tile (list it under bonus)")
            hands[i][t.index] += 1
    melds_src = [_parse_melds(p, i) for i, p in enumerate(_four(f["melds"], "melds"))]
    bonus = [
        [t.index for t in _tiles(p, f"bonus.{SEATS[i].value}")]
        for i, p in enumerate(_four(f.get("bonus", "-/-/-/-"), "bonus"))
    ]
    for i, b in enumerate(bonus):
        for face in b:
            if not ALL_TILES[face].is_bonus:
                raise _bad(f"bonus.{SEATS[i].value}: {ALL_TILES[face]} is not a bonus tile")
    rivers = [_parse_river(p, i) for i, p in enumerate(_four(f["rivers"], "rivers"))]
    wall = tuple(t.index for t in _tiles(f["wall"], "wall"))
    s = State(
        ruleset,
        0,
        wall,
        (int(dice_text[0]), int(dice_text[1])),
        0,
        len(wall),
        wild.index,
        wild.index,
        tuple(aside),
        hands,
        [m for m, _ in melds_src],
        [src for _, src in melds_src],
        bonus,
        [r[0] for r in rivers],
        [r[1] for r in rivers],
    )
    s.version = _int(f["v"], "v")
    s.dealer_discarded = bool(s.discards[0])
    s.kongs = sum(1 for ms in s.melds for m in ms if m.kind.is_kong)
    _check_tiles(s)
    over = _phase(s, f, phases[0])
    _check_sizes(s, over)
    _check_claims(s, over)
    if over is not None:
        _settle(s, over)
    elif s.phase is Phase.OVER:
        try:
            _finish_draw(s, None, eager=True)
        except RulesError as err:
            raise _bad(f"over: {err}") from None
    return s


def _phase(s: State, f: dict[str, str], phase: str) -> tuple[int, WinBy, Tile | None, int] | None:
    """Set the phase's fields; for ``over``, return (winner, how, tile, discarder)."""
    for key in ("draw", "decided"):
        if (
            key in f
            and not (key == "draw" and phase == "act")
            and not (key == "decided" and phase in ("claim", "rob"))
        ):
            raise _bad(f"{key}: does not go with {phase}")
    if phase == "act":
        c = _seat(f["act"], "act")
        s.phase = Phase.ACT
        s.current = c
        draw = f.get("draw")
        if draw is None:
            raise _bad("act: needs draw=… (a tile, a tile@kong, deal or claim)")
        if draw == "claim":
            s.drew = False
            last = s.melds[c][-1] if s.melds[c] else None
            if last is None or last.kind not in (MeldKind.CHOW, MeldKind.PUNG):
                raise _bad("draw=claim: the seat's last meld must be the chow or pung it took")
        elif draw == "deal":
            s.drew = True
        else:
            tile_text, at, how = draw.partition("@")
            if at and how != "kong":
                raise _bad(f"draw: expected a tile, tile@kong, deal or claim, got {draw!r}")
            tile = _one_tile(tile_text, "draw")
            if tile.is_bonus or not s.hands[c][tile.index]:
                raise _bad(f"draw: {tile} is not in {SEATS[c].value}'s hand")
            s.drew = True
            s.drawn = tile.index
            s.after_kong = bool(at)
            if s.after_kong and not any(m.kind.is_kong for m in s.melds[c]):
                raise _bad("draw: a kong's replacement, but the seat has no kong")
        return None
    if phase == "over":
        return _parse_over(s, f["over"])
    seat_text, _, tile_text = f[phase].partition(":")
    c = _seat(seat_text, phase)
    tile = _one_tile(tile_text, phase)
    decided: dict[int, Action] = {}
    if "decided" in f:
        for item in f["decided"].split(","):
            parts = item.split(":")
            o = _seat(parts[0], "decided")
            text = " ".join([SEATS[o].value, *parts[1:]])
            try:
                a = Action.parse(text)
            except RulesError as err:
                raise _bad(f"decided: {err}") from None
            if o in decided:
                raise _bad(f"decided: {SEATS[o].value} answers twice")
            decided[o] = a
    if phase == "claim":
        river = s.discards[c]
        if not river or river[-1] != tile.index or s.claimed_by[c][-1] >= 0:
            raise _bad(
                f"claim: {tile} must be the last tile of {SEATS[c].value}'s river, unclaimed"
            )
        options = _claim_options(s, c, tile.index, _keys_of(s))
        p = Phase.CLAIM
    else:
        if not any(m.kind is MeldKind.PUNG and m.face == tile for m in s.melds[c]):
            raise _bad(f"rob: {SEATS[c].value} has no pung of {tile} to add it to")
        if not s.hands[c][tile.index]:
            raise _bad(f"rob: {SEATS[c].value} does not hold the {tile} being added")
        options = _robbers(s, c, tile.index)
        p = Phase.ROB
    for o, a in decided.items():
        if a not in options.get(o, ()):
            legal = ", ".join(str(x) for x in options.get(o, ())) or "nothing"
            raise _bad(f"decided: {a} is not one of {SEATS[o].value}'s options ({legal})")
    pending = {o: opts for o, opts in options.items() if o not in decided}
    if not pending:
        raise _bad(f"{phase}: every seat has answered; the window would be closed")
    s.phase = p
    s.current = c
    s.claim_tile = tile.index
    s.claim_from = c
    s.options = pending
    s.decisions = decided
    s.drew = False
    if s.version < len(decided):
        raise _bad(f"v: {s.version} is fewer than the {len(decided)} answers given")
    s.window_version = s.version - len(decided)
    s.dihu_window = p is Phase.CLAIM and c == 0 and len(s.discards[0]) == 1 and s.kongs == 0
    return None


def _parse_over(s: State, value: str) -> tuple[int, WinBy, Tile | None, int] | None:
    s.phase = Phase.OVER
    s.drew = False
    if value == "liuju":
        return None
    parts = value.split(":")
    if not 2 <= len(parts) <= 4:
        raise _bad(f"over: expected liuju or winner:how[:tile[:discarder]], got {value!r}")
    winner = _seat(parts[0], "over")
    try:
        win_by = WinBy(parts[1])
    except ValueError:
        raise _bad(f"over: unknown way to win {parts[1]!r}") from None
    tile = None if len(parts) < 3 or parts[2] == "-" else _one_tile(parts[2], "over")
    discarder = _seat(parts[3], "over") if len(parts) == 4 else -1
    if win_by.is_discard_like != (discarder >= 0):
        raise _bad(f"over: a {win_by.value} win names {'a' if discarder < 0 else 'no'} discarder")
    return winner, win_by, tile, discarder


def _settle(s: State, over: tuple[int, WinBy, Tile | None, int]) -> None:
    winner, win_by, tile, discarder = over
    tianhu = winner == 0 and win_by.is_self_drawn and not s.discards[0]
    dihu = (
        win_by is WinBy.DISCARD and discarder == 0 and winner != 0
        and len(s.discards[0]) == 1 and s.kongs == 0
    )  # fmt: skip
    try:
        _finish(
            s,
            None,
            winner,
            win_by,
            tile,
            None if discarder < 0 else SEATS[discarder],
            tianhu=tianhu,
            dihu=dihu,
            eager=True,
        )
    except RulesError as err:
        raise _bad(f"over: {err}") from None


def _check_tiles(s: State) -> None:
    """The 144 tiles, each where it may be."""
    seen: Counter[int] = Counter(s.wall)
    seen.update(s.set_aside)
    seen[s.indicator] += 1
    for i in range(4):
        seen.update({f: n for f, n in enumerate(s.hands[i]) if n})
        for m in s.melds[i]:
            if ALL_TILES[s.wild] in m.tiles:
                raise _bad(f"melds.{SEATS[i].value}: {m} holds the wild face; a ★ is never melded")
            seen.update(t.index for t in m.tiles)
        seen.update(s.bonus[i])
        for t, by in zip(s.discards[i], s.claimed_by[i], strict=True):
            if t == s.wild or ALL_TILES[t].is_bonus:
                what = "the wild face (a ★ is never discarded)" if t == s.wild else "a bonus tile"
                raise _bad(f"rivers.{SEATS[i].value}: {ALL_TILES[t]} is {what}")
            if by < 0:
                seen[t] += 1
    full = Counter(FULL_SET)
    for f in sorted(set(full) | set(seen)):
        have, want = seen[f], full[f]
        if have != want:
            tile = ALL_TILES[f]
            more = "too many" if have > want else "missing"
            raise _bad(
                f"tiles: {have} of {tile} ({tile.name_zh}) in play, there are {want} "
                f"({more}; a claimed discard counts in the meld that took it)"
            )


def _check_sizes(s: State, over: tuple[int, WinBy, Tile | None, int] | None) -> None:
    long = -1  # the seat holding a 17th tile
    if s.phase is Phase.ACT:
        long = s.current
    elif s.phase is Phase.ROB:
        long = s.claim_from
    elif s.phase is Phase.OVER and over is not None:
        long = over[0]
    for i, seat in enumerate(SEATS):
        size = sum(s.hands[i]) + 3 * len(s.melds[i])
        want = 17 if i == long else 16
        if size != want:
            tiles = "tile" if size == 1 else "tiles"
            melds = "meld" if len(s.melds[i]) == 1 else "melds"
            raise _bad(
                f"hands.{seat.value}: holds {size} {tiles} ({sum(s.hands[i])} concealed + "
                f"{len(s.melds[i])} {melds} × 3), expected {want}"
            )


def _check_claims(s: State, over: tuple[int, WinBy, Tile | None, int] | None) -> None:
    """Every claimed discard lies in the meld (or the winning hand) of the seat that took it."""
    melded: Counter[tuple[int, int, int]] = Counter()
    for o in range(4):
        for d, t in s.meld_src[o]:
            if d >= 0:
                melded[(d, o, t)] += 1
    if over is not None and over[1] is WinBy.DISCARD:
        winner, _, tile, d = over
        river = s.discards[d]
        if tile is None or not river or river[-1] != tile.index or s.claimed_by[d][-1] != winner:
            raise _bad(
                f"over: the winning discard must be the last tile of {SEATS[d].value}'s river, "
                f"claimed by {SEATS[winner].value}"
            )
        melded[(d, winner, tile.index)] += 1
    claimed: Counter[tuple[int, int, int]] = Counter()
    for d in range(4):
        for t, by in zip(s.discards[d], s.claimed_by[d], strict=True):
            if by >= 0:
                claimed[(d, by, t)] += 1
    for key in sorted(set(melded) | set(claimed)):
        if melded[key] != claimed[key]:
            d, o, t = key
            raise _bad(
                f"rivers.{SEATS[d].value}: {claimed[key]} of its {ALL_TILES[t]} marked claimed by "
                f"{SEATS[o].value}, but {SEATS[o].value} took {melded[key]} (a claimed discard "
                "is marked '>seat' in the river and lies in that seat's meld)"
            )
