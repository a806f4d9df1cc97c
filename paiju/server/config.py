"""Server settings, read from ``PAIJU_*`` environment variables (pydantic-settings).

| variable | meaning | default |
|---|---|---|
| ``PAIJU_DATABASE_URL`` | SQLAlchemy URL of the database | SQLite file in the data folder |
| ``PAIJU_DATA_DIR`` | the data folder | ``./data`` |
| ``PAIJU_START_BALANCE`` | points a new account starts with | 10000 |
| ``PAIJU_TURN_SECONDS`` | the turn clock (§10) | 15 |
| ``PAIJU_READY_SECONDS`` | the ready clock: unconfirmed people are unseated, free | 20 |
| ``PAIJU_BOT_WAIT`` | seconds before bots fill empty seats | 10 |
| ``PAIJU_BOT_DELAY`` | a bot's (or 托管's) mean think time, seconds | 0.3 |
| ``PAIJU_DISCONNECT_SECONDS`` | how long a player may stay away from a live hand | 180 |
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
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings"]


class Settings(BaseSettings):
    """The settings of one server process (immutable).

    >>> Settings.from_env({}).database_url.startswith("sqlite:///")
    True
    """

    model_config = SettingsConfigDict(env_prefix="PAIJU_", frozen=True, extra="ignore")

    database_url: str = ""
    data_dir: Path = Path("data")
    start_balance: int = Field(10_000, ge=0)
    turn_seconds: float = Field(15.0, gt=0)
    ready_seconds: float = Field(20.0, gt=0)
    bot_wait: float = Field(10.0, ge=0)
    bot_delay: float = Field(0.3, ge=0)
    disconnect_seconds: float = Field(180.0, gt=0)
    seed: int | None = None
    redis_url: str | None = None
    redis_prefix: str = "paiju"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @model_validator(mode="before")
    @classmethod
    def _normalise(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if v != ""}  # an empty variable is unset
            level = data.get("log_level")
            if isinstance(level, str):
                data["log_level"] = level.upper()
        return data

    @model_validator(mode="after")
    def _default_database(self) -> Settings:
        if not self.database_url:
            object.__setattr__(self, "database_url", f"sqlite:///{self.data_dir / 'paiju.db'}")
        return self

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from ``env`` (``os.environ`` by default).

        >>> Settings.from_env({"PAIJU_START_BALANCE": "lots"})
        Traceback (most recent call last):
        ...
        ValueError: PAIJU_START_BALANCE: Input should be a valid integer, unable to parse ...

        Raises ``ValueError`` naming the variable for a value that does not parse.
        """
        source = os.environ if env is None else env
        values = {
            k[len("PAIJU_") :].lower(): v for k, v in source.items() if k.startswith("PAIJU_")
        }
        known = {k: v for k, v in values.items() if k in Settings.model_fields}
        try:
            return Settings.model_validate(known)
        except ValidationError as err:
            first = err.errors()[0]
            name = "PAIJU_" + str(first["loc"][0]).upper() if first["loc"] else "PAIJU_*"
            raise ValueError(f"{name}: {first['msg']}") from None
