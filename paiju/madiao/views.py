"""What one Ma Diao seat may know (rules §3; ``docs/views.md``, format 2): its own hand,
every face-up card, the 上桌 cards, the trick so far (another seat's face-down 滅 card hidden,
its own shown), how many cards each seat has played face down (and, to their owner, which),
the 面張. Never another hand, never the stock's order; once the hand is over, the 開沖 draws
and the settlement are public.

>>> from paiju.madiao.rules import Ruleset, new_hand
>>> from paiju.madiao.seats import Seat
>>> v = observe(new_hand(Ruleset(), seed=4, banker=Seat.E), Seat.S)
>>> len(v.hand), v.hand_sizes[Seat.E], v.legal
(8, 8, ())
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from paiju.kit.views import view_head
from paiju.madiao.cards import ALL_CARDS, Card
from paiju.madiao.rules import Action, Phase, State, legal_actions_for, seat_version
from paiju.madiao.seats import SEATS, Seat

__all__ = ["FORMAT", "View", "observe"]

#: The version of the view JSON (``docs/views.md``).
FORMAT = 2


def _codes(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(c) for c in cards]


def _number(x: Fraction | int) -> int | float:
    x = Fraction(x)
    return int(x) if x.denominator == 1 else float(x)


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view of a Ma Diao hand.

    ``trick`` lists ``(seat, card or None, face_up)`` of the trick being played (led by
    ``leader``); ``trick_no`` counts the finished tricks (the JSON gives the trick being
    played, 1–8); ``face_down`` counts each seat's 滅 cards so far, ``face_down_cards`` are
    this seat's own; ``last`` is ``(seat, kind, card or None)`` of the last play.
    ``played_up`` lists each seat's face-up plays (發, 捉) in finished tricks, in order, and
    ``captured`` the other top cards that each 上桌 top card beat face up in its trick (開沖
    counts such a card double or triple): a table sees both as they are played.

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> observe(new_hand(Ruleset(), seed=4, banker=Seat.E), Seat.E).my_turn
    True
    """

    seat: Seat
    phase: Phase
    version: int
    my_turn: bool
    turn: Seat | None
    banker: Seat
    mian: Card
    trick_no: int
    hand: tuple[Card, ...]
    hand_sizes: dict[Seat, int]
    leader: Seat
    trick: tuple[tuple[Seat, Card | None, bool], ...]
    table: dict[Seat, tuple[Card, ...]]
    tricks_won: dict[Seat, int]
    face_down: dict[Seat, int]
    face_down_cards: tuple[Card, ...]
    played_up: dict[Seat, tuple[Card, ...]]
    captured: dict[Card, tuple[Card, ...]]
    seen: tuple[Card, ...]
    last: tuple[Seat, str, Card | None] | None
    legal: tuple[Action, ...]
    result: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (``docs/views.md``, format 2).

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> v = observe(new_hand(Ruleset(), seed=4), Seat.W).to_json()
        >>> v["format"], v["trick_no"], len(v["hand"]), v["seats"]["W"]["face_down_cards"]
        (2, 1, 8, [])
        """
        return {
            **view_head("madiao", FORMAT, self),
            "banker": self.banker.value,
            "mian": str(self.mian),
            "trick_no": min(self.trick_no + 1, 8),
            "hand": _codes(self.hand),
            "seats": {
                s.value: {
                    "hand_size": self.hand_sizes[s],
                    "won": _codes(self.table[s]),
                    "tricks_won": self.tricks_won[s],
                    "face_down": self.face_down[s],
                    "face_down_cards": _codes(self.face_down_cards) if s is self.seat else None,
                    "played_up": _codes(self.played_up[s]),
                    "captured": {
                        str(c): _codes(self.captured[c])
                        for c in self.table[s]
                        if c in self.captured
                    },
                }
                for s in SEATS
            },
            "trick": {
                "leader": self.leader.value,
                "plays": [
                    {"seat": s.value, "card": None if c is None else str(c), "face_up": up}
                    for s, c, up in self.trick
                ],
            },
            "seen": _codes(self.seen),
            "last": None
            if self.last is None
            else {
                "seat": self.last[0].value,
                "kind": self.last[1],
                "card": None if self.last[2] is None else str(self.last[2]),
            },
            "legal": [
                {"action": str(a), "kind": a.kind.value, "card": str(a.card)} for a in self.legal
            ],
            "result": self.result,
        }


def _result_json(state: State) -> dict[str, Any]:
    r = state.result
    assert r is not None
    st = r.settlement
    banker = st.banker
    seats = {}
    for k, s in enumerate(SEATS):
        p = st.seats[s]
        seats[s.value] = {
            "tricks": p.tricks,
            "zhengben": p.zhengben,
            "diao": _number(p.diao),
            "won": [str(ALL_CARDS[c]) for c in state.table[k]],
            "bonuses": [{"zh": b.name, "en": b.en, "zhu": b.zhu} for b in p.bonuses],
            "chong": p.chong,
            "bonus_total": p.bonus_total,
            "net": _number(p.net),
        }
    payments: list[dict[str, Any]] = []

    def pay(a: Seat, b: Seat, amount: Fraction | int, reason: str) -> None:
        if amount < 0:
            a, b, amount = b, a, -amount
        if amount:
            payments.append(
                {"from": a.value, "to": b.value, "amount": _number(amount), "reason": reason}
            )

    for s in SEATS:
        if s is banker:
            continue
        pay(banker, s, st.seats[s].diao, "diao")
        pay(banker, s, st.seats[s].bonus_total - st.seats[banker].bonus_total, "bonus")
    for a, b, z in st.qiaomen:
        pay(a, b, z, "qiaomen")
    for a, b, z in st.he:
        pay(a, b, z, "he")
    return {
        "banker": banker.value,
        "seats": seats,
        "chong": [
            {
                "card": str(d.card),
                "drawer": d.drawer.value,
                "scorer": None if d.scorer is None else d.scorer.value,
                "points": d.points,
            }
            for d in r.chong
        ],
        "payments": payments,
        "net": {s.value: _number(st.seats[s].net) for s in SEATS},
        "special": None
        if r.special is None
        else {"seat": r.special[0].value, "name": r.special[1], "zhu": r.special[2]},
        "penalties": [
            {
                "seat": p.seat.value,
                "kind": p.kind,
                "card": str(p.card),
                "trick": p.trick,
                "zh": p.zh,
                "en": p.en,
            }
            for p in r.penalties
        ],
    }


def observe(state: State, seat: Seat) -> View:
    """What ``seat`` may know of ``state``.

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> observe(new_hand(Ruleset(), seed=4, banker=Seat.E), Seat.E).legal[0].kind.value
    'fa'
    """
    i = seat.number - 1
    trick = tuple(
        (SEATS[s], ALL_CARDS[c] if up or s == i else None, up) for s, c, up in state.trick
    )
    seen = [ALL_CARDS[c] for c in state.out_up] + [ALL_CARDS[c] for t in state.table for c in t]
    seen += [ALL_CARDS[c] for s, c, up in state.trick if up]
    face_down = {s: 0 for s in SEATS}
    played_up: dict[Seat, list[Card]] = {s: [] for s in SEATS}
    for _, done in state.history:
        for s, c, up in done:
            if up:
                played_up[SEATS[s]].append(ALL_CARDS[c])
    mine: list[Card] = []
    plays = [p for _, t in state.history for p in t] + state.trick
    for s, c, up in plays:
        if not up:
            face_down[SEATS[s]] += 1
            if s == i:
                mine.append(ALL_CARDS[c])
    last = None
    if plays:
        s, c, up = plays[-1]
        last = (SEATS[s], _play_kind(state, len(plays) - 1), ALL_CARDS[c] if up or s == i else None)
    legal = legal_actions_for(state, seat)
    over = state.phase is Phase.OVER
    return View(
        seat=seat,
        phase=state.phase,
        version=seat_version(state, seat),
        my_turn=bool(legal),
        turn=None if over else SEATS[state.turn],
        banker=SEATS[state.banker],
        mian=state.mian,
        trick_no=state.trick_no,
        hand=tuple(ALL_CARDS[c] for c in state.hands[i]),
        hand_sizes={s: len(state.hands[k]) for k, s in enumerate(SEATS)},
        leader=SEATS[state.leader],
        trick=trick,
        table={s: tuple(ALL_CARDS[c] for c in state.table[k]) for k, s in enumerate(SEATS)},
        tricks_won={s: state.tricks_won[k] for k, s in enumerate(SEATS)},
        face_down=face_down,
        face_down_cards=tuple(mine),
        played_up={s: tuple(cs) for s, cs in played_up.items()},
        captured={
            ALL_CARDS[c]: tuple(ALL_CARDS[o] for o in others)
            for c, others in state.captured.items()
        },
        seen=tuple(sorted(seen)),
        last=last,
        legal=legal,
        result=None if state.result is None else _result_json(state),
    )


def _play_kind(state: State, n: int) -> str:
    """``fa``, ``zhuo`` or ``mie``: the kind of the ``n``-th play of the hand."""
    trick, k = divmod(n, 4)
    plays = state.history[trick][1] if trick < len(state.history) else tuple(state.trick)
    _s, _c, up = plays[k]
    if k == 0:
        return "fa"
    return "zhuo" if up else "mie"
