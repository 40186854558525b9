"""The first schema: games, their seats and their actions.

Revision ID: 0001
Revises:
Create Date: 2026-11-01

A migration is frozen once released: it spells its tables out rather than importing risk.server.sql,
whose tables describe the newest schema.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("board", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("settings", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
        sa.Column("created", sa.Double, nullable=False),
        sa.Column("updated", sa.Double, nullable=False),
        sa.Column("state_id", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("turn", sa.Integer, nullable=False),
    )
    op.create_index("games_updated", "games", ["updated"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.Text, nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("games_updated", table_name="games")
    op.drop_table("games")
