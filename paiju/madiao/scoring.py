"""Ma Diao settlement (rules §3.4, §3.5, §4.8): 吊 from the tricks, bonuses, 開沖 points,
banker against each 散家, 敲門; zero-sum, in 注 (halves are possible: 合吊).

>>> [str(x) for x in diao([3, 3, 2, 0])]
['1/2', '1/2', '0', '-1']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from paiju.madiao.cards import ALL_CARDS, Card, Role
from paiju.madiao.seats import SEATS, Seat

__all__ = [
    "DIAO_NAMES",
    "Bonus",
    "SeatSettlement",
    "SettleOptions",
    "Settlement",
    "diao",
    "diao_name",
    "settle",
]

BAILAO = ALL_CARDS[8]


def diao(tricks: Sequence[int]) -> list[Fraction]:
    """吊 per player (§3.4): fewer than 2 tricks −1; the losses shared equally by those with
    more than 2; exactly 2 is 0.

    >>> [int(x) for x in diao([5, 1, 1, 1])]
    [3, -1, -1, -1]

    Raises ``ValueError`` unless four counts sum to 8.
    """
    if len(tricks) != 4 or sum(tricks) != 8 or min(tricks) < 0:
        raise ValueError(f"expected four trick counts summing to 8, got {list(tricks)}")
    losers = sum(1 for t in tricks if t < 2)
    winners = sum(1 for t in tricks if t > 2)
    share = Fraction(losers, winners) if winners else Fraction(0)
    return [Fraction(-1) if t < 2 else share if t > 2 else Fraction(0) for t in tricks]


#: Names of the 吊 outcomes (§3.4), by the sorted shape of the results.
DIAO_NAMES = {
    "獨吊": "one player wins",
    "各吊": "two win one each",
    "合吊": "two share one",
    "四和氣": "all four even",
}


def diao_name(tricks: Sequence[int]) -> str:
    """The name of the outcome: 獨吊, 各吊, 合吊 or 四和氣.

    >>> [diao_name(t) for t in ([4, 2, 2, 0], [4, 4, 0, 0], [3, 3, 2, 0], [2, 2, 2, 2])]
    ['獨吊', '各吊', '合吊', '四和氣']
    """
    values = diao(tricks)
    positive = [v for v in values if v > 0]
    if not positive:
        return "四和氣"
    if len(positive) == 1:
        return "獨吊"
    return "各吊" if all(v == 1 for v in positive) else "合吊"


@dataclass(frozen=True, slots=True)
class Bonus:
    """One bonus item in 注.

    >>> Bonus("賞上桌 九萬", "top card (賞) won to the table: 9 Myriads", 1).to_json()["zhu"]
    1
    """

    name: str
    en: str
    zhu: int

    def to_json(self) -> dict[str, Any]:
        """The item as JSON.

        >>> Bonus("大活百", "百老 on the table", 3).to_json()["name"]
        '大活百'
        """
        return {"name": self.name, "en": self.en, "zhu": self.zhu}


@dataclass(frozen=True, slots=True)
class SeatSettlement:
    """One seat's figures.

    >>> SeatSettlement(2, True, Fraction(0), (), 0, Fraction(0)).to_json()["zhengben"]
    True
    """

    tricks: int
    zhengben: bool
    diao: Fraction
    bonuses: tuple[Bonus, ...]
    chong: int
    net: Fraction

    @property
    def bonus_total(self) -> int:
        """Bonus items plus 開沖 points.

        >>> SeatSettlement(2, True, Fraction(0), (Bonus("a", "a", 2),), 3, Fraction(0)).bonus_total
        5
        """
        return sum(b.zhu for b in self.bonuses) + self.chong

    def to_json(self) -> dict[str, Any]:
        """The seat as JSON (halves as 0.5).

        >>> SeatSettlement(3, True, Fraction(1, 2), (), 0, Fraction(1, 2)).to_json()["net"]
        0.5
        """
        return {
            "tricks": self.tricks,
            "zhengben": self.zhengben,
            "diao": _number(self.diao),
            "bonuses": [b.to_json() for b in self.bonuses],
            "chong": self.chong,
            "bonus_total": self.bonus_total,
            "net": _number(self.net),
        }


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


@dataclass(frozen=True, slots=True)
class Settlement:
    """Every seat's figures and net 注 (zero-sum), and the 敲門 transfers.

    >>> s = settle(Seat.E, [2, 2, 2, 2], [[], [], [], []], None, {})
    >>> s.to_json()["net"]
    {'E': 0, 'S': 0, 'W': 0, 'N': 0}
    """

    banker: Seat
    seats: Mapping[Seat, SeatSettlement]
    qiaomen: tuple[tuple[Seat, Seat, int], ...]
    he: tuple[tuple[Seat, Seat, int], ...] = ()

    @property
    def net(self) -> dict[Seat, Fraction]:
        """Each seat's net 注.

        >>> sum(settle(Seat.S, [8, 0, 0, 0], [[], [], [], []], None, {}).net.values())
        Fraction(0, 1)
        """
        return {s: self.seats[s].net for s in SEATS}

    def to_json(self) -> dict[str, Any]:
        """The settlement as JSON.

        >>> sorted(settle(Seat.E, [2, 2, 2, 2], [[]] * 4, None, {}).to_json())
        ['banker', 'net', 'qiaomen', 'seats']
        """
        return {
            "banker": self.banker.value,
            "seats": {s.value: self.seats[s].to_json() for s in SEATS},
            "qiaomen": [{"from": a.value, "to": b.value, "zhu": z} for a, b, z in self.qiaomen],
            "net": {s.value: _number(self.seats[s].net) for s in SEATS},
        } | ({"he": [{"from": a.value, "to": b.value, "zhu": z} for a, b, z in self.he]}
             if self.he else {})  # fmt: skip


_BONUS_ROLES = {Role.SHANG: "賞", Role.JIAN: "肩", Role.JI: "極"}
_BONUS_ROLES_EN = {Role.SHANG: "top card", Role.JIAN: "second card", Role.JI: "bottom card"}
#: 雌突 (八萬, 六萬, 五萬) and 公突 (百老 大公突, 九十 小公突), for the 突 module (§3.5).
CI_TU = frozenset(ALL_CARDS[i] for i in (18, 16, 15))
NINETY = ALL_CARDS[7]
#: The 雌突 cards as an English bonus line names them.
_TU_EN = "tu card (8, 6 or 5 Myriads)"


@dataclass(frozen=True, slots=True)
class SettleOptions:
    """The settlement's options (``paiju.madiao.rules.Ruleset`` names them).

    ``dahuobai`` 大活百's 注; ``qiaomen`` 敲門; ``bonus_roles`` ``q`` (each 賞, 肩, 極 上桌 is
    1 注) or ``m`` (賞 only, a 肩 counting as 賞 when the 面張 is its suit's 賞: 扶正次賞);
    ``tu`` the 突 module, ``off``, ``m`` or ``q``; ``settlement`` ``kaizhu`` (開注: each 散家
    pays the banker's bonus in full) or ``split`` (the three 散家 share it).

    >>> SettleOptions().tu
    'off'
    """

    dahuobai: int = 3
    qiaomen: bool = True
    bonus_roles: str = "q"
    tu: str = "off"
    settlement: str = "kaizhu"


def settle(
    banker: Seat,
    tricks: Sequence[int],
    table: Sequence[Sequence[Card]],
    bailao_holder: Seat | None,
    chong: Mapping[Seat, int],
    *,
    dahuobai: int = 3,
    qiaomen: bool = True,
    options: SettleOptions | None = None,
    mian: Card | None = None,
    dealt: Sequence[Sequence[Card]] | None = None,
    he: tuple[Seat, int] | None = None,
) -> Settlement:
    """Settle one hand (§3.5, §4.8): for each 散家 ``j``, ``net_j = 吊_j + Bonus_j −
    Bonus_banker`` (with ``split``, a third of the banker's); the banker's net is minus their
    sum; then 敲門, and 賀 for a special hand (``he``: its holder and 注, paid by each other
    seat; the hand was not played, so there is no 吊 and no bonus).

    ``table[i]`` are seat ``i``'s 上桌 cards, ``bailao_holder`` the seat dealt 百老,
    ``chong`` the 開沖 points per seat, ``dealt`` each seat's eight cards (for 突), ``mian``
    the 面張 (for 扶正次賞).

    >>> s = settle(Seat.E, [4, 2, 1, 1], [parse("9m1m8s2t"), parse("5m4s"), parse("3c"),
    ...            parse("2c")], Seat.S, {Seat.E: 5})
    >>> {k: v for k, v in s.to_json()["net"].items()}
    {'E': 27, 'S': -7, 'W': -10, 'N': -10}
    """
    opts = options or SettleOptions(dahuobai=dahuobai, qiaomen=qiaomen)
    diaos = [Fraction(0)] * 4 if he is not None else diao(tricks)
    seats: dict[Seat, tuple[int, bool, Fraction, tuple[Bonus, ...], int]] = {}
    for i, seat in enumerate(SEATS):
        zhengben = len(table[i]) >= 2
        items: list[Bonus] = []
        if he is None:
            if zhengben:
                items += _card_bonuses(table[i], opts, mian)
            items += _bailao(seat, i, bailao_holder, zhengben, table, opts, dealt)
        seats[seat] = (tricks[i], zhengben, diaos[i], tuple(items), chong.get(seat, 0))
    totals = {s: sum(b.zhu for b in v[3]) + v[4] for s, v in seats.items()}
    share = Fraction(1, 3) if opts.settlement == "split" else Fraction(1)
    net: dict[Seat, Fraction] = {}
    for seat in SEATS:
        if seat is not banker:
            net[seat] = seats[seat][2] + totals[seat] - totals[banker] * share
    net[banker] = -sum(net.values(), Fraction(0))
    transfers: list[tuple[Seat, Seat, int]] = []
    if opts.qiaomen:
        for seat in SEATS:
            if seat is banker:
                continue
            amount = _qiaomen(seats[seat][3], opts)
            if amount:
                for other in SEATS:
                    if other not in (seat, banker):
                        transfers.append((other, seat, amount))
                        net[other] -= amount
                        net[seat] += amount
    congratulations: list[tuple[Seat, Seat, int]] = []
    if he is not None:
        holder, zhu = he
        for other in SEATS:
            if other is not holder:
                congratulations.append((other, holder, zhu))
                net[other] -= zhu
                net[holder] += zhu
    return Settlement(
        banker,
        {s: SeatSettlement(*seats[s], net=net[s]) for s in SEATS},
        tuple(transfers),
        tuple(congratulations),
    )


def _card_bonuses(cards: Sequence[Card], opts: SettleOptions, mian: Card | None) -> list[Bonus]:
    items = []
    for c in sorted(cards, key=lambda c: (c.suit.offset, -c.rank)):
        role = _BONUS_ROLES.get(c.role)
        if role is None:
            continue
        if opts.bonus_roles == "m":  # [M]: only 賞, and a 次賞 made 正賞 by the 面張
            fuzheng = (
                c.role is Role.JIAN
                and mian is not None
                and mian.suit is c.suit
                and mian.role is Role.SHANG
            )
            if c.role is not Role.SHANG and not fuzheng:
                continue
            if fuzheng:
                en = f"second card (次賞) made top (正賞) by the face card: {c.name_en}"
                items.append(Bonus(f"扶正次賞 {c.name_zh}", en, 1))
                continue
        en = f"{_BONUS_ROLES_EN[c.role]} ({role}) won to the table: {c.name_en}"
        items.append(Bonus(f"{role}上桌 {c.name_zh}", en, 1))
    return items


def _bailao(
    seat: Seat,
    i: int,
    holder: Seat | None,
    zhengben: bool,
    table: Sequence[Sequence[Card]],
    opts: SettleOptions,
    dealt: Sequence[Sequence[Card]] | None,
) -> list[Bonus]:
    """百老 (§3.5) and, with the 突 module, its 突 forms and 小突."""
    hand = set(dealt[i]) if dealt is not None else set()
    ci = bool(hand & CI_TU)
    tu = opts.tu != "off" and ci
    items: list[Bonus] = []
    if holder is seat:
        on_table = zhengben and BAILAO in table[i]
        if on_table and tu and opts.tu == "q" and NINETY in hand and hand >= CI_TU:
            items.append(
                Bonus(
                    "全突大活",
                    "Hundred Myriads won to the table, 2+ tricks, with Ninety Myriads"
                    " and all three tu cards (8, 6, 5 Myriads) ([Q])",
                    30,
                )
            )
        elif on_table and tu:
            zhu = 10 if opts.tu == "q" else 2 * opts.dahuobai
            items.append(
                Bonus(
                    "大活百突", f"Hundred Myriads won to the table, 2+ tricks, with a {_TU_EN}", zhu
                )
            )
        elif on_table:
            items.append(
                Bonus("大活百", "Hundred Myriads won to the table, 2+ tricks", opts.dahuobai)
            )
        elif zhengben and tu and opts.tu == "m":
            items.append(
                Bonus(
                    "小活百突",
                    f"Hundred Myriads held, 2+ tricks, not on the table, with a {_TU_EN} ([M])",
                    4,
                )
            )
        elif zhengben:
            items.append(Bonus("小活百", "Hundred Myriads held, 2+ tricks, not on the table", 2))
        elif tu and opts.tu == "m":
            items.append(
                Bonus("死百突", f"Hundred Myriads held, under 2 tricks, with a {_TU_EN} ([M])", 2)
            )
        else:
            items.append(Bonus("死百", "Hundred Myriads held, under 2 tricks", 1))
    elif tu and zhengben and NINETY in hand:
        items.append(
            Bonus("小突", f"Ninety Myriads with a {_TU_EN}, 2+ tricks", 2 if opts.tu == "q" else 1)
        )
    return items


def _qiaomen(items: Sequence[Bonus], opts: SettleOptions) -> int:
    """敲門: what a 散家's 大活百 collects from each other 散家 ([M] 1; [Q] with 突: 大活百 1,
    大活百突 2, 全突大活 5)."""
    names = {b.name for b in items}
    if opts.tu == "q":
        for name, zhu in (("全突大活", 5), ("大活百突", 2), ("大活百", 1)):
            if name in names:
                return zhu
        return 0
    return 1 if names & {"大活百", "大活百突"} else 0


def parse(text: str) -> list[Card]:
    """Cards from notation (a short alias for the doctests).

    >>> [str(c) for c in parse("9m1m")]
    ['9m', '1m']
    """
    from paiju.madiao.cards import parse_cards

    return parse_cards(text)
