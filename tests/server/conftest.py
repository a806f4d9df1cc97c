"""Databases for the server tests: a fresh SQLite file per test, and a PostgreSQL database
created for this test run (and dropped after it), so that runs never see each other's data."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from paiju.server.db import make_engine, make_sessions, migrate
from tests.server.security_servers import empty_database

PG_ADMIN = os.environ.get(
    "PAIJU_TEST_PG_ADMIN", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


@contextlib.contextmanager
def own_database(prefix: str = "paiju_test_", admin_url: str = PG_ADMIN) -> Iterator[str]:
    """A PostgreSQL database made for the caller on the server of ``admin_url``, dropped
    when it is done; its URL."""
    name = f"{prefix}{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL database of this run's own."""
    with own_database() as url:
        yield url


@pytest.fixture(scope="module")
def db(postgres_url: str) -> str:
    """The test database emptied once per module (the security tests' servers share it)."""
    empty_database(postgres_url)
    return postgres_url


@pytest.fixture(params=["sqlite", "postgresql"])
def sessions(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sessionmaker[Session]]:
    """A migrated, empty database of each kind."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'paiju.db'}")
        migrate(engine)
    else:
        url = request.getfixturevalue("postgres_url")
        engine = make_engine(url)
        migrate(engine)
        with engine.begin() as c:  # every test starts from empty tables
            c.execute(
                sa.text(
                    "TRUNCATE ledger, hand_actions, seats, hands, tables, tokens, accounts "
                    "RESTART IDENTITY CASCADE"
                )
            )
    yield make_sessions(engine)
    engine.dispose()
