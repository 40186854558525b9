"""Who is to act, on each game's row: a starting server reads it instead of replaying every game.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26

- games.to_act: the seat to act, kept with every action (NULL: the game is over, or was last played
  by a release that did not keep it: such a game is loaded in the background when the server starts).
- games.defending: the seat to act is choosing its defence dice (the defender's own clock runs).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("to_act", sa.Integer, nullable=True))
        batch.add_column(sa.Column("defending", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("defending")
        batch.drop_column("to_act")
