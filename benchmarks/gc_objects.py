"""How many objects the garbage collector tracks per table, and how many of them are new
between two young collections: N table machines (one person and three bots each, the Mazhan
room ``alone`` with ``easy`` bots as in ``benchmarks/load.py``, or ``--level``) played in
memory at a human pace (the person acts 1–3 s after their turn comes, the bots think ~1 s),
no sockets and no database (the writes are answered at once).

A young collection walks every tracked object made since the one before and still alive;
between two of them nearly every table's state is replaced, so the objects a table keeps
that are rebuilt as it plays are the pause's size. This prints, per table: the tracked
objects it holds (after ``--warm`` seconds of play), and the tracked objects made during
the next ``--window`` seconds and still alive at its end (what the next young collection
walks), by type and by what in the table holds them.

    python benchmarks/gc_objects.py --tables 200 --warm 30 --window 60
"""

from __future__ import annotations

import argparse
import collections
import gc
import heapq
import random
import sys
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from paiju.server.rooms import ROOMS  # noqa: E402
from paiju.server.table import (  # noqa: E402
    TableMachine,
    Timing,
    io,
)


class Floor:
    """N machines, one clock, writes answered at once, the people's frames read as a
    client reads them (the frame serialised, its bytes dropped)."""

    def __init__(self, tables: int, seed: int, level: str = "easy") -> None:
        self.timing = Timing(turn=15, ready=20, bot_wait=10, bot_delay=1.0)
        self.rng = random.Random(seed)
        self.now = 0.0
        self.heap: list[tuple[float, int, int, Any]] = []
        self.seq = 0
        self.tokens: list[dict[str, int]] = []
        self.machines = [
            TableMachine(
                t, ROOMS["mazhan"], self.timing, random.Random(seed + t), alone=True, level=level
            )
            for t in range(tables)
        ]
        self.hand_id = 0
        self.actions = 0
        for t in range(tables):
            self.tokens.append({})
            self.feed(t, io.Join(1000 + t, f"p{t}", 10_000))

    def push(self, delay: float, table: int, item: Any) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (self.now + delay, self.seq, table, item))

    def feed(self, t: int, event: io.Input) -> None:
        outs = self.machines[t].handle(event, self.now)
        for out in outs:
            if isinstance(out, io.Store):
                result: Any = None
                if isinstance(out.write, io.StartHand):
                    self.hand_id += 1
                    result = self.hand_id
                self.push(0.0, t, io.Stored(out.op, result))
            elif isinstance(out, io.SetTimer):
                self.tokens[t][out.key] = out.token
                self.push(out.delay, t, io.TimerFired(out.key, out.token))
            elif isinstance(out, io.Decide):
                action = out.bot.act(out.view, out.legal, out.rng)
                self.push(0.0, t, io.BotMove(out.seat, out.token, action))
            elif isinstance(out, io.Send):
                self._read(t, out.frame)

    def _read(self, t: int, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        acc = 1000 + t
        if kind in ("seated", "settlement"):
            self.push(self.rng.uniform(1, 3), t, io.Ready(acc))
        elif kind == "view":
            view = orjson.loads(orjson.dumps(frame))
            legal = view["view"]["legal"]
            if legal:
                item = self.rng.choice(legal)
                text = item["action"] if isinstance(item, dict) else str(item)
                self.push(self.rng.uniform(1, 3), t, io.Act(acc, text, view["version"]))

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.heap and self.heap[0][0] <= end:
            when, _, t, item = heapq.heappop(self.heap)
            self.now = max(self.now, when)
            if isinstance(item, io.Act):
                self.actions += 1
            self.feed(t, item)
        self.now = end


def _owners(m: TableMachine) -> dict[str, Any]:
    """The parts of a machine to charge its objects to, in order (first claim wins)."""
    hand = m.hand
    parts: dict[str, Any] = {
        "hand.state": None if hand is None else hand.state,
        "machine._blocks": m._blocks,
        "machine._shown": m._shown,
        "machine._keep": m._keep,
        "hand (rest)": hand,
        "seats": m.seats,
        "machine (rest)": m,
    }
    return parts


_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)


def _reachable(
    root: Any, young: set[int], seen: set[int], stop: set[int]
) -> collections.Counter[str]:
    count: collections.Counter[str] = collections.Counter()
    stack = [root]
    while stack:
        o = stack.pop()
        i = id(o)
        if i in seen or i in stop or not gc.is_tracked(o) or isinstance(o, _SKIP):
            continue
        seen.add(i)
        if i in young:
            count[type(o).__name__] += 1
        stack.extend(gc.get_referents(o))
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--warm", type=float, default=30.0)
    parser.add_argument("--window", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="easy", help="the bots' level (load.py's tables: easy)")
    args = parser.parse_args()
    gc.disable()
    gc.collect()
    gc.freeze()
    base = len(gc.get_objects())
    floor = Floor(args.tables, args.seed, args.level)
    floor.run(args.warm)
    gc.collect()
    held = len(gc.get_objects()) - base
    gc.freeze()  # everything alive now is "old": the window starts with a collection
    a0 = floor.actions
    t0 = time.perf_counter()
    floor.run(args.window)
    dt = time.perf_counter() - t0
    gc.collect()
    objs = gc.get_objects()
    young = {id(o) for o in objs}
    n = args.tables
    print(
        f"{n} tables, {args.warm:.0f} s warm, {args.window:.0f} s window "
        f"({floor.actions - a0} people's actions, {dt:.1f} s to play)"
    )
    print(f"tracked objects held per table: {held / n:.1f}")
    print(f"tracked objects new in the window and alive at its end, per table: {len(objs) / n:.1f}")
    # who holds them
    stop = {id(floor), id(floor.machines), id(floor.heap)}
    stop |= {id(m.room) for m in floor.machines} | {id(m.game) for m in floor.machines}
    seen: set[int] = set()
    by_part: collections.Counter[str] = collections.Counter()
    by_type: dict[str, collections.Counter[str]] = {}
    for m in floor.machines:
        for name, root in _owners(m).items():
            c = _reachable(root, young, seen, stop)
            by_part[name] += sum(c.values())
            by_type.setdefault(name, collections.Counter()).update(c)
    rest = len(objs) - sum(by_part.values())
    for name, k in by_part.most_common():
        top = ", ".join(f"{t} {v / n:.1f}" for t, v in by_type[name].most_common(6))
        print(f"  {name:16s} {k / n:6.1f}  ({top})")
    print(f"  {'(elsewhere)':16s} {rest / n:6.1f}")
    types_ = collections.Counter(type(o).__name__ for o in objs).most_common(10)
    print("by type:", ", ".join(f"{t} {v / n:.1f}" for t, v in types_))


if __name__ == "__main__":
    main()
