"""Engine and session factory, with the SQLite settings that make it a fair default."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker


def normalise_url(url: str) -> str:
    """Let `postgresql://` mean psycopg 3, the driver we ship, not psycopg2."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str, busy_timeout: float = 3.0) -> Engine:
    """`busy_timeout` (SQLite): how long a write waits for another writer's lock before it
    fails, so that one stuck writer cannot queue every room's writes for long."""
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        # As many pooled connections as worker threads, so none is opened per query.
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": busy_timeout},
            pool_size=40,
            max_overflow=10,
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # The same bound on waiting for a row lock (a join or start holding its room), and on
    # reaching the server at all.
    wait_ms = max(1, int(busy_timeout * 1000))
    return create_engine(
        url,
        pool_size=10,
        max_overflow=20,
        pool_pre_ping=True,
        pool_timeout=max(busy_timeout, 1.0),
        connect_args={"connect_timeout": 5, "options": f"-c lock_timeout={wait_ms}"},
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run beside the one writer; NORMAL sync is durable across a process
    # crash, which is the failure a game server meets.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def scratch_database(admin_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database for one test or benchmark, dropped afterwards.

    `admin_url` names any database the role may connect to; the scratch one is created
    beside it, so runs never see each other's rows.
    """
    admin = create_engine(normalise_url(admin_url), isolation_level="AUTOCOMMIT")
    name = f"labyrinth_{secrets.token_hex(6)}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield (
            make_url(normalise_url(admin_url))
            .set(database=name)
            .render_as_string(hide_password=False)
        )
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def reachable(url: str, timeout: float = 2.0) -> bool:
    """Whether a database server answers at `url` (used to decide what a run can test)."""
    engine = create_engine(normalise_url(url), connect_args={"connect_timeout": int(timeout)})
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        return True
    except Exception:
        return False
    finally:
        engine.dispose()
