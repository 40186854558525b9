"""Clocks for long games (issue 38): what is left of each seat's time bank and vacation allowance, and
its vacation under way (risk.server.timing.SeatClock), kept with the seat so a restart keeps them.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29

- seats.clock: JSON, NULL for a seat whose allowances are untouched (the game's time bank and
  vacation days, no vacation taken).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("clock", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("clock")
