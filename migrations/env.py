"""Alembic environment: the URL comes from the app's settings unless the caller set one."""

from alembic import context

from app.config import get_settings
from app.store.db import make_engine, normalise_url
from app.store.migrate import schema_connection
from app.store.models import Base

config = context.config
target_metadata = Base.metadata


def url() -> str:
    return normalise_url(config.get_main_option("sqlalchemy.url") or get_settings().database_url)


def run_offline() -> None:
    context.configure(url=url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(url())
    # Foreign keys off on SQLite while a table is rebuilt (`schema_connection`): dropping
    # the old `rooms` would otherwise delete every seat and unlink every game.
    with schema_connection(engine) as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
