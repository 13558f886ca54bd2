"""Run Alembic migrations from code, so the server brings its schema up at start-up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, text

from app.config import ROOT
from app.store.db import make_engine, normalise_url

# Any constant will do: it names the lock that serialises replicas migrating at once.
MIGRATION_LOCK = 7_242_001


class ForeignKeyViolation(RuntimeError):
    """A migration left rows whose foreign keys point at nothing (SQLite): the migration
    is rolled back rather than leave the schema half-changed."""


@contextmanager
def schema_connection(engine: Engine) -> Iterator[Connection]:
    """A connection in one transaction for migrating the schema.

    On SQLite, foreign keys are off for its length: Alembic's batch mode rebuilds a table
    (copy, DROP TABLE, rename) to alter it, and with them on (`db._sqlite_pragmas`),
    dropping `rooms` is an implicit DELETE that cascades, deleting every room's seats and
    unlinking every game from its room (revision 0003 did so to every database upgraded
    from 0001 or 0002). SQLite ignores the pragma inside a transaction, so it is set
    before the transaction begins; `PRAGMA foreign_key_check` then refuses a migration
    that left a dangling reference, as the constraints would have."""
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                yield connection
                if sqlite:
                    dangling = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if dangling:
                        raise ForeignKeyViolation(f"rows with dangling references: {dangling[:5]}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def upgrade(database_url: str) -> None:
    """Bring the schema to head. Replicas starting together on PostgreSQL take an advisory
    lock first, so exactly one migrates and the others then find nothing to do."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", normalise_url(database_url).replace("%", "%%"))
    engine = make_engine(database_url)
    try:
        with schema_connection(engine) as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        engine.dispose()
