"""clock: turn timers, seats on any device, leavers, adjourned games

Revision ID: 0006_clock
Revises: 0005_hard_a
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0006_clock"
down_revision = "0005_hard_a"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("rooms", sa.Column("clock", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("clock", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("deadline", TS, nullable=True))
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.add_column("games", sa.Column("left", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("active_at", TS, nullable=True))
    op.add_column("seats", sa.Column("transfer_hash", sa.String(64), nullable=True))
    op.add_column("seats", sa.Column("transfer_expires", TS, nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "transfer_expires")
    op.drop_column("seats", "transfer_hash")
    op.drop_column("games", "active_at")
    op.drop_column("games", "left")
    op.drop_index("ix_games_deadline", "games")
    op.drop_column("games", "deadline")
    op.drop_column("games", "clock")
    op.drop_column("rooms", "clock")
