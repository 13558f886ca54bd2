"""Run Alembic migrations from code, so the server brings its schema up at start-up."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import text

from app.config import ROOT
from app.store.db import make_engine, normalise_url

# Any constant will do: it names the lock that serialises replicas migrating at once.
MIGRATION_LOCK = 7_242_001


def upgrade(database_url: str) -> None:
    """Bring the schema to head. Replicas starting together on PostgreSQL take an advisory
    lock first, so exactly one migrates and the others then find nothing to do."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", normalise_url(database_url).replace("%", "%%"))
    engine = make_engine(database_url)
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        engine.dispose()
