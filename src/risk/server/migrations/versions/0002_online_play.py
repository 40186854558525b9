"""Online play: the turn clock, stand-in bots, the host, chat and saved house rules.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24

- games.deadline / games.deadline_state: when the clock of the state ``deadline_state`` runs out
  (seconds since the epoch), so the clock survives a restart.
- games.host_hash: sha256 of the host's token (the player who created the game).
- seats.stand_in: the bot playing for a human who is away (the human keeps their token to come back);
  seats.missed: the turns in a row the clock ran out on this seat.
- chat: a game's messages, in order, per channel ("all", or "team" with the team's number).
- rulesets: house rules saved under a name (edition, game, options), shared by link.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deadline", sa.Double, nullable=True))
        batch.add_column(sa.Column("deadline_state", sa.Integer, nullable=True))
        batch.add_column(sa.Column("host_hash", sa.String(64), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("stand_in", sa.Text, nullable=True))
        batch.add_column(sa.Column("missed", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "chat",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("team", sa.Integer, nullable=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
    )
    op.create_table(
        "rulesets",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("settings", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
        sa.Column("created", sa.Double, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rulesets")
    op.drop_table("chat")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("missed")
        batch.drop_column("stand_in")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("host_hash")
        batch.drop_column("deadline_state")
        batch.drop_column("deadline")
