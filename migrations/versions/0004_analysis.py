"""analyses: built replay analyses, kept across processes and restarts

Revision ID: 0004_analysis
Revises: 0003_table
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_analysis"
down_revision = "0003_table"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column(
            "game_id",
            sa.String(16),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("built_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
