"""Notifications: the players' subscriptions and the durable outbox (docs/web.md, "Notifications").

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29

- notify_subscriptions: a seat's channel (e-mail: its address, the seat's token for the link in each
  message, how often at most), its failures in a row, paused after too many.
- outbox: each message waiting to go, keyed per event and subscription (at most one copy queued),
  claimed by one sender at a time, retried with backoff.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notify_subscriptions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("address", sa.Text, nullable=False),
        sa.Column("seat_token", sa.Text, nullable=False),
        sa.Column("site", sa.Text, nullable=False),
        sa.Column("every_s", sa.Double, nullable=False),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("last_sent", sa.Double, nullable=True),
        sa.Column("retry_at", sa.Double, nullable=True),
        sa.Column("created", sa.Double, nullable=False),
        sa.UniqueConstraint("game_id", "seat", "channel", name="notify_subscriptions_seat"),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column(
            "subscription_id",
            sa.String(64),
            sa.ForeignKey("notify_subscriptions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("due", sa.Double, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_until", sa.Double, nullable=True),
        sa.Column("created", sa.Double, nullable=False),
        sa.Column("sent_at", sa.Double, nullable=True),
    )
    op.create_index("outbox_due", "outbox", ["status", "due"])


def downgrade() -> None:
    op.drop_index("outbox_due", "outbox")
    op.drop_table("outbox")
    op.drop_table("notify_subscriptions")
