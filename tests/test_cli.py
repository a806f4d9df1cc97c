"""`paiju mazhan score` as a user runs it: JSON in, JSON out, a line for each problem, exit
code 2."""

from __future__ import annotations

import json
import os
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
    "five copies": _mutate(["players", "E", "concealed"], "1111123456789m123s"),
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
    "a number too long for Python": '{"wild": ' + "9" * 5000 + "}",
    "a number of 101 digits": '{"wild": ' + "9" * 101 + "}",
    "dihu with a meld": json.dumps(
        {
            "wild": "9s",
            "winner": "S",
            "win_tile": "7s",
            "win_by": "discard",
            "discarder": "E",
            "dihu": True,
            "players": {
                "E": {"concealed": "1m2m3m4m5m6m7m8m9m1p2p3p4p5p6p7p"},
                "S": {"concealed": "123m456m234p567s11z", "melds": ["chow 789m"]},
                "W": {"concealed": "1m2m3m4m5m6m7m8m9m1p2p3p4p5p6p7p"},
                "N": {"concealed": "1m2m3m4m5m6m7m8m9m1p2p3p4p5p6p7p"},
            },
        }
    ),
    "kong replacement without a kong": _mutate(["win_by"], "kong_replacement"),
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


def test_every_problem_a_scorekeeper_can_fix_is_a_line_of_its_own() -> None:
    """Two seats short of a tile and a misspelt meld: one run names all three, in the form's
    order (the fields first, then the seats' counts)."""
    hand = json.loads(BAD_INPUTS["melds not a list"])
    hand["players"]["S"]["melds"] = ["pung 777z", "pong 555p"]
    hand["players"]["E"]["concealed"] = "1123456789m12345s"
    hand["players"]["N"]["concealed"] = "15678s23456p99p44z6z"
    proc = run("mazhan", "score", stdin=json.dumps(hand))
    assert proc.returncode == 2 and proc.stdout == b""
    short = "holds 15 tiles (15 concealed + 0 melds × 3), a non-winner holds 16"
    assert proc.stderr.decode().splitlines() == [
        "paiju: error: players.S.melds[1]: meld 'pong 555p': unknown kind 'pong' "
        "(chow, pung, kong or ckong)",
        f"paiju: error: players.E: {short}",
        f"paiju: error: players.N: {short}",
    ]


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


def _one_line_error(proc: subprocess.CompletedProcess[bytes]) -> str:
    err = proc.stderr.decode()
    assert proc.returncode == 2, err[:500]
    assert proc.stdout == b""
    assert err.startswith("paiju: error: ") and err.count("\n") == 1, err[:500]
    return err


def test_a_number_too_long_for_python_is_a_one_line_error() -> None:
    # Python refuses to read an integer of more than 4300 digits (a ValueError, not a
    # JSONDecodeError): no traceback, for either command
    big = "9" * 5000
    err = _one_line_error(run("mazhan", "score", stdin='{"wild": ' + big + "}"))
    assert "a number of 5,000 digits" in err
    err = _one_line_error(run("madiao", "chong", stdin='{"table": ' + big + "}"))
    assert "a number of 5,000 digits" in err


def test_an_input_beyond_a_megabyte_is_refused() -> None:
    err = _one_line_error(run("mazhan", "score", "/dev/zero"))
    assert err == "paiju: error: /dev/zero is too large: more than 1,000,000 bytes (the limit)\n"
    err = _one_line_error(run("madiao", "chong", stdin=b" " * 1_000_001))
    assert "standard input is too large" in err
    ok = run("mazhan", "score", stdin=json.dumps(EXAMPLE) + " " * 900_000)
    assert ok.returncode == 0, ok.stderr
    for command in (["replay", "/dev/zero"], ["position", "/dev/zero", "0"]):
        err = _one_line_error(run(*command))
        assert (
            err == "paiju: error: /dev/zero is too large: more than 268,435,456 bytes (the limit)\n"
        )


def test_a_long_bad_string_is_quoted_short() -> None:
    data = json.loads(json.dumps(EXAMPLE))
    data["players"]["E"]["concealed"] = "1m" * 450_000 + "x"
    err = _one_line_error(run("mazhan", "score", stdin=json.dumps(data)))
    assert len(err) < 300
    assert "unknown suit letter 'x'" in err and "(900,001 characters) at position 900000" in err
    draws = "9m" * 50_000 + "x"
    err = _one_line_error(run("madiao", "chong", stdin=json.dumps({"table": "9m", "draws": draws})))
    assert len(err) < 300 and "(100,001 characters)" in err


def test_no_input_names_each_commands_rules_section() -> None:
    err = _one_line_error(run("mazhan", "score"))
    assert "expected a JSON object (Mazhan rules §11)" in err
    err = _one_line_error(run("madiao", "chong"))
    assert "expected a JSON object (Ma Diao rules §7)" in err


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"table": "9m8m7m6m5m4m3m2m1m", "draws": "9s"},
            "table: 9 cards, but a player wins at most 8",
        ),
        (
            {"table": "9m", "draws": "8m7m6m5m4m3m2m1m9s"},
            "draws: 9 cards, but there are only 8 底牌",
        ),
        ({"table": "9m", "draws": "8m", "captured": []}, "captured: expected an object"),
        ({"table": "9m", "draws": "8m", "captured": None}, "got null"),
        ({"table": None, "draws": "8m"}, "table: expected a card string like '9m8m', got null"),
    ],
)
def test_madiao_chong_refuses_what_no_hand_holds(data: dict[str, object], message: str) -> None:
    err = _one_line_error(run("madiao", "chong", stdin=json.dumps(data)))
    assert message in err


def test_madiao_chong_takes_eight_and_eight() -> None:
    proc = run("madiao", "chong", stdin=json.dumps({"table": "9m", "draws": "87654321m"}))
    assert json.loads(proc.stdout)["total"] == 17


@pytest.mark.parametrize("command", ["simulate", "arena"])
def test_a_negative_seed_is_refused(command: str) -> None:
    proc = run(command, "mazhan", "--games", "4", "--seed", "-77")
    assert proc.returncode == 2 and proc.stdout == b""
    assert "argument --seed: a seed is a whole number 0 or more, not -77" in proc.stderr.decode()


@pytest.mark.parametrize("command", ["simulate", "arena"])
@pytest.mark.parametrize("games", ["0", "-3"])
def test_no_hands_to_play_is_refused(command: str, games: str) -> None:
    proc = run(command, "mazhan", "--games", games)
    assert proc.returncode != 0 and proc.stdout == b""
    assert f"--games must be 1 or more, got {games}" in proc.stderr.decode()


@pytest.mark.parametrize("command", ["simulate", "arena"])
def test_help_names_every_bot_and_each_games_default(command: str) -> None:
    text = " ".join(run(command, "--help").stdout.decode().split())
    assert "mazhan: expert, greedy (default), random, strong" in text
    assert "madiao: expert, heuristic (default), random" in text


def test_arena_says_when_it_rounds_the_hands_up() -> None:
    proc = run("arena", "madiao", "--games", "6", "--bots", "random", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hands"] == 8
    assert "--games 6 is rounded up to 8 hands" in proc.stderr.decode()
    whole = run("arena", "madiao", "--games", "4", "--bots", "random", "--json")
    assert whole.stderr == b""


def test_explain_shows_the_four_tai_behind_a_limit_hand() -> None:
    filler = "1m2m3m4m5m6m7m8m9m1p2p3p4p5p6p7p"
    hand = {
        "wild": "9s",
        "winner": "S",
        "win_tile": "2m",
        "win_by": "discard",
        "discarder": "N",
        "players": {
            "E": {"concealed": filler},
            "S": {
                "concealed": "22m789m123p",
                "melds": ["pung 777z", "pung 666z", "pung 222z"],
                "bonus": "2h",
            },
            "W": {"concealed": "1m2m3m4m5m6m7m8m9m1p2p3p4p", "melds": ["pung 333z"]},
            "N": {"concealed": "1m3m4m5m6m7m8m9m1p2p3p4p5p6p7p8p"},
        },
    }
    from paiju.mazhan.explain import render_settlement
    from paiju.mazhan.scoring import score_json

    text = render_settlement(score_json(hand), width=200)
    assert "4 台 or more: limit (辣子) 400 (胡頭 (20 + 20) × 16 = 640)" in text
    assert "capped at 400" not in text


def test_arena_with_one_bot_everywhere_says_there_is_nothing_to_compare() -> None:
    proc = run("arena", "madiao", "--games", "4", "--bots", "random,random,random,random")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert "differences: none (every seat plays the same bot)" in out
    assert "differences (per deal)" not in out  # no empty table


def _serving(tmp_path: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    """``paiju serve`` on a free port with ``options``, once it says it is serving."""
    import os
    import queue
    import socket
    import threading

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    env = {**os.environ, "PAIJU_DATA_DIR": str(tmp_path)}
    env.pop("PAIJU_DATABASE_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "paiju.cli", "serve", "--port", str(port), *options],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    lines: queue.Queue[bytes] = queue.Queue()
    stdout = proc.stdout

    def read() -> None:
        for line in iter(stdout.readline, b""):
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    # the server's own lines: "serving on" (its settings read), then "listening on" (the
    # socket open); the bound is for a server that never says it
    for said in ("paiju: serving on", "paiju: listening on"):
        line = lines.get(timeout=120).decode()
        assert line.startswith(said), line
    return proc, f"http://127.0.0.1:{port}"


@pytest.mark.parametrize(
    ("options", "secure"), [((), True), (("--forwarded-allow-ips", "203.0.113.9"), False)]
)
def test_serve_trusts_a_proxys_forwarded_headers_only_from_the_addresses_it_is_given(
    tmp_path: Path, options: tuple[str, ...], secure: bool
) -> None:
    """Behind a proxy that terminated TLS (docs/deploy.md): the session cookie is ``Secure``
    when the proxy that says https is trusted, the loopback by default; with
    ``--forwarded-allow-ips`` naming another address, the same header from the loopback is
    not believed."""
    import httpx

    proc, base = _serving(tmp_path, "--limit-concurrency", "50", *options)
    try:
        account = {"name": "proxied", "password": "a long enough password 7"}
        with httpx.Client(base_url=base, headers={"X-Forwarded-Proto": "https"}) as client:
            assert client.post("/api/register", json=account).status_code == 201
            answer = client.post("/api/login", json=account)
        assert answer.status_code == 200, answer.text
        cookie = answer.headers["set-cookie"]
        assert ("Secure" in cookie) is secure, cookie
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_serve_refuses_a_concurrency_limit_below_one() -> None:
    proc = run("serve", "--limit-concurrency", "0")
    assert proc.returncode == 2 and b"a count is a whole number 1 or more, not 0" in proc.stderr


@pytest.mark.parametrize("command", [("serve",), ("admin", "check")])
@pytest.mark.parametrize(
    ("url", "said"),
    [
        (
            "postgresql+psycopg://postgres@127.0.0.1:5432/paiju_no_such_database",
            "the database at 127.0.0.1:5432/paiju_no_such_database cannot be used: "
            "connection failed",
        ),
        ("nosuchdriver://x", "PAIJU_DATABASE_URL is not a database URL paiju can use"),
    ],
)
def test_a_database_that_cannot_be_used_is_one_line(
    command: tuple[str, ...], url: str, said: str
) -> None:
    """A wrong database URL or a database that does not exist is said in one line before
    the server starts or the admin action runs, not in the framework's trace."""
    env = {**os.environ, "PAIJU_DATABASE_URL": url}
    if command == ("serve",):
        import socket

        with socket.socket() as s:  # a port free now: the database is what fails
            s.bind(("127.0.0.1", 0))
            command = ("serve", "--port", str(s.getsockname()[1]))
    proc = subprocess.run(
        [sys.executable, "-m", "paiju.cli", *command],
        capture_output=True, cwd=ROOT, timeout=60, check=False, env=env,
    )  # fmt: skip
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.startswith(f"paiju: error: {said}"), err
    assert err.count("\n") == 1 and proc.stdout == b""
