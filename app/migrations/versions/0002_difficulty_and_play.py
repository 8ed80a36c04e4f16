"""Difficulty grades, players' attempts and last access on every stored puzzle.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzles") as batch:
        batch.add_column(sa.Column("difficulty", sa.JSON, nullable=True))
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("solves", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("first_tries", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("first_try_solves", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_puzzles_created", "puzzles", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_puzzles_created", "puzzles")
    with op.batch_alter_table("puzzles") as batch:
        for column in ("fetched_at", "first_try_solves", "first_tries", "solves", "attempts", "difficulty"):
            batch.drop_column(column)
