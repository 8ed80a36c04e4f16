"""Ratings from play: a Glicko-2 rating on every puzzle, players' ratings per type, and one game row per
player and puzzle.

Puzzles stored before this revision get their prior from their grade when a store opens
(``PuzzleStore.place_unrated``), since the prior sets a score against the stored puzzles of its level.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzles") as batch:
        batch.add_column(sa.Column("rating", sa.Float, nullable=True))
        batch.add_column(sa.Column("rd", sa.Float, nullable=True))
        batch.add_column(sa.Column("volatility", sa.Float, nullable=True))
        batch.add_column(sa.Column("games", sa.Integer, nullable=False, server_default="0"))
    op.create_index("ix_puzzles_type_rating", "puzzles", ["type", "rating"])
    op.create_table(
        "games",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("hints", sa.Integer, nullable=False, server_default="0"),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("solved", sa.Boolean, nullable=True),
        sa.Column("seconds", sa.Float, nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        *(sa.Column(f"{side}_{what}", kind, nullable=True)
          for side in ("player", "puzzle")
          for what, kind in (("games", sa.Integer), ("rating", sa.Float), ("rd", sa.Float), ("volatility", sa.Float))),
    )
    op.create_index("ix_games_puzzle_id", "games", ["puzzle_id"])
    op.create_table(
        "player_ratings",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("type", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_ratings")
    op.drop_index("ix_games_puzzle_id", "games")
    op.drop_table("games")
    op.drop_index("ix_puzzles_type_rating", "puzzles")
    with op.batch_alter_table("puzzles") as batch:
        for column in ("games", "volatility", "rd", "rating"):
            batch.drop_column(column)
