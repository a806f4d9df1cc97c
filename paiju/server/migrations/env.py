"""Alembic environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context

from paiju.server.models import Base

target_metadata = Base.metadata
connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through paiju.server.db.migrate(engine)")
context.configure(
    connection=connection,
    target_metadata=target_metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
