"""開沖 (kai chong): the points a drawn stock card scores against a player's table (rules §4).

A player's *group* in a suit is his 上桌 (table) cards of that suit plus the cards he has
already 沖'd in it. Only table cards lead, never drawn ones. For each active leader ``L`` in
the drawn card ``D``'s suit, the first row that matches gives its value (§4.4):

1. ``L`` acts as 賞 and ``D`` is 極, or ``L`` is 極 and ``D`` is 賞: 3
2. ``L`` is 肩 and ``D`` is 賞 (this switches on a lone 肩, which then acts as 賞): 3
3. ``D`` is 肩 and ``L`` is 賞 or 極: 2
4. ``D`` fills the gap of ``L``'s 間領: 3 if ``L`` ranks below ``D``, else 2
5. ``D`` is connected for ``L`` (adjacent, round the ring, to ``L``'s connected cards): 2
6. otherwise (隔青亦算): 1

Leaders: 賞 and 極; a 肩 beside its table 賞 (a lone 肩 waits for the 賞); 青 cards that are
members of a 順領 (a run of three or more table cards holding 賞 or 極), or of a 間領 (a run
with one card missing, holding 賞 or 極) once this player has 沖'd its gap. 十字 follows its
own table (§4.6) with 萬萬/千萬/百萬 merged into one ring node, and a top card that captured
other top cards face up counts once more for each (雙胞胎, 三胞胎).

>>> score_sequence("9m", "76854m")
[1, 1, 2, 2, 2]
>>> score_sequence("qt", "29t", captured={"qt": "bt"})
[10, 4]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import TypeVar

from paiju.errors import InvalidHandError, NotationError, json_kind, quote
from paiju.kit.inputs import exactly_one
from paiju.madiao.cards import ALL_CARDS, Card, Suit, parse_cards

__all__ = [
    "CHONG_OPTIONS",
    "ChongRoles",
    "Group",
    "base_roles",
    "chong_points",
    "score_sequence",
]

_TOP = 99  # the 十字 ring node of 萬萬, 千萬 and 百萬


@dataclass(frozen=True, slots=True)
class ChongRoles:
    """Which cards act as 賞, 肩 and 極 in 萬, 索 and 文; which make the 十字 top group and
    which act as its 九十 and 二十. :func:`base_roles` gives the printed roles; 升代 (§4.7)
    changes them.

    >>> r = base_roles()
    >>> sorted(str(ALL_CARDS[i]) for i in r.shang)
    ['0c', '9m', '9s']
    """

    shang: frozenset[int]
    jian: frozenset[int]
    ji: frozenset[int]
    top: frozenset[int]
    ninety: frozenset[int]
    ershi: frozenset[int]
    top_vs_top: int = 2
    #: the 開沖 options of the ruleset (``paiju.madiao.rules.Ruleset``), defaults as §4–§6
    wrap_straights: bool = True
    jianling: str = "on_gap"
    gap_card_leads: bool = False
    capture_multiplier: str = "count"
    separate_top_leaders: bool = True
    shi_runs: bool = False

    def shengdai(self, mian: Card) -> ChongRoles:
        """The roles after 升代 on this 面張 (§4.7).

        >>> r = base_roles().shengdai(Card.parse("9m"))
        >>> Card.parse("8m").index in r.shang
        True
        >>> r = base_roles().shengdai(Card.parse("bt"))
        >>> Card.parse("9t").index in r.top, r.ninety
        (True, frozenset())
        """
        i = mian.index
        suit = mian.suit
        if suit is Suit.SHI:
            if mian.is_top:
                return _replace(self, top=self.top | {7}, ninety=frozenset())
            if i == 7:  # 九十 → 八十 acts as 九十
                return _replace(self, ninety=frozenset({6}))
            if i == 0:  # 二十 → 三十 acts as 二十
                return _replace(self, ershi=self.ershi | {1})
            return self
        top, jian, ding = (
            suit.offset + suit.size - 1,
            suit.offset + suit.size - 2,
            (suit.offset + suit.size - 3),
        )
        if i == top:
            return _replace(self, shang=self.shang | {jian}, jian=self.jian - {jian})
        if i == jian:
            return _replace(self, jian=self.jian | {ding})
        if i == suit.offset:  # 極 → 副極 acts as 極
            return _replace(self, ji=self.ji | {suit.offset + 1})
        return self


#: The 開沖 options (the fields of :class:`ChongRoles` with a default), as a ruleset sets them.
CHONG_OPTIONS = tuple(f.name for f in fields(ChongRoles) if f.default is not MISSING)


def _replace(r: ChongRoles, **changes: frozenset[int]) -> ChongRoles:
    return replace(r, **changes)  # type: ignore[arg-type]


def base_roles(top_vs_top: int = 2, **options: bool | str) -> ChongRoles:
    """The printed roles: 賞/肩/極 of 萬, 索, 文; 十字's top group, 九十 and 二十.
    ``top_vs_top`` is what a 十字 top card scores for another top card drawn (§4.6);
    ``options`` are the other 開沖 options (the fields of :class:`ChongRoles`).

    >>> len(base_roles().ji), base_roles(wrap_straights=False).wrap_straights
    (3, False)
    """
    ordinary = (Suit.WAN, Suit.SUO, Suit.WEN)
    roles = ChongRoles(
        shang=frozenset(s.offset + s.size - 1 for s in ordinary),
        jian=frozenset(s.offset + s.size - 2 for s in ordinary),
        ji=frozenset(s.offset for s in ordinary),
        top=frozenset({8, 9, 10}),
        ninety=frozenset({7}),
        ershi=frozenset({0}),
        top_vs_top=top_vs_top,
    )
    return replace(roles, **options)  # type: ignore[arg-type]


@dataclass(slots=True)
class Group:
    """One player's 開沖 cards: table cards, 沖'd cards, and the top cards each 十字 top
    card captured face up in its trick.

    >>> g = Group.parse("9m")
    >>> g.score(Card.parse("8m")), g.score(Card.parse("1m"))
    (2, 3)
    """

    table: list[Card] = field(default_factory=list)
    chonged: list[Card] = field(default_factory=list)
    captured: dict[Card, tuple[Card, ...]] = field(default_factory=dict)
    roles: ChongRoles = field(default_factory=base_roles)

    @staticmethod
    def parse(table: str, captured: Mapping[str, str] | None = None) -> Group:
        """A group from card strings (``captured`` maps a top card to what it captured).

        >>> Group.parse("qt", {"qt": "bt"}).captured
        {Card.parse('qt'): (Card.parse('bt'),)}
        """
        cap = {Card.parse(k): tuple(parse_cards(v)) for k, v in (captured or {}).items()}
        return Group(list(parse_cards(table)), [], cap)

    def score(self, card: Card) -> int:
        """The points ``card`` would score now (0 is 斷沖).

        >>> Group.parse("8m").score(Card.parse("7m"))
        0
        """
        return chong_points(card, self.table, self.chonged, self.captured, self.roles)

    def take(self, card: Card) -> int:
        """Score ``card`` and, when it scores, add it to the 沖'd cards.

        >>> g = Group.parse("8m")
        >>> g.take(Card.parse("9m")), g.take(Card.parse("7m"))
        (3, 2)
        """
        points = self.score(card)
        if points > 0:
            self.chonged.append(card)
        return points


def chong_points(
    card: Card,
    table: Sequence[Card],
    chonged: Sequence[Card],
    captured: Mapping[Card, Sequence[Card]] | None = None,
    roles: ChongRoles | None = None,
) -> int:
    """Points ``card`` scores for a player with these table and 沖'd cards (0 is 斷沖).

    >>> chong_points(Card.parse("1m"), parse_cards("9m8m"), [])
    5

    Raises :class:`~paiju.errors.InvalidHandError` when ``card`` is already one of them.
    """
    r = roles or base_roles()
    if card in table or card in chonged:
        raise InvalidHandError(f"{card} is already among the player's cards")
    suit = card.suit
    t = [c for c in table if c.suit is suit]
    g = t + [c for c in chonged if c.suit is suit]
    if suit is Suit.SHI:
        return _shi_points(card, t, g, captured or {}, r)
    return _ordinary_points(card, t, g, {c.index for c in chonged}, r)


# --- 萬, 索, 文 ----------------------------------------------------------------------------


def _ring_neighbours(rank: int, n: int) -> tuple[int, int]:
    return (n if rank == 1 else rank - 1), (1 if rank == n else rank + 1)


def _line_neighbours(rank: int, n: int) -> tuple[int, int]:
    """Neighbours for straights that may not wrap: 賞 and 極 are not adjacent (0 and n + 1
    are never held)."""
    return rank - 1, rank + 1


_C = TypeVar("_C")  # what a neighbour function needs besides the member


def _component(
    start: int,
    members: set[int],
    n: _C,
    neighbours: Callable[[int, _C], Iterable[int]],
) -> set[int]:
    """The members reached from ``start`` through ``neighbours(member, n)`` (``n``: a
    suit's size for ranks, the roles for 十字 nodes)."""
    seen = {start}
    todo = [start]
    while todo:
        r = todo.pop()
        for nb in neighbours(r, n):
            if nb in members and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen


def _runs(
    ranks: set[int],
    n: int,
    neighbours: Callable[[int, int], tuple[int, int]] = _ring_neighbours,
) -> list[set[int]]:
    """Maximal runs of consecutive ranks (round the ring when straights wrap)."""
    left = set(ranks)
    out = []
    while left:
        comp = _component(next(iter(left)), ranks, n, neighbours)
        out.append(comp)
        left -= comp
    return out


def _ordinary_points(
    card: Card, table: list[Card], group: list[Card], chonged: set[int], r: ChongRoles
) -> int:
    suit = card.suit
    n = suit.size
    off = suit.offset
    d = card.rank
    table_ranks = {c.rank for c in table}
    group_ranks = {c.rank for c in group}

    def is_shang(rank: int) -> bool:
        return off + rank - 1 in r.shang

    def is_jian(rank: int) -> bool:
        return off + rank - 1 in r.jian

    def is_ji(rank: int) -> bool:
        return off + rank - 1 in r.ji

    table_shang = any(is_shang(x) for x in table_ranks)
    chonged_shang = any(is_shang(c.rank) for c in group if c.index in chonged)
    line = _ring_neighbours if r.wrap_straights else _line_neighbours
    # 順領: runs of three or more table cards holding 賞 or 極
    shun: set[int] = set()
    for run in _runs(table_ranks, n, line):
        if len(run) >= 3 and any(is_shang(x) or is_ji(x) for x in run):
            shun |= run
    # 間領: a missing rank with table cards on both sides, the run holding 賞 or 極
    gaps = _gaps(table_ranks, n, line, lambda m: is_shang(m) or is_ji(m))
    chonged_gaps = {gap for gap in gaps if off + gap - 1 in chonged}
    leaders = sorted(table_ranks | (chonged_gaps if r.gap_card_leads else set()))
    total = 0
    for lead in leaders:
        gap_of = [gap for gap, members in gaps.items() if lead in members]
        if lead not in table_ranks:  # a 沖'd gap card leading as a member of its 順領
            run = _component(lead, group_ranks, n, _ring_neighbours)
            total += 1 if _disconnected(d, run, n) else 2
            continue
        if is_shang(lead):
            acts_shang, active = True, True
        elif is_ji(lead):
            acts_shang, active = False, True
        elif is_jian(lead):
            if table_shang:
                acts_shang, active = False, True
            elif chonged_shang:
                acts_shang, active = True, True  # a lone 肩 that 沖'd its 賞
            elif is_shang(d):
                total += 3  # row 2: the 賞 switches the lone 肩 on
                continue
            else:
                continue
        else:  # 青
            acts_shang = False
            active = (
                lead in shun
                or any(off + gap - 1 in chonged for gap in gap_of)
                or (r.jianling == "at_once" and bool(gap_of))
            )
            if not active and d not in gap_of:
                continue
        if (acts_shang and is_ji(d)) or (is_ji(lead) and is_shang(d)):
            value = 3
        elif is_jian(d) and (acts_shang or is_ji(lead)):
            value = 2
        elif d in gap_of:
            value = 3 if lead < d else 2
        elif not _disconnected(d, _component(lead, group_ranks, n, _ring_neighbours), n):
            value = 2
        else:
            value = 1
        total += value
    return total


def _disconnected(d: int, component: set[int], n: int) -> bool:
    return not any(nb in component for nb in _ring_neighbours(d, n))


def _gaps(
    table: set[int],
    n: int,
    line: Callable[[int, int], tuple[int, int]],
    anchor: Callable[[int], bool],
) -> dict[int, set[int]]:
    """間領: each missing rank with table cards on both sides (along ``line``) whose run holds
    an ``anchor`` (賞 or 極), and the members of that run."""
    gaps: dict[int, set[int]] = {}
    for gap in range(1, n + 1):
        if gap in table:
            continue
        below: set[int] = set()
        above: set[int] = set()
        x = line(gap, n)[0]
        while x in table and x not in below:
            below.add(x)
            x = line(x, n)[0]
        x = line(gap, n)[1]
        while x in table and x not in above:
            above.add(x)
            x = line(x, n)[1]
        members = below | above
        if below and above and any(anchor(m) for m in members):
            gaps[gap] = members
    return gaps


# --- 十字 ----------------------------------------------------------------------------------


def _shi_node(card: Card, r: ChongRoles) -> int:
    return _TOP if card.index in r.top else card.rank


def _shi_neighbours(node: int, r: ChongRoles) -> set[int]:
    """Ring neighbours of a 十字 node: ranks 1–11 in a ring, the top group merged."""
    ranks = [rank for rank in range(1, 12) if _shi_node(ALL_CARDS[rank - 1], r) == node]
    out: set[int] = set()
    for rank in ranks:
        for nb in (rank - 1 if rank > 1 else 11, rank + 1 if rank < 11 else 1):
            other = _shi_node(ALL_CARDS[nb - 1], r)
            if other != node:
                out.add(other)
    return out


def _shi_points(
    card: Card,
    table: list[Card],
    group: list[Card],
    captured: Mapping[Card, Sequence[Card]],
    r: ChongRoles,
) -> int:
    nodes = {_shi_node(c, r) for c in group}
    d_node = _shi_node(card, r)
    d_top = card.index in r.top
    d_ninety = card.index in r.ninety
    d_ershi = card.index in r.ershi
    bailao = ALL_CARDS[8]

    def connected(lead: Card) -> bool:
        comp = _component(_shi_node(lead, r), nodes, r, _shi_neighbours)
        return bool(_shi_neighbours(d_node, r) & comp)

    def multiplier(lead: Card) -> int:
        took = captured.get(lead, ())
        if r.capture_multiplier == "count":
            return 1 + len(took)
        if r.capture_multiplier == "bailao":  # the seed's cases only: 百老 captured
            return 1 + len(took) if bailao in took else 1
        return 1

    tops = [c for c in table if c.index in r.top]
    total = 0
    if not r.separate_top_leaders and len(tops) > 1:
        # the top cards on the table lead together, once, with the largest multiplier
        best = max(tops, key=multiplier)
        table = [c for c in table if c.index not in r.top or c is best]
    for lead in table:
        i = lead.index
        if i in r.top:
            if d_ershi:
                v = 5
            elif d_top:
                v = r.top_vs_top
            elif d_ninety or connected(lead):
                v = 2
            else:
                v = 1
            total += v * multiplier(lead)
        elif i in r.ershi:
            if d_top:
                total += 5
            elif d_ninety or connected(lead):
                total += 2
            else:
                total += 1
        elif i in r.ninety:
            active = bailao in group
            if not active:
                total += 5 if card == bailao else 0
            elif d_top:
                continue  # 紅萬 and 千僧 do not 沖 with 九十
            elif d_ershi or connected(lead):
                total += 2
            else:
                total += 1
    if r.shi_runs:
        total += _shi_run_points(card, table, group, r)
    return total


#: 十字 on a ring of nine positions: 二十 … 九十, then the merged top group.
def _shi_pos(card: Card, r: ChongRoles) -> int:
    return 8 if card.index in r.top else card.rank - 1


def _shi_run_points(card: Card, table: list[Card], group: list[Card], r: ChongRoles) -> int:
    """順領/間領 in 十字 (option ``shi_runs``): the 青 table cards (三十 … 八十) in a run of
    three or more ring positions holding the top group or 二十 lead too, as in the other
    suits: a 間領's gap scores 3 (member below) or 2 (above); else connected 2, else 1."""
    n = 9
    pos = {_shi_pos(c, r) + 1 for c in table}  # ranks 1–9 on the ring
    line = _ring_neighbours if r.wrap_straights else _line_neighbours

    def anchor(p: int) -> bool:
        return p in (1, 9)  # 二十 or the top group

    shun: set[int] = set()
    for run in _runs(pos, n, line):
        if len(run) >= 3 and any(anchor(p) for p in run):
            shun |= run
    gaps = _gaps(pos, n, line, anchor)
    d = _shi_pos(card, r) + 1
    group_pos = {_shi_pos(c, r) + 1 for c in group}
    chonged = group_pos - pos
    total = 0
    for c in table:
        if c.index in r.top or c.index in r.ershi or c.index in r.ninety:
            continue  # those lead by §4.6 already
        lead = _shi_pos(c, r) + 1
        gap_of = [g for g, members in gaps.items() if lead in members]
        active = (
            lead in shun
            or any(g in chonged for g in gap_of)
            or (r.jianling == "at_once" and bool(gap_of))
        )
        if d in gap_of:
            total += 3 if lead < d else 2
        elif active:
            connected = not _disconnected(d, _component(lead, group_pos, n, _ring_neighbours), n)
            total += 2 if connected else 1
    return total


def score_sequence(
    table: str,
    draws: str,
    captured: Mapping[str, str] | None = None,
    roles: ChongRoles | None = None,
) -> list[int]:
    """One player's points for each drawn card in order (§7); a 0 is 斷沖, the card is not
    added, and scoring goes on.

    >>> score_sequence("8m", "92314m5m")
    [3, 1, 1, 3, 2, 2]

    Raises :class:`~paiju.errors.InvalidHandError` (or a
    :class:`~paiju.errors.NotationError`) for bad input.
    """
    table_cards = _field_cards(table, "table")
    draw_cards = _field_cards(draws, "draws")
    cap = _check_captured(table_cards, draw_cards, {} if captured is None else captured)
    seen: set[Card] = set()
    for c in table_cards:
        if c in seen:
            raise _bad_card("table", c, "table_twice", f"{c} ({c.name_zh}) appears twice")
        seen.add(c)
    for c in draw_cards:
        if c in table_cards:
            raise _bad_card(
                "draws", c, "drawn_on_table", f"{c} ({c.name_zh}) is already on the table"
            )
        if c in seen:
            raise _bad_card("draws", c, "drawn_twice", f"{c} ({c.name_zh}) is drawn twice")
        seen.add(c)
    group = Group(table_cards, [], cap, roles or base_roles())
    return [group.take(c) for c in draw_cards]


def _bad_card(field: str, card: Card, why: str, what: str, **params: str) -> InvalidHandError:
    """The error for ``card`` in ``field``: ``what`` is wrong with it."""
    return InvalidHandError(f"{field}: {what}", why=why, field=field, card=str(card), **params)


#: A player wins at most one card to the table a trick, and there are 8 tricks (§3.1).
MAX_TABLE = 8
#: The 底牌 (stock) holds 8 cards (§2): no player draws more.
MAX_DRAWS = 8


def _one(text: str, name: str) -> Card:
    return exactly_one(_field_cards(text, name), name, "card", quote(text))


def _field_cards(text: str, name: str) -> list[Card]:
    try:
        return parse_cards(text)
    except NotationError as err:
        raise err.under(name) from None


def _check_captured(
    table: list[Card], draws: list[Card], captured: Mapping[str, str]
) -> dict[Card, tuple[Card, ...]]:
    if not isinstance(captured, Mapping):
        raise InvalidHandError(
            f'captured: expected an object like {{"qt": "bt"}}, got {json_kind(captured)}'
        )
    out: dict[Card, tuple[Card, ...]] = {}
    used: set[Card] = set()
    for key, value in captured.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise InvalidHandError("captured: keys and values are card strings")
        holder = _one(key, "captured")
        if not holder.is_top or holder not in table:
            raise _bad_card(
                "captured",
                holder,
                "captor_not_top",
                f"{holder} is not a 十字 top card (wt, qt, bt) on the table",
            )
        cards = tuple(_field_cards(value, "captured"))
        for c in cards:
            if not c.is_top:
                raise _bad_card(
                    "captured", c, "captive_not_top", f"{c} is not a 十字 top card (wt, qt, bt)"
                )
            if c in table or c in draws or c in used or c == holder:
                raise _bad_card("captured", c, "captive_elsewhere", f"{c} appears elsewhere")
            if c.rank > holder.rank:
                raise _bad_card(
                    "captured",
                    c,
                    "captive_higher",
                    f"{holder} cannot capture the higher {c}",
                    captor=str(holder),
                )
            used.add(c)
        out[holder] = cards
    return out


def parse_chong_input(data: object) -> list[int]:
    """Score §7's JSON input: ``{"table", "draws", "captured"?}``; the points per draw.

    >>> parse_chong_input({"table": "9m", "draws": "76854m"})
    [1, 1, 2, 2, 2]
    >>> parse_chong_input({"table": "9m"})
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidHandError: input: missing field 'draws'
    >>> parse_chong_input({"table": "9m", "draws": "87654321m9s"})
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidHandError: draws: 9 cards, but there are only 8 底牌 to draw (§2)
    >>> parse_chong_input({"table": "9m", "draws": "8m", "captured": []})
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidHandError: captured: expected an object like {"qt": "bt"}, got an array ...

    Raises :class:`~paiju.errors.InvalidHandError` naming the problem.
    """
    if not isinstance(data, dict):
        raise InvalidHandError(f"input: expected a JSON object, got {json_kind(data)}")
    for key in ("table", "draws"):
        if key not in data:
            raise InvalidHandError(f"input: missing field {key!r}")
        if not isinstance(data[key], str):
            raise InvalidHandError(
                f"{key}: expected a card string like '9m8m', got {json_kind(data[key])}"
            )
    unknown = set(data) - {"table", "draws", "captured"}
    if unknown:
        raise InvalidHandError(
            f"input: unknown field {quote(sorted(unknown)[0])} (expected table, draws, captured)"
        )
    captured = data.get("captured", {})
    if not isinstance(captured, dict):  # null or [] is not "none captured": leave it out
        raise InvalidHandError(
            f'captured: expected an object like {{"qt": "bt"}}, got {json_kind(captured)} '
            "(leave the field out when nothing was captured)"
        )
    points = score_sequence(data["table"], data["draws"], captured)
    # a scoring function scores any sequence; a hand holds at most 8 of each (checked after
    # the notation, so that a bad card is named first)
    for key, most, why in (
        ("table", MAX_TABLE, "a player wins at most {most} cards to the table, one a trick (§3.1)"),
        ("draws", MAX_DRAWS, "there are only {most} 底牌 to draw (§2)"),
    ):
        n = len(parse_cards(data[key]))
        if n > most:
            raise InvalidHandError(
                f"{key}: {n} cards, but {why.format(most=most)}",
                why=f"{key}_too_many",
                field=key,
                n=n,
                most=most,
            )
    return points
