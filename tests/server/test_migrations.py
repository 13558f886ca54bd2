"""The Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from app.store import migrate
from app.store.db import make_engine
from app.store.models import Base


def test_migrations_match_the_models(database_url: str) -> None:
    migrate.upgrade(database_url)
    migrate.upgrade(database_url)  # a second start finds nothing to do
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()
    assert diff == []
