"""The puzzles table: stored, daily and pre-generated (pooled) puzzles.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("params", sa.JSON, nullable=False),
        sa.Column("puzzle", sa.JSON, nullable=False),
        sa.Column("solution", sa.JSON, nullable=False),
        sa.Column("stats", sa.JSON, nullable=False),
        sa.Column("daily_key", sa.String(200), nullable=True, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pool_key", sa.String(300), nullable=True),
        sa.Column("served_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_puzzles_type", "puzzles", ["type"])
    op.create_index("ix_puzzles_pool", "puzzles", ["pool_key", "served_at"])


def downgrade() -> None:
    op.drop_index("ix_puzzles_pool", "puzzles")
    op.drop_index("ix_puzzles_type", "puzzles")
    op.drop_table("puzzles")
