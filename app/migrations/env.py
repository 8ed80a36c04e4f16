"""Alembic environment: the connection comes from PuzzleStore (or `alembic -x url=...` on the command line)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from app.store import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    with create_engine(url).connect() as conn:
        context.configure(connection=conn, target_metadata=Base.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
