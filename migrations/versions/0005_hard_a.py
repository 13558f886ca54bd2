"""hard-a: repair player names stored before the one name rule (issue 17)

Imports used to check a name's length only after trimming and let lone surrogates
through: such a row made every list that held it answer 500, and a name of two million
spaces made the lobby's list megabytes long. Each such name is repaired in place (the
game and its log are kept): lone surrogates become U+FFFD, control and format characters
go, the name is trimmed and cut to 32 characters, and an empty one becomes "?".

Revision ID: 0005_hard_a
Revises: 0004_analysis
Create Date: 2026-11-26
"""
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0005_hard_a"
down_revision = "0004_analysis"
branch_labels = None
depends_on = None

MAX_NAME = 32
REMOVED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}

games = sa.table("games", sa.column("id", sa.String), sa.column("players", sa.JSON))


def repaired(name: object) -> str:
    text = name if isinstance(name, str) else str(name)
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    text = "".join(ch for ch in text if unicodedata.category(ch) not in REMOVED)
    return text.strip()[:MAX_NAME].strip() or "?"


def upgrade() -> None:
    bind = op.get_bind()
    fixes = []
    for game_id, players in bind.execute(sa.select(games.c.id, games.c.players)):
        if not isinstance(players, list):
            continue
        fixed = [repaired(p) for p in players]
        if fixed != players:
            fixes.append((game_id, fixed))
    for game_id, fixed in fixes:
        bind.execute(sa.update(games).where(games.c.id == game_id).values(players=fixed))


def downgrade() -> None:
    pass  # the names' old spellings are not kept: there is nothing to go back to
