"""The online table server (the table rules, §10): accounts, the ledger, rooms, clocks.

Storage goes through SQLAlchemy with Alembic migrations: an embedded SQLite file by default,
PostgreSQL when ``PAIJU_DATABASE_URL`` is set. Money moves only through
:mod:`paiju.server.ledger`, one transaction per event, so the books always balance.
"""
