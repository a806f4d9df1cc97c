"""Server settings, read from ``PAIJU_*`` environment variables (pydantic-settings).

| variable | meaning | default |
|---|---|---|
| ``PAIJU_DATABASE_URL`` | SQLAlchemy URL of the database | SQLite file in the data folder |
| ``PAIJU_DATA_DIR`` | the data folder | ``./data`` |
| ``PAIJU_START_BALANCE`` | points a new account starts with | 10000 |
| ``PAIJU_TURN_SECONDS`` | the turn clock (§10) | 15 |
| ``PAIJU_READY_SECONDS`` | the ready clock: unconfirmed people are unseated, free | 20 |
| ``PAIJU_READING_SECONDS`` | how long the ready clock waits for a page to show a settlement | 30 |
| ``PAIJU_WATCHERS_PER_TABLE`` | spectators one table takes at most | 8 |
| ``PAIJU_BOT_WAIT`` | seconds before bots fill empty seats | 10 |
| ``PAIJU_BOT_DELAY`` | a bot's think scale: its turn's median 0.3–1.6 × it by how hard | 1.0 |
| ``PAIJU_DISCONNECT_SECONDS`` | how long a player may stay away from a live hand | 180 |
| ``PAIJU_COMMIT_DELAY`` | seconds a lone write waits for others to share its commit | 0.003 |
| ``PAIJU_CLAIM_PAUSE`` | the pause after a discard for the seats that cannot claim (§5) | 1.0 |
| ``PAIJU_STORAGE_STALL_SECONDS`` | a write waiting longer pauses its table (``degraded``) | 2.0 |
| ``PAIJU_STORAGE_TIMEOUT_SECONDS`` | a connect or statement waiting longer is given up | 10 |
| ``PAIJU_REDIS_URL`` | Redis: many processes form one world (docs/deploy.md) | — |
| ``PAIJU_REDIS_PREFIX`` | the prefix of every Redis key and channel | paiju |
| ``PAIJU_SEED`` | deal the hands from this seed (tests, demos); unset: unpredictable | — |
| ``PAIJU_LOG_LEVEL`` | the server's log level (DEBUG, INFO, WARNING, ERROR) | INFO |
| ``PAIJU_LOG_FORMAT`` | ``text``, or ``json``: one JSON object a line, with its fields | text |
| ``PAIJU_SESSION_DAYS`` | a session ends after this many days unused (sliding) | 30 |
| ``PAIJU_SESSIONS_PER_ACCOUNT`` | the most sessions an account keeps (the oldest ends) | 20 |
| ``PAIJU_SESSION_RECHECK_SECONDS`` | seconds between checks of the open sockets' sessions | 60 |
| ``PAIJU_SECURE_COOKIES`` | always serve the cookie as if over https (``__Host-``) | false |
| ``PAIJU_ALLOWED_ORIGINS`` | origins a browser may use the API from (comma-separated) | its own |
| ``PAIJU_LOGIN_LIMITS_ACCOUNT`` | failed logins per name (``limits``) | 5/minute;20/hour;100/day |
| ``PAIJU_LOGIN_LIMITS_ADDRESS`` | failed logins per client address | 20/minute;200/hour;1000/day |
| ``PAIJU_REGISTER_LIMITS_ADDRESS`` | new accounts per client address | 20/minute;200/day |
| ``PAIJU_HASH_CONCURRENCY`` | password hashes computed at once | 2 |
| ``PAIJU_HASH_QUEUE`` | password hashes waiting, beyond which ``busy`` (503) | 16 |
| ``PAIJU_WS_MAX_BYTES`` | the longest WebSocket message read (longer: ``too_large``) | 4096 |
| ``PAIJU_WS_RATE`` | messages per second a socket may send, on average | 10 |
| ``PAIJU_WS_BURST`` | messages a socket may send at once | 30 |
| ``PAIJU_WS_SOCKETS_PER_ACCOUNT`` | open sockets of one account on one process | 4 |
| ``PAIJU_METRICS_TOKEN`` | ``/metrics`` on the app's port, to a bearer of this token | off |
| ``PAIJU_METRICS_ADDRESS`` | ``host:port`` of a listener serving only ``/metrics`` | off |
| ``PAIJU_DRAIN_SECONDS`` | on SIGTERM, how long live hands play on (+5 s for one just ended) | 60 |
| ``PAIJU_ADMIN_POLL_SECONDS`` | how often a process applies suspensions and closings | 5 |
| ``PAIJU_RELIEF_AMOUNT`` | the most points one relief claim gives (0: no relief) | 800 |
| ``PAIJU_RELIEF_PER_DAY`` | relief claims a day, below the lowest room's minimum (0: none) | 1 |
| ``PAIJU_RELIEF_UTC_OFFSET`` | hours from UTC at which the relief's day turns at midnight | 8 |
| ``PAIJU_REVIEW_WORLDS`` | worlds per differing decision of a hand review (2–256) | 16 |

The security settings are explained in docs/security.md; the operator's in docs/operate.md.

>>> Settings.from_env({"PAIJU_TURN_SECONDS": "3"}).turn_seconds
3.0
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

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
    reading_seconds: float = Field(30.0, ge=0)
    watchers_per_table: int = Field(8, ge=0, le=1000)
    bot_wait: float = Field(10.0, ge=0)
    bot_delay: float = Field(1.0, ge=0)
    disconnect_seconds: float = Field(180.0, gt=0)
    commit_delay: float = Field(0.003, ge=0, le=1)
    claim_pause: float = Field(1.0, ge=0, le=10)
    storage_stall_seconds: float = Field(2.0, gt=0)
    storage_timeout_seconds: float = Field(10.0, gt=0)
    seed: int | None = None
    redis_url: str | None = None
    redis_prefix: str = "paiju"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["text", "json"] = "text"
    # sessions, origins, throttling, sockets (docs/security.md)
    session_days: float = Field(30.0, gt=0)
    sessions_per_account: int = Field(20, ge=1)
    session_recheck_seconds: float = Field(60.0, gt=0)
    secure_cookies: bool = False
    allowed_origins: Annotated[tuple[str, ...], NoDecode] = ()  # "a, b": see _normalise
    login_limits_account: str = "5/minute;20/hour;100/day"
    login_limits_address: str = "20/minute;200/hour;1000/day"
    register_limits_address: str = "20/minute;200/day"
    #: hands scored by ``POST /api/score`` per address (no account needed; a hand may cost
    #: up to about 0.1 s of CPU, so a generous human pace and no more)
    score_limits_address: str = "30/minute;300/hour"
    #: invitations looked up by ``GET /api/invite/{code}`` per address (no account needed: a
    #: friend opens the link before logging in; a code is 2^40 to guess)
    invite_limits_address: str = "30/minute;300/hour"
    hash_concurrency: int = Field(2, ge=1)
    hash_queue: int = Field(16, ge=0)
    ws_max_bytes: int = Field(4096, ge=256, le=1_048_576)
    ws_rate: float = Field(10.0, gt=0)
    ws_burst: int = Field(30, ge=1)
    ws_sockets_per_account: int = Field(4, ge=1)
    # operating (docs/operate.md)
    metrics_token: str | None = Field(None, min_length=16)
    metrics_address: str | None = Field(None, pattern=r"^[^:\s]*:[0-9]{1,5}$")
    admin_poll_seconds: float = Field(5.0, gt=0)
    drain_seconds: float = Field(60.0, ge=0, le=86_400)
    relief_amount: int = Field(800, ge=0, le=10**9)
    relief_per_day: int = Field(1, ge=0, le=100)
    relief_utc_offset: float = Field(8.0, ge=-12, le=14)
    #: ``GET /api/hands/{id}/review``: worlds per decision that differs (its error shrinks
    #: as 1/√worlds and its time grows as worlds; tests use 2)
    review_worlds: int = Field(16, ge=2, le=256)

    @model_validator(mode="before")
    @classmethod
    def _normalise(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if v != ""}  # an empty variable is unset
            level = data.get("log_level")
            if isinstance(level, str):
                data["log_level"] = level.upper()
            origins = data.get("allowed_origins")
            if isinstance(origins, str):  # "https://a.example, https://b.example"
                data["allowed_origins"] = tuple(o.strip() for o in origins.split(",") if o.strip())
        return data

    @field_validator("allowed_origins")
    @classmethod
    def _origins(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        out = []
        for origin in value:
            o = origin.strip().rstrip("/").lower()
            scheme, sep, host = o.partition("://")
            if scheme not in ("http", "https") or not sep or not host or "/" in host:
                raise ValueError(f"an origin is scheme://host[:port], not {origin[:80]!r}")
            out.append(o)
        return tuple(out)

    @field_validator(
        "login_limits_account",
        "login_limits_address",
        "register_limits_address",
        "score_limits_address",
        "invite_limits_address",
    )
    @classmethod
    def _limits(cls, value: str) -> str:
        from limits import parse_many

        try:
            parse_many(value)
        except ValueError:
            raise ValueError(
                f"not a list of limits like '5/minute;20/hour': {value[:80]!r}"
            ) from None
        return value

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
