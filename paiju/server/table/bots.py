"""Bots and hints: each seat's bot kept from hand to hand, the bots' (and 托管's)
decisions and their think times, and a hint for a player alone with bots. A part of
:class:`~paiju.server.table.machine.TableMachine`.

**Think times** (:func:`think_time`). On its own turn a bot answers after a time drawn
from the table's think stream, log-normal, longer the harder the decision looks from its
seat (:mod:`paiju.bots.think`: a forced move or a drawn tile thrown at once quick, a close
choice slower, a long tail as people have, bounded well inside the turn clock). In a claim
window it answers at :data:`WINDOW_ANSWER` of the claim pause, whatever it holds and
without drawing a chance: within the pause, after which every seat that cannot claim is
shown the same thing whether or not anyone could (rules §5, end), so the timing never shows
that a bot could claim.

>>> import random
>>> from paiju.server.rooms import ROOMS
>>> from paiju.server.table import TableMachine, Timing
>>> room = next(iter(ROOMS.values()))  # the first game's first room
>>> m = TableMachine(1, room, Timing(), random.Random(1))
>>> helper_bot(m).name == bot_for(room.game, "normal")  # the normal level's bot
True
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING, Any

from paiju.bots.base import Bot, make_bot
from paiju.bots.think import hardness, think_seconds
from paiju.server.rooms import bot_for
from paiju.server.table import claim_pause, hands, io

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine

log = logging.getLogger("paiju.table")

#: a claim window's answer comes this share of the claim pause after the window opened: well
#: within the pause (a search bot has the rest to search), the same whatever the seat holds
WINDOW_ANSWER = 0.2


def seat_bots(m: TableMachine) -> list[Bot]:
    """The seats' bots for a new hand: the last hand's (the seats move round between
    hands; a bot goes with its name), a bot made only for a name the last hand had not."""
    names = m._bot_names
    free: dict[str, list[Bot]] = {}
    for name, bot in zip(names, m._bots, strict=True):
        if name is not None and bot is not None:
            free.setdefault(name, []).append(bot)
    for i, p in enumerate(m.seats):
        assert p is not None
        name = p.bot or m.game.default_bot
        pool = free.get(name)
        m._bots[i] = pool.pop() if pool else make_bot(m.game.name, name)
        names[i] = name
    return m._bots  # type: ignore[return-value]


def helper_bot(m: TableMachine) -> Bot:
    """The bot that plays for a person: 托管 and hints. The normal level's (``strong``,
    ``heuristic``): a person's seat is played as the room's bots play by default, and
    never by a heavy bot, whose search would hold the table's loop."""
    if m._helper is None:  # made once: a bot keeps nothing between decisions
        m._helper = make_bot(m.game.name, bot_for(m.game.name, "normal"))
    return m._helper


def hint(m: TableMachine, seat: int, version: int) -> None:
    """What the normal level's bot (``strong``, ``heuristic``) would play at this seat's
    view of ``version``, for the player alone at a table of bots (a learner's help: at a
    table with another person it would be an advantage, so it is refused there). The bot
    reads the seat's own view, as it would playing the seat, and a stream of its own, so
    a hint changes nothing at the table; asked again at the same version, the answer is
    the one given."""
    p = m.seats[seat]
    assert p is not None and p.account is not None
    if any(q is not None and q.account is not None for i, q in enumerate(m.seats) if i != seat):
        m._error(p.account, "hints_off", "hints are given only at a table of bots")
        return
    if not hands.at_version(m, p.account, seat, version):
        return
    hand = m.hand
    assert hand is not None
    seat_obj = m.game.seats[seat]
    legal = m.game.legal_actions(hand.state, seat_obj)
    if seat not in m._movers() or not legal or claim_pause.quiet(m, seat):
        m._error(p.account, "not_your_turn", "there is nothing for you to decide now")
        return
    if hand.hint_at != (seat, version):
        view = m.game.observe(hand.state, seat_obj)
        rng = random.Random(hand.seed * 7919 + version * 4 + seat)
        try:
            hand.hint_action = str(helper_bot(m).act(view, legal, rng))
        except Exception:  # a bot's defect must not stop the table
            log.exception("table %s: the hint's bot failed", m.id)
            m._error(p.account, "hint_failed", "no hint could be worked out")
            return
        hand.hint_at = (seat, version)
    m._send(p.account, {"type": "hint", "version": version, "action": hand.hint_action})


def think_time(m: TableMachine, seats: list[int]) -> float:
    """How long the bots (and 托管) of ``seats``, who must decide now, think before they
    decide together (see the module docstring): in a claim window during the claim pause
    what is left until :data:`WINDOW_ANSWER` of the pause after it began; otherwise a draw
    from the table's think stream, for the hardest of their decisions as each seat's view
    shows it (a window after the pause, a person having kept it open: as a forced move).

    >>> import random
    >>> from paiju.server.rooms import ROOMS
    >>> from paiju.server.table import TableMachine, Timing
    >>> m = TableMachine(1, next(iter(ROOMS.values())), Timing(bot_delay=0), random.Random(1))
    >>> think_time(m, [])  # nobody to wait for, no pace: at once
    0.0
    """
    hand = m.hand
    hard = 0.0
    if hand is not None and seats:
        state, game = hand.state, m.game
        if any(game.is_prompt(state, game.seats[s]) for s in seats):
            if hand.pausing:  # counted from the pause's start: a pass, a 托管 switched or
                # a player cut off during the pause re-schedules, and must not push it back
                waited = m._now - hand.pause_began
                return max(0.0, m.timing.claim_pause * WINDOW_ANSWER - waited)
        elif m.timing.bot_delay > 0:  # (no pace: not worth judging)
            # the views and legal actions judged are kept: the decision after the think
            # time reads the same ones (the state unchanged), not built a second time
            judged = hand.judged = {}
            for s in seats:
                seat_obj = game.seats[s]
                judged[s] = (
                    state,
                    game.observe(state, seat_obj),
                    game.legal_actions(state, seat_obj),
                )
            hard = max(hardness(game.name, view, legal) for _, view, legal in judged.values())
    return think_seconds(hard, m.timing.bot_delay, m._think, m.timing.turn)


def _view_and_legal(m: TableMachine, seat: int) -> tuple[Any, Any]:
    """The seat's view and legal actions now: those its think time was judged from, when
    the state is still that one (a view is never changed by those who read it), else
    worked out."""
    hand = m.hand
    assert hand is not None
    judged = hand.judged.pop(seat, None)
    if judged is not None and judged[0] is hand.state:
        return judged[1], judged[2]
    seat_obj = m.game.seats[seat]
    return m.game.observe(hand.state, seat_obj), m.game.legal_actions(hand.state, seat_obj)


def decide(m: TableMachine) -> None:
    """The bots (and 托管) of the seats that must decide now decide, together: a
    window's answers all come within the claim pause."""
    hand = m.hand
    if hand is None or hand.id is None or claim_pause.holding(m):
        return
    for seat, turn in hand.turns.items():
        if not turn.key[2] or turn.deciding:
            continue
        turn.deciding = True
        view, legal = _view_and_legal(m, seat)
        p = m.seats[seat]
        bot = hand.bots[seat]
        if p is not None and p.account is not None:  # 托管: the normal level's bot
            bot = helper_bot(m)
        m._out.append(io.Decide(seat, turn.token, bot, view, legal, hand.rngs[seat]))


def bot_move(m: TableMachine, event: io.BotMove) -> None:
    """A bot's decision, played if its turn is still the one it decided."""
    hand = m.hand
    if hand is None or hand.id is None:
        return
    turn = hand.turns.get(event.seat)
    if turn is None or turn.token != event.token or not turn.key[2] or claim_pause.holding(m):
        return  # the turn has moved on (托管 switched off, another's claim, the pause)
    hands.apply_action(m, event.seat, event.action)
