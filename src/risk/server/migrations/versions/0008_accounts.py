"""Accounts: optional player accounts, their sign-in sessions and the failed sign-ins the lockout
counts (docs/web.md, "Accounts"); password resets asked for by e-mail; a seat bound to an account
(seats.account_id).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("name_key", sa.Text, nullable=False, unique=True),
        sa.Column("password", sa.Text, nullable=False),
        sa.Column("email", sa.Text, nullable=True),
        sa.Column("site", sa.Text, nullable=True),
        sa.Column("created", sa.Double, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Double, nullable=False),
        sa.Column("seen", sa.Double, nullable=False),
    )
    op.create_index("account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name_key", sa.Text, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
    )
    op.create_index("sign_in_failures_key", "sign_in_failures", ["name_key", "at"])
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created", sa.Double, nullable=False),
    )
    op.create_index("password_resets_account", "password_resets", ["account_id"])
    op.add_column("seats", sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index("seats_account", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("seats_account", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    op.drop_index("password_resets_account", "password_resets")
    op.drop_table("password_resets")
    op.drop_index("sign_in_failures_key", "sign_in_failures")
    op.drop_table("sign_in_failures")
    op.drop_index("account_sessions_account", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
