"""A human seat's own settings: how its defence dice are chosen, the bots' pace it watches at, its
standing setup orders (risk.server.seatprefs), kept with the seat so a closed page still defends.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28

- seats.prefs: JSON, NULL for the defaults (always the most defence dice, the game's pace, no orders).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("prefs", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("prefs")
