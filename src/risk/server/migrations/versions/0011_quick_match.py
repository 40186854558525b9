"""Quick match: the players waiting in each queue, and the game and seat each was matched to
(docs/web.md, "Quick match").

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "quick_match",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("pace", sa.String(8), nullable=False),
        sa.Column("queued", sa.Double, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("game_id", sa.String(64)),
        sa.Column("seat", sa.Integer),
        sa.Column("token", sa.Text),
        sa.Column("updated", sa.Double, nullable=False),
    )
    op.create_index("quick_match_queue", "quick_match", ["status", "game", "players", "pace"])
    op.create_index("quick_match_account", "quick_match", ["account_id", "updated"])
    op.create_index("quick_match_game", "quick_match", ["game_id"])
    op.create_index(
        "quick_match_one_wait",
        "quick_match",
        ["account_id", "game", "players", "pace"],
        unique=True,
        sqlite_where=sa.text("status = 'waiting'"),
        postgresql_where=sa.text("status = 'waiting'"),
    )


def downgrade() -> None:
    for index in ("quick_match_one_wait", "quick_match_game", "quick_match_account", "quick_match_queue"):
        op.drop_index(index, "quick_match")
    op.drop_table("quick_match")
