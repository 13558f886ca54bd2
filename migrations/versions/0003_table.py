"""table: hosts, open tables, rematches, computer-controlled seats, who wrote an action

Revision ID: 0003_table
Revises: 0002
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_table"
down_revision = "0002"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("host_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("host_away_since", TS, nullable=True))
        batch.add_column(
            sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("rematch", sa.JSON(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("host", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("level", sa.String(8), nullable=True))
        batch.add_column(sa.Column("reason", sa.String(16), nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("by", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("by")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("reason")
        batch.drop_column("level")
        batch.drop_column("host")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rematch")
        batch.drop_column("listed")
        batch.drop_column("host_away_since")
        batch.drop_column("host_hash")
