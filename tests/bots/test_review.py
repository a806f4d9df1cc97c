"""The hand review (paiju.bots.review): it reads only the reviewed seat's view, it flags a
deliberately bad decision with a loss whose interval is above 0, it is the same for a seed,
and ``paiju review`` reads records and says what is wrong with bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from paiju.bots.base import make_bot
from paiju.bots.driver import play_match, run_hand
from paiju.bots.review import (
    Decision,
    decisions_of,
    format_review,
    review_decision,
    review_hand,
    reviewer_of,
)
from paiju.cli import main
from paiju.errors import ReplayError
from paiju.games import game
from paiju.madiao.rules import State as MadiaoState
from paiju.madiao.scoring import BAILAO
from paiju.mazhan.actions import ActionKind

# a few worlds: these tests check what the review reads and that it is the same, not the
# size of its intervals
WORLDS = 3


def _record(name: str, seed: int, bot: str | None = None) -> dict[str, Any]:
    bots = [make_bot(name, bot or reviewer_of(name).rollout) for _ in range(4)]
    return play_match(game(name).default_ruleset(), bots, seed=seed, hands=1)[0].to_json()


def _perturbed_mazhan(state: Any, seat: Any, rng: random.Random) -> Any:
    """Another full Mazhan state the seat cannot tell from ``state``: the other hands, the
    other seats' face-down kongs and the wall's order dealt afresh."""
    return reviewer_of("mazhan").sample(game("mazhan").observe(state, seat), rng)


def _perturbed_madiao(state: MadiaoState, seat: Any, rng: random.Random) -> MadiaoState:
    """The same Ma Diao state with the cards the seat cannot see (the other hands and the
    stock under the 面張) shuffled among them, each hand its size; the 百老 stays where it is
    (who holds it is settled on)."""
    me = seat.number - 1
    others = [k for k in range(4) if k != me]
    pool = [c for k in others for c in state.hands[k] if c != BAILAO.index]
    pool += [c for c in state.stock[:-1] if c != BAILAO.index]
    rng.shuffle(pool)
    hands = [list(h) for h in state.hands]
    for k in others:
        keep = [c for c in hands[k] if c == BAILAO.index]
        hands[k] = sorted(keep + [pool.pop() for _ in range(len(hands[k]) - len(keep))])
    stock = [BAILAO.index if c == BAILAO.index else pool.pop() for c in state.stock[:-1]]
    changed = MadiaoState(**{f: getattr(state, f) for f in state.__dataclass_fields__})
    changed.hands = hands
    changed.stock = (*stock, state.stock[-1])
    return changed


PERTURB = {"mazhan": _perturbed_mazhan, "madiao": _perturbed_madiao}


@pytest.mark.parametrize(("name", "seed"), [("mazhan", 3), ("madiao", 4)])
def test_a_review_reads_only_what_the_seat_may_know(name: str, seed: int) -> None:
    """What the seat may not know (other hands, the wall's or stock's order), changed in a
    way its view cannot tell, gives the same review of each decision; at least one of them
    differs from the expert's, so the worlds and the rollouts are read too."""
    g = game(name)
    record = _record(name, seed, bot="greedy" if name == "mazhan" else None)
    rng = random.Random(seed)
    checked = differ = 0
    for seat in g.seats:
        for d in decisions_of(g, record, seat):
            first = review_decision(
                name, d.state, seat, d.played, step=d.step, seed=5, worlds=WORLDS
            )
            if first.agrees and checked >= 3:
                continue  # a decision that agrees reads no world: a few suffice
            for _ in range(2):
                other = PERTURB[name](d.state, seat, rng)
                assert other != d.state
                assert g.observe(other, seat) == g.observe(d.state, seat)
                again = review_decision(
                    name, other, seat, d.played, step=d.step, seed=5, worlds=WORLDS
                )
                assert again == first
            checked += 1
            differ += not first.agrees
            if differ >= 2:
                return
    pytest.fail(f"only {differ} decisions differ from the expert's in {checked}")


#: A strong-bot Mazhan hand that ends in a win on a discard with 14 tiles left in the wall:
#: of the wins of seeds 0–29 the one with the least wall left, so that passing it leaves few
#: chances of another (a win passed early may be won again, self-drawn, for more).
LATE_WIN_SEED = 23


def _passing_a_win() -> tuple[dict[str, Any], str, int]:
    """:data:`LATE_WIN_SEED`'s hand replayed with the winner passing its win, then played
    to its end by ``strong``: the record, the seat and the step of the pass."""
    g = game("mazhan")
    record = _record("mazhan", LATE_WIN_SEED)
    *before, last = record["actions"]
    win = g.parse_action(last)
    assert win.kind is ActionKind.HU
    state = g.new_hand(g.ruleset_from_json(record["ruleset"]), record["seed"], record["setup"])
    for text in before:
        state, _ = g.apply(state, g.parse_action(text))
    seat = win.seat
    assert g.observe(state, seat).wall_left <= 20
    instead = next(a for a in g.legal_actions(state, seat) if a.kind is ActionKind.PASS)
    after, _ = g.apply(state, instead)
    bots = [make_bot("mazhan", "strong") for _ in range(4)]
    final, rest = run_hand(g, after, bots, LATE_WIN_SEED)
    changed = {
        **record,
        "actions": [*before, str(instead), *map(str, rest)],
        "result": g.result_json(final),
    }
    return changed, seat.value, len(before)


def test_passing_a_win_is_flagged_with_a_loss_above_zero() -> None:
    record, seat, step = _passing_a_win()
    review = review_hand(record, seat, seed=1, worlds=12)
    flagged = next(d for d in review.items if d.step == step)
    assert flagged.kind == "win or not" and not flagged.agrees
    assert flagged.expert.endswith(("hu", "shazhu"))
    assert flagged.loss is not None and flagged.loss.lo > 0, flagged
    assert flagged in review.ranked()
    assert review.total_loss > 0 and review.agreement < 1
    assert f"{step + 1:>4}  win or not" in format_review(review)


def test_a_review_is_the_same_for_a_seed_and_its_json_round_trips() -> None:
    record = _record("madiao", 6)
    one = review_hand(record, "S", seed=2, worlds=WORLDS)
    assert one == review_hand(record, "S", seed=2, worlds=WORLDS)
    data = json.loads(json.dumps(one.to_json()))
    assert data["decisions"] == one.decisions == len(data["items"])
    assert data["unit"] == "注" and data["rollout"] == "heuristic"
    assert all(isinstance(i["step"], int) for i in data["items"])


def test_every_decision_is_one_the_seat_made_with_a_choice() -> None:
    g = game("mazhan")
    record = _record("mazhan", 8)
    seen: list[Decision] = []
    for seat in g.seats:
        found = decisions_of(g, record, seat)
        assert all(len(d.legal) > 1 and d.played in d.legal for d in found)
        seen += found
    # every action with a choice is some seat's decision, once
    steps = sorted(d.step for d in seen)
    assert len(steps) == len(set(steps)) > 10


def test_bad_input_is_refused_with_a_reason() -> None:
    record = _record("madiao", 9)
    with pytest.raises(ReplayError, match="no seat 'Q'"):
        review_hand(record, "Q")
    with pytest.raises(ReplayError, match="worlds"):
        review_hand(record, "E", worlds=1)
    unfinished = {**record, "actions": record["actions"][:-3]}
    with pytest.raises(ReplayError, match="not over"):
        review_hand(unfinished, "E")


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_the_command_prints_the_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = game("madiao")
    records = [
        r.to_json()
        for r in play_match(
            g.default_ruleset(),
            [make_bot("madiao", "heuristic") for _ in range(4)],
            seed=2,
            hands=2,
        )
    ]
    path = _write(tmp_path / "hands.jsonl", records)
    assert main(["review", str(path), "--hand", "1", "--seat", "w", "--worlds", "2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("W: ") and "as the expert" in text
    assert main(["review", str(path), "--hand", "1", "--seat", "W", "--worlds", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hand"] == 1 and data["seat"] == "W" and data["worlds"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hand", "7", "--seat", "E"], "no hand 7 in"),
        (["--seat", "E"], "holds 2 hands: choose one with --hand"),
        (["--hand", "0", "--seat", "X"], "no seat 'X'"),
        (["--hand", "0", "--seat", "E", "--worlds", "1"], "--worlds must be 2 or more"),
    ],
)
def test_the_command_says_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    records = [_record("madiao", 3), {**_record("madiao", 4), "hand": 1}]
    path = _write(tmp_path / "hands.jsonl", records)
    assert main(["review", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("paiju: error: ") and message in err, err


def test_the_command_refuses_a_file_that_is_not_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    assert main(["review", str(bad), "--seat", "E"]) == 2
    assert "line 1 of" in capsys.readouterr().err
    unfinished = _record("madiao", 5)
    unfinished["actions"] = unfinished["actions"][:4]
    path = _write(tmp_path / "short.jsonl", [unfinished])
    assert main(["review", str(path), "--seat", "E"]) == 2
    assert "not over" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "none.jsonl"), "--seat", "E"]) == 2
    assert "no such file" in capsys.readouterr().err
