"""`paiju mazhan score` as a user runs it: JSON in, JSON out, one-line errors, exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from paiju.mazhan.record import EXAMPLE

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str | bytes = "") -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "paiju.cli", *args],
        input=data,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_score_reads_stdin_and_prints_the_settlement() -> None:
    proc = run("mazhan", "score", stdin=json.dumps(EXAMPLE))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["net"] == {"E": -640, "S": 1280, "W": -320, "N": -320}
    assert out["players"]["S"]["value"] == 320


def test_score_reads_the_example_file_and_explains() -> None:
    proc = run("mazhan", "score", "--explain", "examples/seed_hand.json")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    for fragment in ("混一色", "(20 + 20) × 8 = 320", "net: E -640  S +1280  W -320  N -320"):
        assert fragment in text


def _mutate(path: list[str | int], value: object) -> str:
    data = json.loads(json.dumps(EXAMPLE))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(data)


BAD_INPUTS = {
    "empty": "",
    "not json": "{'wild': 9s}",
    "truncated": json.dumps(EXAMPLE)[:50],
    "a list": "[]",
    "a number": "7",
    "deep nesting": "[" * 100000,
    "unknown tile": _mutate(["players", "S", "concealed"], "1p3p678p789p2p2p2x"),
    "trailing digits": _mutate(["players", "S", "concealed"], "1p3p678p789p2p2p2"),
    "eight z": _mutate(["wild"], "8z"),
    "five copies": _mutate(["players", "E", "concealed"], "1111123456789m12s"),
    "four wilds": _mutate(["players", "E", "concealed"], "1123456789m9s9s9s9s12s"),
    "wild in a meld": _mutate(["players", "S", "melds"], ["pung 777z", "chow 789s"]),
    "incomplete winner": _mutate(["players", "S", "concealed"], "1p3p678p789p2p2p4p"),
    "tianhu by south": _mutate(["tianhu"], True),
    "dihu on a self draw": _mutate(["dihu"], True),
    "unknown field": _mutate(["bonus"], "1h"),
    "melds not a list": _mutate(["players", "S", "melds"], "pung 777z"),
    "bad meld": _mutate(["players", "S", "melds"], ["pung 7z7z6z", "pung 555p"]),
    "concealed not a string": _mutate(["players", "S", "concealed"], 12),
    "flag not a bool": _mutate(["tianhu"], "no"),
    "bonus in concealed": _mutate(["players", "E", "concealed"], "1123456789m12345s5z"),
    "suit tile as bonus": _mutate(["players", "E", "bonus"], "1m"),
    "missing seat": json.dumps({**EXAMPLE, "players": {"E": EXAMPLE["players"]["E"]}}),
    "a key twice": json.dumps(EXAMPLE)[:-1] + ', "wild": "1m"}',
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gets_one_line_and_exit_2(name: str) -> None:
    proc = run("mazhan", "score", stdin=BAD_INPUTS[name])
    err = proc.stderr.decode()
    assert proc.returncode == 2, (name, err)
    assert proc.stdout == b""
    assert err.startswith("paiju: error: ")
    assert err.count("\n") == 1, err
    assert "Traceback" not in err


def test_non_utf8_input_is_a_clear_error() -> None:
    proc = run("mazhan", "score", stdin=b"\xff\xfe{}")
    assert proc.returncode == 2
    assert b"UTF-8" in proc.stderr


def test_a_file_saved_with_a_byte_order_mark_is_read() -> None:
    proc = run("mazhan", "score", stdin=b"\xef\xbb\xbf" + json.dumps(EXAMPLE).encode())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["net"]["S"] == 1280


def test_a_key_named_twice_is_refused_naming_it() -> None:
    proc = run("mazhan", "score", stdin=BAD_INPUTS["a key twice"])
    assert "the key 'wild' appears twice" in proc.stderr.decode()


def test_a_wrong_tile_count_reads_as_english() -> None:
    players = {**EXAMPLE["players"], "E": {"concealed": "1m", "melds": []}}
    proc = run("mazhan", "score", stdin=json.dumps({**EXAMPLE, "players": players}))
    assert "holds 1 tile (1 concealed + 0 melds × 3)" in proc.stderr.decode(), proc.stderr


def test_serve_refuses_a_port_out_of_range_and_one_in_use() -> None:
    proc = run("serve", "--port", "99999")
    assert proc.returncode == 2 and b"a port is 1\xe2\x80\x9365535, not 99999" in proc.stderr
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = run("serve", "--port", str(port))
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.startswith(
        f"paiju: error: cannot listen on 127.0.0.1:{port}"
    )
    assert err.count("\n") == 1 and proc.stdout == b""


def test_missing_file_is_a_clear_error() -> None:
    proc = run("mazhan", "score", "no/such/file.json")
    assert proc.returncode == 2
    assert proc.stderr.decode() == "paiju: error: cannot read no/such/file.json: no such file\n"
