"""Fair play: the browser that took each seat, blocks between accounts, the chat a seat muted, chat
lines reported to a game's host, and the host's bans (docs/web.md, "Fair play").

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A column added, not the table rebuilt: SQLite's rebuild would drop and cascade.
    op.add_column("seats", sa.Column("browser_hash", sa.String(64), nullable=True))
    op.create_table(
        "account_blocks",
        sa.Column(
            "blocker_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column(
            "blocked_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("at", sa.Double, nullable=False),
    )
    op.create_index("account_blocks_blocked", "account_blocks", ["blocked_id"])
    op.create_table(
        "chat_mutes",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("muted_seat", sa.Integer, primary_key=True),
    )
    op.create_table(
        "chat_reports",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("chat_seq", sa.Integer, primary_key=True),
        sa.Column("reporter_seat", sa.Integer, primary_key=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
    )
    op.create_table(
        "game_bans",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
        ),
        sa.Column("browser_hash", sa.String(64), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
    )
    op.create_index("game_bans_game", "game_bans", ["game_id"])


def downgrade() -> None:
    op.drop_index("game_bans_game", "game_bans")
    op.drop_table("game_bans")
    op.drop_table("chat_reports")
    op.drop_table("chat_mutes")
    op.drop_index("account_blocks_blocked", "account_blocks")
    op.drop_table("account_blocks")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("browser_hash")
