"""Helpers that build valid §11 inputs: fill the seats a test does not care about, and
random finished hands for property tests."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from paiju.mazhan.seats import SEATS
from paiju.mazhan.tiles import (
    ALL_TILES,
    BONUS_TILES,
    PLAYABLE_FACES,
    Tile,
    format_tiles,
    parse_tiles,
)


def seat(concealed: str, melds: list[str] | None = None, bonus: str = "") -> dict[str, Any]:
    return {"concealed": concealed, "melds": melds or [], "bonus": bonus}


def _full_pool(wild: Tile) -> Counter[Tile]:
    pool: Counter[Tile] = Counter()
    for t in PLAYABLE_FACES:
        pool[t] = 3 if t == wild else 4
    for t in BONUS_TILES:
        pool[t] = 4 if str(t) == "5z" else 1
    return pool


def _used(players: dict[str, Any]) -> Counter[Tile]:
    used: Counter[Tile] = Counter()
    for p in players.values():
        used.update(parse_tiles(p.get("concealed", "")))
        used.update(parse_tiles(p.get("bonus", "")))
        for m in p.get("melds", []):
            used.update(parse_tiles(m.split(" ")[1]))
    return used


def fill(hand: dict[str, Any]) -> dict[str, Any]:
    """Give every seat missing from ``hand["players"]`` 16 dull tiles: no ★, no bonus tile,
    at most two of a face (so its value is 0)."""
    wild = Tile.parse(hand["wild"])
    players = dict(hand["players"])
    pool = _full_pool(wild) - _used(players)
    faces = [t for t in PLAYABLE_FACES if t != wild]
    for s in SEATS:
        if s.value in players:
            continue
        tiles: list[Tile] = []
        for t in faces:
            for _ in range(2):
                if len(tiles) < 16 and pool[t] > 0 and tiles.count(t) < 2:
                    pool[t] -= 1
                    tiles.append(t)
            if len(tiles) == 16:
                break
        # spread: skip ahead so the next seat does not take the same faces first
        faces = faces[8:] + faces[:8]
        players[s.value] = seat(format_tiles(tiles))
    return {**hand, "players": players}


def random_finished_hand(rng: random.Random) -> dict[str, Any]:
    """A random valid §11 input: a winner (or a draw) with a complete hand, the others
    random. Retries internally until the random choices fit the 144 tiles."""
    while True:
        hand = _try_random_hand(rng)
        if hand is not None:
            return hand


def _try_random_hand(rng: random.Random) -> dict[str, Any] | None:
    wild = rng.choice(PLAYABLE_FACES)
    pool = _full_pool(wild)
    naturals = [t for t in PLAYABLE_FACES if t != wild]

    def take(tiles: list[Tile]) -> bool:
        need = Counter(tiles)
        if any(pool[t] < n for t, n in need.items()):
            return False
        pool.subtract(need)
        return True

    def random_set(chow_ok: bool = True) -> list[Tile] | None:
        for _ in range(20):
            if chow_ok and rng.random() < 0.5:
                start = rng.choice([t for t in naturals if t.is_suited and t.rank <= 7])
                tiles = [ALL_TILES[start.index + k] for k in range(3)]
                if wild in tiles:
                    continue
            else:
                tiles = [rng.choice(naturals)] * 3
            if take(tiles):
                return tiles
        return None

    winner = rng.choice([None, *SEATS, *SEATS, *SEATS])
    players: dict[str, Any] = {}
    extra: dict[str, Any] = {"winner": None if winner is None else winner.value}
    for s in SEATS:
        melds: list[str] = []
        concealed: list[Tile] = []
        n_melds = rng.choice([0, 0, 1, 1, 2, 3, 4])
        for _ in range(n_melds):
            tiles = random_set()
            if tiles is None:
                return None
            if len(set(tiles)) == 1 and rng.random() < 0.3 and pool[tiles[0]] > 0:
                pool[tiles[0]] -= 1
                kind = rng.choice(["kong", "ckong"])
                tiles = [*tiles, tiles[0]]
            else:
                kind = "chow" if len(set(tiles)) == 3 else "pung"
            melds.append(f"{kind} {format_tiles(tiles)}")
        if s is winner:
            for _ in range(5 - n_melds):
                tiles = random_set()
                if tiles is None:
                    return None
                concealed += tiles
            pair = [rng.choice(naturals)] * 2
            if not take(pair):
                return None
            concealed += pair
            for _ in range(rng.choice([0, 0, 1, 2, 3])):
                if pool[wild] == 0:
                    break
                i = rng.randrange(len(concealed))
                if concealed[i] == wild:
                    continue
                pool[concealed[i]] += 1
                pool[wild] -= 1
                concealed[i] = wild
        else:
            while len(concealed) + 3 * n_melds < 16:
                t = rng.choice([*naturals, wild])
                if pool[t] > 0:
                    pool[t] -= 1
                    concealed.append(t)
        bonus = []
        for _ in range(rng.choice([0, 0, 1, 2])):
            b = rng.choice(BONUS_TILES)
            if pool[b] > 0:
                pool[b] -= 1
                bonus.append(b)
        rng.shuffle(concealed)
        players[s.value] = seat("".join(str(t) for t in concealed), melds, format_tiles(bonus))
        if s is winner:
            extra.update(_random_win(rng, s.value, concealed, melds, wild))
    # 天胡/地胡 only where the seats allow them (§7): no meld anywhere but the dealer's
    # concealed kongs before 天胡
    if extra.get("dihu") and any(p["melds"] for p in players.values()):
        extra["dihu"] = False
    if extra.get("tianhu") and any(
        not m.startswith("ckong") or s != "E" for s, p in players.items() for m in p["melds"]
    ):
        extra["tianhu"] = False
    return {"wild": str(wild), **extra, "players": players}


def _random_win(
    rng: random.Random, winner: str, concealed: list[Tile], melds: list[str], wild: Tile
) -> dict[str, Any]:
    stars = concealed.count(wild)
    others = [s.value for s in SEATS if s.value != winner]
    options = ["self_draw", "discard", "discard"]
    if any(m.startswith(("kong", "ckong")) for m in melds):
        options.append("kong_replacement")
    if stars == 3:
        options.append("sha_zhu")
    win_by = rng.choice(options)
    out: dict[str, Any] = {"win_by": win_by, "discarder": None, "tianhu": False, "dihu": False}
    if win_by == "sha_zhu":
        return out
    candidates = [t for t in concealed if win_by != "discard" or t != wild]
    if not candidates:
        out["win_by"] = win_by = "self_draw"
        candidates = concealed
    out["win_tile"] = str(rng.choice(candidates))
    if win_by == "discard":
        out["discarder"] = rng.choice(others)
        if winner != "E" and out["discarder"] == "E" and rng.random() < 0.1:
            out["dihu"] = True
    elif winner == "E" and win_by == "self_draw" and rng.random() < 0.05:
        out["tianhu"] = True
    return out
