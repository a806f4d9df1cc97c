"""The ``paiju`` command.

``paiju mazhan score [FILE] [--explain]`` reads one finished hand as JSON (rules §11) from FILE
or standard input and prints the settlement as JSON, or as readable tables with ``--explain``.
Bad input of any kind prints one line, ``paiju: error: …``, and exits with code 2.

>>> main(["mazhan", "score", "examples/seed_hand.json"])  # doctest: +ELLIPSIS
{
  "winner": "S",
...
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from paiju.errors import RulesError

__all__ = ["main"]

EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad input to a command: printed on one line, exit code 2."""


def _fail(message: str) -> NoReturn:
    raise UsageError(message)


def _read_json(path: str | None) -> Any:
    if path is None or path == "-":
        source = "standard input"
        try:
            text = sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError:
            _fail("standard input is not UTF-8 text")
    else:
        source = path
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except FileNotFoundError:
            _fail(f"cannot read {path}: no such file")
        except IsADirectoryError:
            _fail(f"cannot read {path}: it is a directory")
        except UnicodeDecodeError:
            _fail(f"cannot read {path}: not UTF-8 text")
        except OSError as err:
            _fail(f"cannot read {path}: {err.strerror}")
    if not text.strip():
        _fail(f"no input: expected a JSON object (rules §11) on {source}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        _fail(f"invalid JSON in {source}: {err.msg} at line {err.lineno} column {err.colno}")
    except RecursionError:
        _fail(f"invalid JSON in {source}: nested too deeply")


def _mazhan_score(args: argparse.Namespace) -> int:
    from paiju.mazhan.scoring import score_json

    data = _read_json(args.file)
    result = score_json(data)
    if args.explain:
        from paiju.explain import print_settlement

        print_settlement(result)
    else:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paiju", description="牌局: Mazhan mahjong and Ma Diao for players and scorers."
    )
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    mazhan = games.add_parser("mazhan", help="Mazhan mahjong (馬站麻將)")
    mazhan_cmds = mazhan.add_subparsers(dest="command", required=True, metavar="COMMAND")
    score = mazhan_cmds.add_parser(
        "score",
        help="score a finished hand (JSON in, JSON out)",
        description="Score one finished hand given as JSON (rules §11) and print the "
        "settlement as JSON, or as tables with --explain.",
    )
    score.add_argument("file", nargs="?", help="a JSON file (default: standard input)")
    score.add_argument(
        "--explain", action="store_true", help="print each seat's items as readable tables"
    )
    score.set_defaults(run=_mazhan_score)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``paiju`` command; returns the exit code.

    >>> main(["mazhan", "score", "no-such-file.json"])  # prints the error on stderr
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
