"""The ``paiju`` command.

- ``paiju GAME CALCULATOR [FILE] [--explain]`` runs one of the game's calculators (a finished
  hand's settlement, one player's draws: :attr:`paiju.games.Game.calculators`) over the JSON
  of FILE or standard input and prints its answer as JSON, or as tables with ``--explain``
  where the game offers them; ``paiju GAME --help`` lists them.
- ``paiju simulate GAME --games N --seed S [--bots …] [--out F] [--json]`` plays seeded
  hands with bots and summarises them.
- ``paiju arena GAME --games N --seed S --bots a,b,c,d [--json]`` rates bots on the
  same deals with every bot in every seat.
- ``paiju serve [--host 127.0.0.1] [--port 8000]`` runs the table server.
- ``paiju replay F`` re-applies every record of F and checks each reproduces its result
  (exit 1 naming the hand and the action when one does not).
- ``paiju position RECORD N [--line L]`` prints the position after N actions of a game record.
- ``paiju review RECORD [--hand N] --seat S [--worlds W] [--seed K] [--json]`` reviews one
  seat's decisions in a finished hand against the expert's (docs/bots.md, the hand review).
- ``paiju legal POSITION…`` lists the legal actions of a written position, one a line.

Bad input of any kind prints one line, ``paiju: error: …``, and exits with code 2. A JSON
input (a calculator's) holds at most 1 MB; every ``--seed`` is 0 or more.

>>> from paiju.games import names
>>> main(["simulate", names()[0], "--games", "2", "--bots", "random", "--json"])
... # doctest: +ELLIPSIS
{...
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, TypeVar

from paiju.errors import RulesError
from paiju.games import names as game_names

if TYPE_CHECKING:
    import asyncio

__all__ = ["main"]

EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad input to a command: printed on one line, exit code 2."""


_T = TypeVar("_T")


def _fail(message: str) -> NoReturn:
    raise UsageError(message)


def _read_text(path: str | None, limit: int | None = None) -> str:
    """A file's (or standard input's) text, or a one-line error; at most ``limit`` bytes
    (more is an error: ``/dev/zero`` is refused, not read for ever).

    >>> _read_text("/dev/zero", limit=1000)
    Traceback (most recent call last):
    ...
    paiju.cli.UsageError: /dev/zero is too large: more than 1,000 bytes (the limit)
    """
    source = "standard input" if path is None or path == "-" else path
    if path is None or path == "-":
        data = _read_bytes(sys.stdin.buffer, limit)
    else:
        try:
            with open(path, "rb") as handle:
                data = _read_bytes(handle, limit)
        except FileNotFoundError:
            _fail(f"cannot read {path}: no such file")
        except IsADirectoryError:
            _fail(f"cannot read {path}: it is a directory")
        except OSError as err:
            _fail(f"cannot read {path}: {err.strerror}")
    if limit is not None and len(data) > limit:  # before decoding: the cut may split a letter
        _fail(f"{source} is too large: more than {limit:,} bytes (the limit)")
    try:  # a byte-order mark (Windows Notepad saves one) is not part of the text
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        _fail(
            "standard input is not UTF-8 text"
            if path in (None, "-")
            else f"cannot read {path}: not UTF-8 text"
        )


def _read_bytes(handle: BinaryIO, limit: int | None) -> bytes:
    """All of ``handle``, or its first ``limit + 1`` bytes (enough to tell it is too long)."""
    if limit is None:
        return handle.read()
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = handle.read(limit + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when it names a key twice (which one would count is a guess).

    >>> _unique_keys([("wild", "9s"), ("wild", "1m")])
    Traceback (most recent call last):
    ...
    paiju.cli.UsageError: invalid JSON: the key 'wild' appears twice in one object
    """
    from paiju.errors import quote

    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            _fail(f"invalid JSON: the key {quote(key)} appears twice in one object")
        out[key] = value
    return out


def _port(text: str) -> int:
    """A TCP port for ``--port``: 1–65535.

    >>> _port("8000")
    8000
    >>> _port("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a port is 1–65535, not 99999
    """
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1–65535, not {port}")
    return port


def _whole(text: str, least: int, what: str) -> int:
    """``text`` as a whole number of at least ``least``, or an argparse error naming
    ``what`` it is."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None
    if n < least:
        raise argparse.ArgumentTypeError(f"{what} is a whole number {least} or more, not {n}")
    return n


def _positive(text: str) -> int:
    """A count for an option that takes 1 or more.

    >>> _positive("50")
    50
    >>> _positive("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a count is a whole number 1 or more, not 0
    """
    return _whole(text, 1, "a count")


def _seed(text: str) -> int:
    """A seed for ``--seed``: a whole number, 0 or more (a negative seed would play the same
    hands as its positive twin).

    >>> _seed("77")
    77
    >>> _seed("-77")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a seed is a whole number 0 or more, not -77
    """
    return _whole(text, 0, "a seed")


class _BotsHelp(argparse.HelpFormatter):
    """Help that lists the bots of the registry (:mod:`paiju.bots.registry`) in place of
    ``{bots}``, loaded only when help is shown (the bots take half a second to import)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help
        if text is None or "{bots}" not in text:
            return text
        from paiju.bots.registry import bots_of, registered
        from paiju.games import game

        lines = []
        for name in registered():
            default = game(name).default_bot
            bots = sorted(bots_of(name).factories)
            names = [f"{b} (default)" if b == default else b for b in bots]
            lines.append(f"{name}: {', '.join(names)}")
        return text.replace("{bots}", "; ".join(lines))


def _check_database(url: str) -> None:
    """Fail with one line unless the database at ``url`` answers now (a wrong URL, a
    database that does not exist, a server that is down), before a command builds on it."""
    import sqlalchemy as sa

    from paiju.server.db import make_engine

    where = url.split("@")[-1]
    try:
        engine = make_engine(url, timeout=10)
    except sa.exc.ArgumentError as err:  # (a driver that is not installed, too)
        _fail(f"PAIJU_DATABASE_URL is not a database URL paiju can use: {err}")
    try:
        with engine.connect():
            pass
    except sa.exc.DBAPIError as err:
        said = str(getattr(err, "orig", err) or err).strip().splitlines() or [type(err).__name__]
        _fail(f"the database at {where} cannot be used: {said[0]}")
    finally:
        engine.dispose()


def _check_free(host: str, port: int) -> None:
    """Fail with one line unless ``host:port`` can be listened on now."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        _fail(f"cannot listen on {host}:{port}: {err.strerror}")
    # every address the server will listen on, as it does; one the system cannot open (IPv6
    # switched off, say) is left to the server
    for family, kind, proto, _, address in infos:
        try:
            probe = socket.socket(family, kind, proto)
        except OSError:
            continue
        with probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as err:
                if err.errno == errno.EADDRNOTAVAIL:
                    continue
                _fail(f"cannot listen on {host}:{port}: {err.strerror}")


#: The most a JSON input to a calculator may hold: a finished hand is a few hundred bytes.
MAX_JSON_BYTES = 1_000_000
#: A records file read by ``replay`` and ``position``: JSON lines of whole hands, a few KB
#: each, so 256 MiB is some 80,000 hands (split a larger file); ``/dev/zero`` is refused.
MAX_RECORD_BYTES = 256 * 2**20
#: The longest integer a JSON input may write (no field takes a number near it).
MAX_INT_DIGITS = 100


def _parse_int(text: str) -> int:
    """A JSON integer; one of more than :data:`MAX_INT_DIGITS` digits is refused (Python
    refuses beyond 4300 with a ``ValueError`` of its own).

    >>> _parse_int("-12")
    -12
    >>> _parse_int("9" * 5000)
    Traceback (most recent call last):
    ...
    paiju.cli.UsageError: invalid JSON: a number of 5,000 digits (no field takes more than 100)
    """
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        _fail(
            f"invalid JSON: a number of {digits:,} digits (no field takes more than "
            f"{MAX_INT_DIGITS})"
        )
    return int(text)


def _read_json(path: str | None, contract: str) -> Any:
    """The JSON value of a file (or standard input, for ``None`` or ``-``), or a one-line
    error; ``contract`` names the rules section the input follows.

    >>> _read_json("/dev/null", "rules §7")
    Traceback (most recent call last):
    ...
    paiju.cli.UsageError: no input: expected a JSON object (rules §7) on /dev/null
    """
    source = "standard input" if path is None or path == "-" else path
    text = _read_text(path, MAX_JSON_BYTES)
    if not text.strip():
        _fail(f"no input: expected a JSON object ({contract}) on {source}")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_parse_int)
    except json.JSONDecodeError as err:
        _fail(f"invalid JSON in {source}: {err.msg} at line {err.lineno} column {err.colno}")
    except RecursionError:
        _fail(f"invalid JSON in {source}: nested too deeply")
    except ValueError as err:  # any other value json cannot make
        _fail(f"invalid JSON in {source}: {str(err)[:100]}")


def _calculate(args: argparse.Namespace) -> int:
    """``paiju GAME CALCULATOR [FILE] [--explain]``: the game's calculator over the JSON of
    FILE (or standard input), its answer printed as JSON or, with ``--explain``, as tables."""
    from paiju.games import InputProblems, game

    calculator = game(args.command).calculators[args.subcommand]
    data = _read_json(args.file, calculator.contract)
    try:
        answer = calculator.printout(data)
    except InputProblems as err:
        # every problem the input has, one a line, so that one run shows them all
        for problem in err.problems:
            print(f"paiju: error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if getattr(args, "explain", False) and calculator.explain is not None:
        print(calculator.explain(answer))
    else:
        print(json.dumps(answer, ensure_ascii=False, indent=2 if calculator.explain else None))
    return 0


def _bots(args: argparse.Namespace) -> list[str]:
    """The bots ``--bots`` names for ``--game`` (``--games`` checked first); exits on a bad
    value."""
    from paiju.simulate import parse_bots

    if args.games < 1:
        _fail(f"--games must be 1 or more, got {args.games}")
    try:
        return parse_bots(args.game, args.bots)
    except ValueError as err:
        _fail(str(err))


def _with_progress(label: str, total: int, run: Callable[..., _T], *args: Any) -> _T:
    """``run(*args)``; on a terminal (stderr), ``run(*args, progress=...)`` under a
    transient progress bar of ``total`` hands."""
    if not sys.stderr.isatty():
        return run(*args)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=total)
        return run(*args, progress=lambda n: bar.update(task, completed=n))


def _simulate(args: argparse.Namespace) -> int:
    from paiju.simulate import simulate

    names = _bots(args)
    out = None
    if args.out:
        try:
            out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as err:
            _fail(f"cannot write {args.out}: {err.strerror}")
    try:
        summary = _with_progress(
            f"{args.game} hands", args.games, simulate, args.game, args.games, args.seed, names,
            out,
        )  # fmt: skip
    finally:
        if out is not None:
            out.close()
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        from paiju.explain import print_summary

        print_summary(summary)
    return 0


def _arena(args: argparse.Namespace) -> int:
    from paiju.arena import arena

    names = _bots(args)
    hands = 4 * -(-args.games // 4)
    if hands != args.games:
        print(
            f"paiju: note: --games {args.games} is rounded up to {hands} hands "
            "(whole deals of four: each bot in every seat)",
            file=sys.stderr,
        )
    report = _with_progress(
        f"{args.game} arena", hands, arena, args.game, args.games, args.seed, names
    )
    if args.json:
        print(
            json.dumps(
                {
                    "bots": report["bots"],
                    "differences": report["differences"],
                    "hands": report["hands"],
                    "game": report["game"],
                    "seed": report["seed"],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        from paiju.explain import print_arena

        print_arena(report)
    return 0


def _serve(args: argparse.Namespace) -> int:
    import asyncio

    try:
        import uvicorn

        from paiju.server.app import create_app, tune_collector
        from paiju.server.config import Settings
        from paiju.server.drain import DrainingServer
        from paiju.server.logs import setup as setup_logs
    except ModuleNotFoundError as err:  # the base install: no [server] extra
        if (err.name or "paiju").split(".")[0] == "paiju":
            raise
        _fail(
            f"paiju serve needs the [server] extra ({err.name} is not installed): "
            "pip install 'paiju[server]' (in a clone: make run)"
        )

    try:
        settings = Settings.from_env()
    except ValueError as err:
        _fail(str(err))
    _check_free(args.host, args.port)  # before the database is touched
    _check_database(settings.database_url)
    setup_logs(settings.log_level, settings.log_format)  # uvicorn's records go there too
    print(
        f"paiju: serving on http://{args.host}:{args.port}/ (database: "
        f"{settings.database_url.split('@')[-1]})",
        flush=True,
    )
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        log_config=None,  # uvicorn's loggers propagate to the process's handler
        ws_per_message_deflate=False,  # frames are small: compressing costs more than it saves
        ws_max_size=16 * settings.ws_max_bytes,  # 64 KiB; beyond: 1009, below: too_large
        # None: uvicorn's own default (FORWARDED_ALLOW_IPS, else the loopback addresses)
        forwarded_allow_ips=args.forwarded_allow_ips,
        limit_concurrency=args.limit_concurrency,
    )
    # SIGTERM drains first (docs/operate.md): live hands end, then the process exits 0
    server = DrainingServer(config, app.state.services, settings.drain_seconds)

    async def run() -> None:
        async def announce() -> None:
            while not server.started:
                await asyncio.sleep(0.05)
            tune_collector()  # the app has started: its objects live as long as the process
            print(f"paiju: listening on http://{args.host}:{args.port}/", flush=True)

        task = asyncio.create_task(announce())
        try:
            await server.serve()
        finally:
            task.cancel()

    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(run())
    return 0


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (its sockets, timers and wake-ups cost the
    server far less CPU than the standard loop's), else the standard one (``None``).

    >>> _loop_factory() is None or callable(_loop_factory())
    True
    """
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def _admin(args: argparse.Namespace) -> int:
    try:
        from paiju.server.admin import run_cli
        from paiju.server.config import Settings
    except ModuleNotFoundError as err:  # the base install: no [server] extra
        if (err.name or "paiju").split(".")[0] == "paiju":
            raise
        _fail(f"paiju admin needs the [server] extra ({err.name} is not installed)")
    try:
        settings = Settings.from_env()
    except ValueError as err:
        _fail(str(err))
    _check_database(settings.database_url)
    code, out = run_cli(args.admin_command, vars(args), settings.database_url)
    print(json.dumps(out, ensure_ascii=False, indent=2, default=str))
    return code


def _replay(args: argparse.Namespace) -> int:
    from paiju.records import replay_file

    checked, failures = replay_file(_read_text(args.file, MAX_RECORD_BYTES).splitlines())
    for message in failures:
        print(f"paiju: {message}", file=sys.stderr)
    if failures:
        print(f"replayed {checked} hands: {len(failures)} do not reproduce their records")
        return 1
    print(f"replayed {checked} hands: every one reproduces its result")
    return 0


def _position(args: argparse.Namespace) -> int:
    from paiju.positions import position_after

    text = _read_text(args.record, MAX_RECORD_BYTES)
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        _fail(f"no record in {args.record}")
    if args.line is None and len(lines) > 1:
        _fail(f"{args.record} holds {len(lines)} records: choose one with --line (1–{len(lines)})")
    line = 1 if args.line is None else args.line
    if not 1 <= line <= len(lines):
        _fail(f"--line must be 1–{len(lines)}, got {line}")
    try:
        record = json.loads(lines[line - 1])
    except json.JSONDecodeError as err:
        _fail(f"line {line} of {args.record} is not JSON: {err.msg} at column {err.colno}")
    if not isinstance(record, dict):
        _fail(f"line {line} of {args.record} is not a record (a JSON object)")
    print(position_after(record, args.n))
    return 0


def _pick_record(path: str, hand: int | None) -> dict[str, Any]:
    """The record of hand ``hand`` in a file of records (the only one when ``hand`` is
    ``None``), or a one-line error."""
    text = _read_text(path, MAX_RECORD_BYTES)
    records: list[dict[str, Any]] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            _fail(f"line {n} of {path} is not JSON: {err.msg} at column {err.colno}")
        if not isinstance(record, dict):
            _fail(f"line {n} of {path} is not a record (a JSON object)")
        records.append(record)
    if not records:
        _fail(f"no record in {path}")
    if hand is None:
        if len(records) > 1:
            _fail(f"{path} holds {len(records)} hands: choose one with --hand")
        return records[0]
    found = [r for r in records if r.get("hand") == hand]
    if not found:
        hands = sorted({h for r in records if isinstance(h := r.get("hand"), int)})
        shown = ", ".join(str(h) for h in hands[:10]) + (" …" if len(hands) > 10 else "")
        _fail(f"no hand {hand} in {path} (its hands: {shown or 'none numbered'})")
    if len(found) > 1:
        _fail(f"{path} holds {len(found)} records of hand {hand} (several matches?)")
    return found[0]


def _review(args: argparse.Namespace) -> int:
    from paiju.bots.review import format_review, review_hand

    if args.worlds < 2:
        _fail(f"--worlds must be 2 or more, got {args.worlds}")
    record = _pick_record(args.record, args.hand)
    seat = args.seat.upper()
    if not sys.stderr.isatty():
        review = review_hand(record, seat, seed=args.seed, worlds=args.worlds)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"reviewing {seat}'s decisions", total=None)
            review = review_hand(
                record, seat, seed=args.seed, worlds=args.worlds,
                progress=lambda n, total: bar.update(task, completed=n, total=total),
            )  # fmt: skip
    if args.json:
        print(json.dumps(review.to_json(), ensure_ascii=False, indent=2))
    else:
        print(format_review(review))
    return 0


def _legal(args: argparse.Namespace) -> int:
    from paiju.positions import legal_of

    words = args.position
    text = _read_text(None) if words == ["-"] else " ".join(words)
    for action in legal_of(text.strip()):
        print(action)
    return 0


def _add_calculators(commands: Any) -> None:
    """``paiju GAME CALCULATOR``: a command for each game, a subcommand for each of its
    calculators (:attr:`paiju.games.Game.calculators`)."""
    from paiju.games import registration

    for name in game_names():
        reg = registration(name)
        if not reg.game.calculators:
            continue
        offered = ", ".join(reg.game.calculators)
        parser = commands.add_parser(name, help=f"{reg.title}: {offered}")
        subcommands = parser.add_subparsers(dest="subcommand", required=True, metavar="COMMAND")
        for calc_name, calculator in reg.game.calculators.items():
            sub = subcommands.add_parser(
                calc_name, help=calculator.help, description=calculator.description or None
            )
            sub.add_argument("file", nargs="?", help="a JSON file (default: standard input)")
            if calculator.explain is not None:
                sub.add_argument("--explain", action="store_true", help="print it as tables")
            sub.set_defaults(run=_calculate)


def _command(
    commands: Any, name: str, run: Callable[[argparse.Namespace], int], **words: Any
) -> argparse.ArgumentParser:
    """The subcommand ``name`` (``help``, ``description`` … in ``words``), run by ``run``."""
    sub: argparse.ArgumentParser = commands.add_parser(name, **words)
    sub.set_defaults(run=run)
    return sub


def _match_command(
    commands: Any,
    name: str,
    run: Callable[[argparse.Namespace], int],
    options: tuple[int, str, str, str, str],
    **words: Any,
) -> argparse.ArgumentParser:
    """A subcommand that plays hands with bots (``simulate``, ``arena``): the game, then
    ``options``' hands to play by default and the help of ``--games``, ``--seed``, ``--bots``
    and ``--json``."""
    hands, games_help, seed_help, bots_help, json_help = options
    sub = _command(commands, name, run, formatter_class=_BotsHelp, **words)
    sub.add_argument("game", choices=game_names(), help="the game")
    sub.add_argument("--games", type=int, default=hands, help=games_help)
    sub.add_argument("--seed", type=_seed, default=0, help=seed_help)
    sub.add_argument("--bots", help=bots_help)
    sub.add_argument("--json", action="store_true", help=json_help)
    return sub


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paiju",
        description="牌局: traditional Chinese games for players, scorekeepers and researchers.",
    )
    games = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_calculators(games)

    sim_options = (
        100,
        "hands to play (default 100)",
        "the match seed, 0 or more (default 0)",
        "one bot for all, or four separated by commas; {bots}; expert@200ms gives the expert "
        "a time budget per move",
        "print the summary as JSON",
    )
    sim = _match_command(
        games,
        "simulate",
        _simulate,
        sim_options,
        help="play many seeded hands with bots and summarise them",
        description="Play GAMES hands of one seeded match with bots; print a summary and "
        "optionally write one JSON record per hand.",
    )
    sim.add_argument("--out", help="write each hand as a JSON line to this file")

    arena_options = (
        400,
        "hands to play, rounded up to whole deals of four (default 400)",
        "the seed, 0 or more (default 0)",
        "four bots separated by commas, e.g. strong,greedy,greedy,greedy (one name: all four); "
        "{bots}",
        "print the ratings as JSON",
    )
    _match_command(
        games,
        "arena",
        _arena,
        arena_options,
        help="rate bots against each other on the same deals, each in every seat",
        description="Play GAMES hands in deals of four (one seed, the bots rotated one seat "
        "each time) and print each bot's mean net per hand with a 95% confidence interval, "
        "its win rate and its rate of discarding into a win.",
    )

    serve = _command(
        games,
        "serve",
        _serve,
        help="run the table server (HTTP API, WebSocket /ws, OpenAPI at /openapi.json)",
        description="Run the table server. Storage: an SQLite file in PAIJU_DATA_DIR "
        "(default ./data), or PAIJU_DATABASE_URL (PostgreSQL).",
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_port, default=8000, help="1–65535 (default 8000)")
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="the proxies whose X-Forwarded-For/-Proto are trusted, comma-separated, '*' for "
        "any (default: $FORWARDED_ALLOW_IPS, else 127.0.0.1,::1)",
    )
    serve.add_argument(
        "--limit-concurrency",
        metavar="N",
        type=_positive,
        help="connections at once beyond which new requests are answered 503 (default: none)",
    )

    _command(
        games,
        "replay",
        _replay,
        help="replay game records and check each reproduces its result",
        description="Re-apply every record of a .jsonl file and check that each reproduces "
        "its recorded result. Exits 1 naming each hand and action that does not.",
    ).add_argument("file", help="a .jsonl file written by paiju simulate --out")

    pos = _command(
        games,
        "position",
        _position,
        help="print the position after N actions of a game record",
        description="Replay the first N actions of a game record (a .json or .jsonl file, "
        "'-' for standard input) and print the position they reach, as one line that "
        "'paiju legal' and State.from_position read (docs: each game's position.py, "
        "paiju/<game>/position.py).",
    )
    pos.add_argument("record", help="a file holding game records (one JSON object a line)")
    pos.add_argument("n", type=int, help="how many actions to play (0: the deal)")
    pos.add_argument("--line", type=int, help="which record of the file (1-based)")

    rev = _command(
        games,
        "review",
        _review,
        help="review one seat's decisions in a finished hand against the expert's",
        description="For every decision the seat made in the hand (discard, claim or pass, "
        "kong, win or not): the expert's choice from the seat's view and, where they differ, "
        "both choices' values and the loss in the game's unit (95% intervals), from "
        "rollouts over worlds drawn from the seat's view alone (docs/bots.md).",
    )
    rev.add_argument("record", help="a file of game records (paiju simulate --out), '-': stdin")
    rev.add_argument("--hand", type=int, help="the hand's number (its record's \"hand\")")
    rev.add_argument("--seat", required=True, help="the seat reviewed: E, S, W or N")
    rev.add_argument("--seed", type=_seed, default=0, help="the review's seed (default 0)")
    rev.add_argument(
        "--worlds", type=int, default=32, help="worlds per decision that differs (default 32)"
    )
    rev.add_argument("--json", action="store_true", help="print the review as JSON")

    _command(
        games,
        "legal",
        _legal,
        help="list the legal actions of a written position",
        description="Print every legal action of a position (as 'paiju position' writes it; "
        "quote it, or pass '-' to read it from standard input), one a line, for every seat "
        "that may act.",
    ).add_argument("position", nargs="+", help="the position's fields, or -")

    adm = games.add_parser(
        "admin",
        help="an admin's tools against the server's database (docs/operate.md)",
        description="Run one admin action against the database of 'paiju serve' (the same "
        "PAIJU_* settings), audited as cli:<your user> with --why. Prints JSON; exits 1 on a "
        "refusal (and 'check' on books that do not balance).",
    )
    acts = adm.add_subparsers(dest="admin_command", required=True, metavar="ACTION")
    for verb, text in [
        ("find", "an account: balance, ledger, hands, sessions, admin actions"),
        ("grant", "give an account points (from the house)"),
        ("take", "take points from an account (to the house)"),
        ("suspend", "end an account's sessions; it cannot log in or sit"),
        ("lift", "lift a suspension"),
        ("role", "give an account the admin role (--remove: take it away)"),
        ("close-table", "void a table's live hand, refund its fees, unseat its players"),
        ("house", "the house's balance, and what fees, escapes and the rest brought in"),
        ("check", "sum every balance against the ledger and the points issued"),
    ]:
        sub = acts.add_parser(verb, help=text, description=text)
        if verb == "close-table":
            sub.add_argument("table", type=_positive, help="the table's id")
        elif verb not in ("house", "check"):
            sub.add_argument("name", help="the account's name")
        if verb in ("grant", "take"):
            sub.add_argument("amount", type=_positive, help="points (a positive number)")
        if verb == "role":
            sub.add_argument("--remove", action="store_true", help="take the role away")
        if verb not in ("find", "house", "check"):
            sub.add_argument("--why", required=True, help="the reason, recorded with the action")
    adm.set_defaults(run=_admin)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``paiju`` command; returns the exit code.

    >>> main(["replay", "no-such-file.jsonl"])  # prints the error on stderr
    2
    """
    args = _parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except (UsageError, RulesError) as err:
        print(f"paiju: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    raise SystemExit(main())
