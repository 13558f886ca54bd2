"""chat: the lines said in each room, for the welcome of a page that comes back

Revision ID: 0007_chat
Revises: 0006_clock
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0007_chat"
down_revision = "0006_clock"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "room_code",
            sa.String(16),
            sa.ForeignKey("rooms.code", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_lines_room_code", "chat_lines", ["room_code"])


def downgrade() -> None:
    op.drop_index("ix_chat_lines_room_code", "chat_lines")
    op.drop_table("chat_lines")
