"""What the players are sent: the seat's view frame (its clock, its version, its events),
the table's seating, a hand's start; a view serialised once, each public block of it once per
change. A part of :class:`~paiju.server.table.machine.TableMachine`.

>>> moves_json([(7, "__house__", 10)], "fee", {7: "ana", "__house__": "house"})
[{'from': 'ana', 'to': 'house', 'amount': 10, 'reason': 'fee'}]
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import orjson

from paiju import games
from paiju.server.table import claim_pause, clocks
from paiju.server.table.state import SEATS

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine

log = logging.getLogger("paiju.table")


def seated_frame(m: TableMachine, seat: int) -> dict[str, Any]:
    return {
        "type": "seated",
        "table": m.id,
        "room": m.room.name,
        "game": m.game.name,
        "seat": SEATS[seat],
    }


def hand_start_frame(m: TableMachine, seat: int) -> dict[str, Any]:
    hand = m.hand
    assert hand is not None and hand.id is not None
    dealer = m.game.setup_of(hand.state).get("banker", "E")
    p = m.seats[seat]
    return {
        "type": "hand_start",
        # the balance after the fee: a reconnect must not take the fee twice on screen
        "balance": p.balance if p is not None and p.account is not None else None,
        "hand": hand.id,
        "stake": hand.stake,
        "fee": hand.stake,
        "seat": SEATS[seat],
        "room": m.room.name,
        "game": m.game.name,
        "dealer": dealer,
    }


def table_json(m: TableMachine) -> dict[str, Any]:
    """The seating as everyone at the table (and the lobby) sees it.

    >>> import random
    >>> from paiju.server.rooms import ROOMS
    >>> from paiju.server.table import TableMachine, Timing
    >>> room = next(iter(ROOMS.values()))  # the first game's first room
    >>> table_json(TableMachine(3, room, Timing(), random.Random(0)))["seats"]
    {'E': None, 'S': None, 'W': None, 'N': None}
    """
    seats: dict[str, Any] = {}
    for i, p in enumerate(m.seats):
        seats[SEATS[i]] = (
            None
            if p is None
            else {
                "name": p.name,
                "bot": p.account is None,
                "level": p.level,
                "ready": p.confirmed,
                "tuoguan": p.tuoguan,
                "connected": p.connected or p.account is None,
                "points": p.balance if p.account is not None else None,
            }
        )
    return {
        "type": "table",
        "table": m.id,
        "room": m.room.name,
        "game": m.game.name,
        "live": m.live,
        "hand_no": m.hands_started,
        "seats": seats,
        "watchers": len(m.watchers),
    }


def broadcast_table(m: TableMachine) -> None:
    """The seating to everyone at the table: each seated person (with their ready clock and
    a private table's code) and each spectator (a ``watching`` frame: neither)."""
    frame = table_json(m)
    for p in m.seats:
        if p is not None and p.account is not None and not p.claiming:
            deadline = m._ready_deadline.get(p.account)
            left = None if deadline is None else max(0.0, deadline - m._now)
            m._send(p.account, {**frame, "ready_seconds": left, "code": m.code})
    if m.watchers:
        watching = {**frame, "type": "watching"}
        for account in sorted(m.watchers):
            m._send(account, watching)


def clock_json(m: TableMachine, seat: int) -> dict[str, Any] | None:
    hand = m.hand
    assert hand is not None
    turns = hand.turns
    mine = turns.get(seat)
    if mine is not None and not mine.key[2]:
        p = m.seats[seat]
        # to a player cut off, a turn is offered whole: its clock starts when it is shown
        left = m.timing.turn if p is not None and not p.reached else clocks.left(m, mine)
        return {
            "seat": None if mine.key[1] else SEATS[seat],
            "seconds": m.timing.turn,
            "left": left,
        }
    # a turn is public; a claim window's clocks are not
    for s, turn in turns.items():
        if not turn.key[1]:
            if turn.key[2]:
                return None
            return {"seat": SEATS[s], "seconds": m.timing.turn, "left": clocks.left(m, turn)}
    return None


def view_frame(
    m: TableMachine, seat: int, events: list[dict[str, Any]], catch_up: bool = False
) -> dict[str, Any]:
    """The seat's view frame with ``events`` (already as the seat may see them), or with
    the hand's whole log when ``catch_up``."""
    hand = m.hand
    assert hand is not None and hand.id is not None
    seat_obj = m.game.seats[seat]
    state = claim_pause.shown_state(m, seat)
    view = view_json(m, m.game.observe(state, seat_obj).to_json())
    m._shown[seat] = view
    return {
        "type": "view",
        "table": m.id,
        "hand": hand.id,
        "version": m.game.seat_version(state, seat_obj),
        "view": orjson.Fragment(view),
        "events": orjson.Fragment(b"[" + bytes(hand.logs.get(seat, b"")) + b"]")
        if catch_up
        else events,
        "clock": clock_json(m, seat),
        "stake": hand.stake,
        "your_action": hand.last[1] if hand.last and hand.last[0] == seat else None,
        "catch_up": catch_up,
        "timeouts": timeouts(m, seat),
    }


def timeouts(m: TableMachine, seat: int) -> int:
    """The seat's player's timeouts in a row (0 for a bot)."""
    p = m.seats[seat]
    return p.timeouts if p is not None and p.account is not None else 0


def view_json(m: TableMachine, view: dict[str, Any]) -> bytes:
    """A view as JSON, serialised here, once: the frame carries it as it is, the next
    view of the seat is compared with it, and the seats' public blocks in it (shared by
    the views of a state, and by later states while unchanged) are serialised once per
    change (:attr:`_blocks`), not once per view."""
    seats = view.get("seats")
    if isinstance(seats, dict):
        blocks, json = m._blocks, m._block_json
        done: dict[str, Any] = {}
        for key, block in seats.items():
            if isinstance(block, dict):
                if blocks.get(key) is not block:
                    blocks[key] = block
                    json[key] = orjson.Fragment(orjson.dumps(block))
                done[key] = json[key]
            else:
                done[key] = block
        view = {**view, "seats": done}
    return orjson.dumps(view)


def send_view(
    m: TableMachine,
    seat: int,
    events: list[dict[str, Any]],
    force: bool = False,
    catch_up: bool = False,
) -> None:
    """A seat's view, if it has a person and anything changed for them (a private
    decision of another seat changes nothing, so nothing is sent: not even the fact)."""
    p = m.seats[seat]
    if p is None or p.account is None or not p.connected:
        return
    hand = m.hand
    assert hand is not None
    before = m._shown.get(seat)
    frame = view_frame(m, seat, events, catch_up)
    if not force and m._shown[seat] == before and not frame["events"]:
        return
    turn = hand.turns.get(seat)
    # a turn's frame asks to be acknowledged when shown: its clock starts then (and a player
    # cut off is reached again by it, even once the turn runs out uncounted)
    offered = turn is not None and not turn.key[2] and (turn.deadline is None or not p.reached)
    ack = turn.token if turn is not None and offered else 0
    m._send(p.account, frame, ack=ack)


#: the events a seat may see, as that seat may see them (an event answering ``None`` is
#: not for this seat)
events_json = games.events_json


def moves_json(
    moves: list[tuple[int | str, int | str, int]] | Any, reason: str, names: dict[int | str, str]
) -> list[dict[str, Any]]:
    return [
        {"from": names.get(a, "?"), "to": names.get(b, "?"), "amount": x, "reason": reason}
        for a, b, x in moves
    ]
