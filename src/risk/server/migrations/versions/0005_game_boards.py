"""Boards given as JSON: a game on a board that is not shipped keeps the board, so it replays after a
restart (docs/boards.md, "Where a board is used").

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26

- boards: each board given as JSON, once (sha256: the digest of its canonical JSON; json: that JSON).
- games.board_sha256: the game's board when it is not shipped (NULL: the shipped board ``board`` names,
  as every game stored before).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "boards",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("json", sa.Text, nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        # No foreign key: SQLite would rebuild the games table for one, and dropping the old table
        # deletes its seats (ON DELETE CASCADE). The server writes the board before the game.
        batch.add_column(sa.Column("board_sha256", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("board_sha256")
    op.drop_table("boards")
