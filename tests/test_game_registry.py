"""The built-in games' registrations (issue 37): what each registry holds for Mazhan and Ma
Diao is what the name-keyed tables held before, and the rooms read as before."""

from __future__ import annotations

from paiju.bots.registry import bots_of, registered
from paiju.env.registry import spec_of
from paiju.games import names, registration

#: paiju's own games, in their order (pyproject.toml's entry points, each registration's order)
GAMES = ("mazhan", "madiao")


def test_the_built_in_games_register_in_order() -> None:
    assert names()[:2] == GAMES == ("mazhan", "madiao")
    assert registered()[:2] == GAMES
    assert [registration(n).unit for n in GAMES] == ["胡", "注"]
    assert registration("madiao").record_v1_setup == ("banker",)


def test_the_rooms_are_as_they_were() -> None:
    from paiju.server.rooms import LEVELS, ROOMS

    assert [r.to_json() for r in ROOMS.values()][:3] == [
        {"name": "mazhan", "game": "mazhan", "title": "馬站麻將 · 普通房", "min_balance": 800,
         "seats": 4, "escape_multiple": 400, "bots": True, "level": "normal"},
        {"name": "mazhan-vip", "game": "mazhan", "title": "馬站麻將 · VIP 房",
         "min_balance": 1_000_000, "seats": 4, "escape_multiple": 400, "bots": True,
         "level": "normal"},
        {"name": "madiao", "game": "madiao", "title": "馬吊 · 普通房", "min_balance": 800,
         "seats": 4, "escape_multiple": 40, "bots": True, "level": "normal"},
    ]  # fmt: skip
    assert {g: dict(LEVELS[g]) for g in GAMES} == {
        "mazhan": {"easy": "greedy", "normal": "strong", "hard": "expert@200ms"},
        "madiao": {"easy": "heuristic", "normal": "heuristic", "hard": "expert@200ms"},
    }


def test_the_bots_and_environments_are_as_they_were() -> None:
    from paiju.mazhan.env.lookahead import N_LOOKAHEAD
    from paiju.mazhan.env.obs import N_HINTS

    assert sorted(bots_of("mazhan").factories) == ["expert", "greedy", "random", "strong"]
    assert sorted(bots_of("madiao").factories) == ["expert", "heuristic", "random"]
    assert set(bots_of("mazhan").timed) == set(bots_of("madiao").timed) == {"expert"}
    mz, md = spec_of("mazhan"), spec_of("madiao")
    assert (mz.n_lookahead, mz.n_hints, mz.n_unseen) == (N_LOOKAHEAD, N_HINTS, 42)
    assert (md.n_lookahead, md.n_hints, md.n_unseen) == (0, 0, 40)
    assert (mz.default_opponent, md.default_opponent) == ("greedy", "heuristic")
    assert md.turn_legal is not None and md.apply_checked and not mz.apply_checked
    assert mz.potential is not None and md.potential is None
