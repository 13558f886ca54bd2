"""Run Alembic migrations from code, so the server brings its schema up at start-up."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from app.config import ROOT
from app.store.db import normalise_url


def upgrade(database_url: str) -> None:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", normalise_url(database_url).replace("%", "%%"))
    command.upgrade(config, "head")
