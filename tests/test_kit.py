"""paiju.kit, the pieces both game cores share: the standard library and paiju.errors only
(the cores' own rule, tests/test_core_purity.py), and each piece as the cores use it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from paiju.kit.seats import SeatEnum

KIT = Path(__file__).resolve().parent.parent / "paiju" / "kit"


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import"
            assert node.module is not None
            names.add(node.module)
    return names


def test_kit_imports_only_the_standard_library_and_paiju_errors() -> None:
    paths = sorted(KIT.rglob("*.py"))
    assert paths
    for path in paths:
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "paiju":
                assert name == "paiju.errors" or name.startswith("paiju.kit."), (
                    f"{path}: imports {name}"
                )
            else:
                assert top in sys.stdlib_module_names or top == "__future__", (
                    f"{path}: imports {name}, not in the standard library"
                )


class _Seat(SeatEnum):
    E = "E"
    S = "S"
    W = "W"
    N = "N"


def test_seat_enum_numbers_and_next() -> None:
    assert [s.number for s in _Seat] == [1, 2, 3, 4]
    assert [s.next for s in _Seat] == [_Seat.S, _Seat.W, _Seat.N, _Seat.E]


def test_both_cores_seats_share_the_base() -> None:
    from paiju.madiao.seats import SEATS as MADIAO_SEATS
    from paiju.mazhan.seats import SEATS as MAZHAN_SEATS

    for seats in (MAZHAN_SEATS, MADIAO_SEATS):
        assert all(isinstance(s, SeatEnum) for s in seats)
        assert [s.next for s in seats] == [*seats[1:], seats[0]]
        assert [s.number for s in seats] == [1, 2, 3, 4]


def test_both_notations_share_the_grammar_and_keep_their_words() -> None:
    from paiju.errors import NotationError
    from paiju.madiao.cards import parse_cards
    from paiju.mazhan.tiles import parse_tiles

    cases = [
        (parse_tiles, "12 3m", "whitespace inside a group: digits '12' lack a suit letter"),
        (parse_cards, "98 7m", "whitespace inside a group: faces '98' lack a suit letter"),
        (parse_tiles, "m", "suit letter 'm' has no digits before it"),
        (parse_cards, "m", "suit letter 'm' has no faces before it"),
        (parse_tiles, "1m8z", "8z is not a tile (honours are 1z–7z)"),
        (parse_cards, "9mxt", "'x' is not a face of 十字 (w q b 9–2)"),
        (parse_cards, "9m1t", "'1' is not a face of 十字 (w q b 9–2)"),
        (parse_tiles, "1x", "unknown suit letter 'x'"),
        (parse_cards, "9m!", "unexpected character '!'"),
    ]
    for parse, text, message in cases:
        try:
            parse(text)
        except NotationError as err:
            assert str(err).startswith(message), (text, str(err))
        else:
            raise AssertionError(f"{text!r} parsed")
