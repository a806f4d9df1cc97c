"""Real ``paiju serve`` processes and real players for the fault tests: a server started as a
subprocess (ready when it says it listens), killed with SIGKILL or stopped; a player on a
WebSocket in a thread who confirms hands, answers every view, records every frame it sees,
and reconnects (to any of its servers) when its socket dies. Then the checks that must hold
after any fault: the action log has no gap, every frame a player saw is in the durable log,
every hand is settled once or still live, nobody sits twice, the ledger sums.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from websockets.sync.client import ClientConnection, connect

from paiju.server.db import make_engine, make_sessions
from paiju.server.ledger import audit
from paiju.server.models import Hand, HandAction, SeatClaim
from paiju.server.protocol import SERVER

ROOT = Path(__file__).resolve().parent.parent.parent
#: errors a player meets in play and shrugs off (a view crossed their action)
QUIET = ("stale_version", "hand_live", "not_seated")
#: errors that say: the table is moving between processes, try again
MOVING = ("table_moving", "unavailable")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One ``paiju serve`` process on a loopback port."""

    def __init__(
        self, env: dict[str, str], port: int | None = None, program: list[str] | None = None
    ) -> None:
        # stop() is the old stop, at once, unless a test asks for a drain (test_drain.py)
        self.env = {**os.environ, "PAIJU_DRAIN_SECONDS": "0", **env}
        #: what runs ``serve --port N``: paiju's command line, unless a benchmark wraps it
        self.program = program or [sys.executable, "-m", "paiju.cli"]
        self.port = port or free_port()
        self.base = f"127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None
        self.log: list[str] = []
        self._listening = threading.Event()  # set once the process says it listens

    def start(self, timeout: float = 60.0) -> Server:
        """Start the process and wait until it says it is listening."""
        return self.launch().ready(timeout)

    def launch(self) -> Server:
        """Start the process, not waiting for it (:meth:`ready` waits): several servers
        launched together start side by side (:func:`start_all`)."""
        self.proc = subprocess.Popen(
            [*self.program, "serve", "--port", str(self.port)],
            env=self.env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, bufsize=1,
        )  # fmt: skip
        self._listening = listening = threading.Event()

        def read(proc: subprocess.Popen[str]) -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.log.append(line.rstrip())
                if "paiju: listening on" in line:
                    listening.set()

        threading.Thread(target=read, args=(self.proc,), daemon=True).start()
        return self

    def ready(self, timeout: float = 60.0) -> Server:
        """Wait until the launched process says it is listening."""
        if not self._listening.wait(timeout):
            raise RuntimeError("the server did not start:\n" + "\n".join(self.log[-30:]))
        return self

    def kill(self) -> None:
        """SIGKILL: no goodbye, nothing flushed."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM, and wait."""
        self.terminate()
        self.wait_stopped()

    def terminate(self) -> None:
        """SIGTERM, not waiting (:meth:`wait_stopped` waits)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()

    def wait_stopped(self) -> None:
        """Wait for the process to exit (SIGKILL after 30 s)."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def health(self) -> dict[str, Any]:
        result: dict[str, Any] = httpx.get(f"http://{self.base}/api/health", timeout=5).json()
        return result


def start_all(*servers: Server, timeout: float = 60.0) -> list[Server]:
    """Start the servers side by side (a cluster's processes start at once in production
    too; each migrates under PostgreSQL's advisory lock) and wait until each listens."""
    try:
        for server in servers:
            server.launch()
        return [server.ready(timeout) for server in servers]
    except BaseException:
        stop_all(*servers)
        raise


def stop_all(*servers: Server) -> None:
    """SIGTERM to every server at once, then wait for each (:meth:`Server.stop`)."""
    for server in servers:
        server.terminate()
    for server in servers:
        server.wait_stopped()


def account(base: str, name: str) -> str:
    """Register (if new) and log in; the bearer token."""
    httpx.post(f"http://{base}/api/register", json={"name": name, "password": "secret-pw-1"})
    login = {"name": name, "password": "secret-pw-1", "bearer": True}
    r = httpx.post(f"http://{base}/api/login", json=login)
    token: str = r.json()["token"]
    return token


def act_text(item: Any) -> str:
    return item["action"] if isinstance(item, dict) else str(item)


class Player(threading.Thread):
    """A person at a table: joins, confirms every hand, plays each view's last legal action
    (``pick`` chooses otherwise), records every frame, reconnects when the socket dies."""

    def __init__(
        self,
        token: str,
        bases: list[str],
        room: str = "mazhan",
        alone: bool = True,
        hands: int = 1,
        pick: Callable[[dict[str, Any]], str | None] | None = None,
        renew: Callable[[], str] | None = None,
        on_frame: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.on_frame = on_frame  # called in the receive thread as each frame arrives
        self.token, self.bases, self.room, self.alone = token, bases, room, alone
        self.hands = hands
        self.pick = pick or (lambda frame: act_text(frame["view"]["legal"][-1]))
        self.frames: list[dict[str, Any]] = []
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.settlements: list[dict[str, Any]] = []
        self.reconnects = 0
        self.errors: list[str] = []
        self.done = threading.Event()
        self.stop_flag = threading.Event()
        self.ws: ClientConnection | None = None
        self.hold = threading.Event()  # set: do not act (the test is about to cut something)
        self.renew = renew  # a new account's token, when this one is broke
        self.hellos = 0
        self.last_action: dict[str, Any] | None = None  # sent, not yet answered by a view
        self.seeking = False  # a join is on its way

    def _connect(self) -> ClientConnection:
        last: Exception | None = None
        end = time.monotonic() + 300  # a restart on a loaded machine may take a minute or more
        attempt = 0
        while time.monotonic() < end and not self.stop_flag.is_set():
            base = self.bases[attempt % len(self.bases)]
            attempt += 1
            try:
                return connect(
                    f"ws://{base}/ws", additional_headers={"Authorization": f"Bearer {self.token}"},
                    open_timeout=5,
                )  # fmt: skip
            except Exception as err:  # the server is restarting
                last = err
                self.stop_flag.wait(0.1)
        raise RuntimeError(f"cannot reconnect: {last}")

    def run(self) -> None:
        try:
            self.ws = self._connect()
            self._join()
            while not self.stop_flag.is_set() and len(self.settlements) < self.hands:
                try:
                    frame = json.loads(self.ws.recv(timeout=120))
                except Exception:
                    if self.stop_flag.is_set():
                        break
                    self.reconnects += 1
                    self.ws = self._connect()
                    continue
                self._take(frame)
        except Exception as err:
            self.errors.append(repr(err))
        finally:
            self.done.set()

    def _again(self, action: dict[str, Any]) -> None:
        if self.last_action is action:  # no view has answered it meanwhile
            self.send(action)

    def _join(self) -> None:
        if not self.seeking:
            self.seeking = True
            self.send({"type": "join", "room": self.room, "alone": self.alone})

    def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):  # the socket died; the receive loop reconnects
            self.ws.send(json.dumps(message))

    def _take(self, frame: dict[str, Any]) -> None:
        SERVER.validate_python(frame)
        if self.on_frame is not None:
            self.on_frame(frame)
        frame["_at"] = time.monotonic()
        self.frames.append(frame)
        self.events.put(frame)
        kind = frame["type"]
        if kind == "hello":
            self.hellos += 1
            self.seeking = False  # a join sent on the last socket is not answered
            if self.hellos > 1 and not frame["seated"]:
                self._join()  # back, and the table is gone: sit down again, as a player would
        if kind in ("seated", "error"):
            self.seeking = False
        if kind == "seated" or (kind == "settlement" and len(self.settlements) + 1 < self.hands):
            self.send({"type": "ready"})
        if kind == "table" and frame.get("ready_seconds") and not frame["live"]:
            self.send({"type": "ready"})
        if kind == "settlement":
            self.settlements.append(frame)
        if kind == "unseated" and frame["why"] == "too_few_points" and self.renew is not None:
            # broke: come back as a new player (the game's own rule, §10, unseated them)
            self.token = self.renew()
            assert self.ws is not None
            self.ws.close()  # the receive loop reconnects with the new token, which joins
        if kind == "unseated" and frame["why"] == "table_closed":
            self._join()  # sit again
        if kind == "error" and frame["code"] in MOVING and self.last_action is not None:
            # the table is between processes: a player tries again in a moment, as the
            # message says (the clock of a turn shown through a move does not count)
            timer = threading.Timer(0.2, self._again, args=(self.last_action,))
            timer.daemon = True
            timer.start()
        elif kind == "error" and frame["code"] not in QUIET:
            self.errors.append(f"{frame['code']}: {frame['message']}")
        if kind == "view":
            self.last_action = None
        if kind == "view" and frame["view"]["legal"] and not self.hold.is_set():
            action = self.pick(frame)
            if action is not None:
                self.last_action = {"type": "action", "action": action, "version": frame["version"]}
                self.send(self.last_action)

    def wait_for(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = 120
    ) -> dict[str, Any]:
        """The first frame from now on for which ``test`` holds (the frames already seen
        count too)."""
        for frame in list(self.frames):
            if test(frame):
                return frame
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(self._why())
            try:
                frame = self.events.get(timeout=left)
            except queue.Empty:
                raise TimeoutError(self._why()) from None
            if test(frame):
                return frame

    def _why(self) -> str:
        last = [f["type"] for f in self.frames[-8:]]
        tail = [(f["type"], f.get("why"), f.get("code")) for f in self.frames[-3:]]
        return f"no such frame (alive={self.is_alive()}, errors={self.errors}, last={last}, {tail})"

    def close(self) -> None:
        self.stop_flag.set()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()


def check_books(db_url: str, players: list[Player] | None = None) -> dict[str, int]:
    """Everything that must hold after a fault; returns a few counts for the test's own
    assertions."""
    engine = make_engine(db_url)
    try:
        with make_sessions(engine)() as s:
            total, issued = audit(s)
            assert total == issued, f"the ledger does not sum: {total} != {issued}"
            steps: dict[int, list[int]] = {}
            for hand_id, seq in s.execute(sa.select(HandAction.hand_id, HandAction.seq)):
                steps.setdefault(int(hand_id), []).append(int(seq))
            for hand_id, seqs in steps.items():
                assert sorted(seqs) == list(range(1, len(seqs) + 1)), f"a gap in hand {hand_id}"
            hands = {int(h.id): (h.status, h.result) for h in s.scalars(sa.select(Hand)).all()}
            for hand_id, (status, _result) in hands.items():
                assert status in ("live", "done", "aborted", "void")
                if status == "done":
                    keys = s.execute(
                        sa.text(
                            "SELECT count(DISTINCT event_key) FROM ledger "
                            "WHERE hand_id = :h AND reason = 'hand'"
                        ),
                        {"h": hand_id},
                    ).scalar()
                    assert keys in (0, 1), f"hand {hand_id} settled {keys} times"
            seated = list(s.scalars(sa.select(SeatClaim.account_id)))
            assert len(seated) == len(set(seated))
            for p in players or []:
                for frame in p.frames:
                    if frame["type"] != "view":
                        continue
                    durable = len(steps.get(frame["hand"], []))
                    assert frame["version"] <= durable or frame["version"] == 0, (
                        f"a frame showed hand {frame['hand']} at version {frame['version']}; "
                        f"only {durable} steps are durable"
                    )
            return {
                "hands": len(hands),
                "done": sum(1 for st, _ in hands.values() if st == "done"),
                "live": sum(1 for st, _ in hands.values() if st == "live"),
                "steps": sum(len(v) for v in steps.values()),
            }
    finally:
        engine.dispose()
