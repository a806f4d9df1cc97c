"""The money rules of the online table (the table rules, §10), as pure integer arithmetic.

Every function returns *movements*: ``(from, to, amount)`` triples between account keys
(``HOUSE`` for the house), which the ledger applies in one transaction. No function here
lets a balance go below zero, and every point that leaves an account arrives in another.

>>> stake_for([8000, 12000, 9000, 30000])
10
>>> settle_hand({"a": 100, "b": 5}, [("b", "a", 40)])
[('b', 'a', 5)]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

__all__ = ["HOUSE", "escape_penalty", "settle_hand", "stake_for", "table_fees"]

K = TypeVar("K", bound=Hashable)

#: The key of the house account in movements.
HOUSE = "__house__"
#: The stake ladder: 1, 2, 5, 10, 20, 50, … (§10).
_LADDER_STEPS = (1, 2, 5)


def stake_for(balances: Sequence[int], per: int = 800) -> int:
    """底注: the largest ladder value not above (lowest balance) / 800; at least 1.

    >>> [stake_for([b]) for b in (0, 799, 1600, 8000, 40000, 1_000_000)]
    [1, 1, 2, 10, 50, 1000]

    Raises ``ValueError`` for no balances.
    """
    if not balances:
        raise ValueError("no balances to set a stake from")
    limit = min(balances) // per
    best = 1
    scale = 1
    while scale <= max(limit, 1):
        for step in _LADDER_STEPS:
            if step * scale <= limit:
                best = step * scale
        scale *= 10
    return best


def table_fees(balances: Mapping[K, int], stake: int) -> list[tuple[K | str, K | str, int]]:
    """台費: the stake from each player to the house (all a player has, if less).

    >>> table_fees({"a": 100, "b": 3}, 5)
    [('a', '__house__', 5), ('b', '__house__', 3)]
    """
    return [(k, HOUSE, min(stake, b)) for k, b in balances.items() if min(stake, b) > 0]


def settle_hand(
    balances: Mapping[K, int], payments: Sequence[tuple[K, K, int]]
) -> list[tuple[K | str, K | str, int]]:
    """The movements of a settlement in points (胡 × 底注): a player who owes more than their
    balance pays all of it, each payment scaled down in proportion (rounded down), and the
    remainder of what they pay goes to the house.

    >>> settle_hand({"a": 0, "b": 10, "c": 100}, [("b", "a", 30), ("b", "c", 10), ("c", "a", 5)])
    [('b', 'a', 7), ('b', 'c', 2), ('b', '__house__', 1), ('c', 'a', 5)]

    Raises ``ValueError`` for a negative payment or an unknown account.
    """
    owed: dict[K, int] = {}
    for payer, payee, amount in payments:
        if amount < 0:
            raise ValueError(f"negative payment {amount} from {payer!r} to {payee!r}")
        for key in (payer, payee):
            if key not in balances:
                raise ValueError(f"unknown account {key!r}")
        owed[payer] = owed.get(payer, 0) + amount
    out: list[tuple[K | str, K | str, int]] = []
    done: set[K] = set()
    for payer, _payee, _amount in payments:
        if payer in done:
            continue
        done.add(payer)
        mine = [(p, a) for q, p, a in payments if q == payer and a > 0]
        total = owed[payer]
        have = max(0, balances[payer])
        if total <= have:
            out.extend((payer, p, a) for p, a in mine)
            continue
        paid = 0
        for p, a in mine:
            share = a * have // total
            if share:
                out.append((payer, p, share))
                paid += share
        if have - paid:
            out.append((payer, HOUSE, have - paid))
    return out


def escape_penalty(
    escaper: K, others: Sequence[K | str], balance: int, stake: int, multiple: int = 400
) -> list[tuple[K | str, K | str, int]]:
    """逃跑: the escaper loses ``multiple`` × 底注 (the room's escape multiple, from the game's
    registration; all they have, if less); each other player gets a quarter, the house keeps
    the rest (a quarter and any remainder).

    >>> escape_penalty("e", ["a", "b", "c"], 10_000, 5)
    [('e', 'a', 500), ('e', 'b', 500), ('e', 'c', 500), ('e', '__house__', 500)]
    >>> escape_penalty("e", ["a", "b", "c"], 1001, 5)[-1]
    ('e', '__house__', 251)
    """
    amount = min(multiple * stake, max(0, balance))
    quarter = amount // 4
    out: list[tuple[K | str, K | str, int]] = [(escaper, o, quarter) for o in others if quarter]
    rest = amount - quarter * len(others)
    if rest:
        out.append((escaper, HOUSE, rest))
    return out
