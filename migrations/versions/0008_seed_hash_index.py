"""seed_hash index: an uploaded record is found among the stored games by its seed's hash

Revision ID: 0008_seed_hash_index
Revises: 0007_chat
Create Date: 2026-11-29
"""
from alembic import op

revision = "0008_seed_hash_index"
down_revision = "0007_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_seed_hash", "games", ["seed_hash"])


def downgrade() -> None:
    op.drop_index("ix_games_seed_hash", "games")
