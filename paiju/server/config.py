"""Server settings, from the environment.

| variable | meaning | default |
|---|---|---|
| ``PAIJU_DATABASE_URL`` | SQLAlchemy URL of the database | SQLite file in the data folder |
| ``PAIJU_DATA_DIR`` | the data folder | ``./data`` |
| ``PAIJU_START_BALANCE`` | points a new account starts with | 10000 |
| ``PAIJU_TURN_SECONDS`` | the turn clock | 15 |
| ``PAIJU_BOT_WAIT`` | seconds before bots fill empty seats | 10 |
| ``PAIJU_BOT_DELAY`` | seconds a bot (or 托管) waits before it plays | 0.3 |
| ``PAIJU_DISCONNECT_SECONDS`` | how long a player may stay away from a live hand | 180 |
| ``PAIJU_NEXT_HAND_SECONDS`` | the pause between two hands | 3 |
| ``PAIJU_REDIS_URL`` | Redis: many processes form one world (docs/deploy.md) | — |
| ``PAIJU_REDIS_PREFIX`` | the prefix of every Redis key and channel | paiju |
| ``PAIJU_SEED`` | deal the hands from this seed (tests, demos); unset: unpredictable | — |
| ``PAIJU_LOG_LEVEL`` | the server's log level (DEBUG, INFO, WARNING, ERROR) | INFO |

>>> Settings.from_env({"PAIJU_TURN_SECONDS": "3"}).turn_seconds
3.0
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Settings"]


@dataclass(frozen=True, slots=True)
class Settings:
    """The settings of one server process.

    >>> Settings.from_env({}).database_url.startswith("sqlite:///")
    True
    """

    database_url: str
    data_dir: Path
    start_balance: int = 10_000
    turn_seconds: float = 15.0
    bot_wait: float = 10.0
    bot_delay: float = 0.3
    disconnect_seconds: float = 180.0
    next_hand_seconds: float = 3.0
    seed: int | None = None
    redis_url: str | None = None
    redis_prefix: str = "paiju"
    log_level: str = "INFO"

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings (``os.environ`` by default).

        >>> Settings.from_env({"PAIJU_START_BALANCE": "lots"})
        Traceback (most recent call last):
        ...
        ValueError: PAIJU_START_BALANCE must be a whole number, got 'lots'
        """
        e = os.environ if env is None else env
        data_dir = Path(e.get("PAIJU_DATA_DIR", "data"))
        url = e.get("PAIJU_DATABASE_URL") or f"sqlite:///{data_dir / 'paiju.db'}"
        return Settings(
            database_url=url,
            data_dir=data_dir,
            start_balance=_int(e, "PAIJU_START_BALANCE", 10_000),
            turn_seconds=_float(e, "PAIJU_TURN_SECONDS", 15.0),
            bot_wait=_float(e, "PAIJU_BOT_WAIT", 10.0),
            bot_delay=_float(e, "PAIJU_BOT_DELAY", 0.3, zero=True),
            disconnect_seconds=_float(e, "PAIJU_DISCONNECT_SECONDS", 180.0),
            next_hand_seconds=_float(e, "PAIJU_NEXT_HAND_SECONDS", 3.0, zero=True),
            seed=_int(e, "PAIJU_SEED", 0) if e.get("PAIJU_SEED") else None,
            redis_url=e.get("PAIJU_REDIS_URL") or None,
            redis_prefix=e.get("PAIJU_REDIS_PREFIX") or "paiju",
            log_level=_level(e),
        )


def _int(e: Mapping[str, str], name: str, default: int) -> int:
    raw = e.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, got {raw!r}") from None


def _float(e: Mapping[str, str], name: str, default: float, zero: bool = False) -> float:
    raw = e.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, got {raw!r}") from None
    if value < 0 or (value == 0 and not zero):
        raise ValueError(f"{name} must be positive, got {raw!r}")
    return value


def _level(e: Mapping[str, str]) -> str:
    raw = (e.get("PAIJU_LOG_LEVEL") or "INFO").upper()
    if raw not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ValueError(f"PAIJU_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {raw!r}")
    return raw
