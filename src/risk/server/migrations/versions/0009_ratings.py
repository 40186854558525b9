"""Ratings: each account's rating per game family and pace, every change, and the games rated (docs/web.md,
"Ratings").

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    account = sa.ForeignKey("accounts.id", ondelete="CASCADE")
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), account, primary_key=True),
        sa.Column("family", sa.String(32), primary_key=True),
        sa.Column("pace", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Double, nullable=False),
    )
    op.create_index("ratings_board", "ratings", ["family", "pace"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("pace", sa.String(8), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("damping", sa.Double, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
    )
    op.create_index("rating_history_account", "rating_history", ["account_id", "at"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("pace", sa.String(8), nullable=False),
        sa.Column("accounts", sa.Text, nullable=False),
        sa.Column("outcome", sa.Text, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
    )
    op.create_index("rated_games_accounts", "rated_games", ["accounts", "at"])


def downgrade() -> None:
    op.drop_index("rated_games_accounts", "rated_games")
    op.drop_table("rated_games")
    op.drop_index("rating_history_account", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ratings_board", "ratings")
    op.drop_table("ratings")
