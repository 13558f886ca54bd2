"""Fixtures shared by the server tests: a real app on a fresh database per test."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.store.db import reachable, scratch_database

# Each test app would otherwise collect and freeze the whole test process at its start
# (`app/collector.py`); tests/server/test_collector.py turns it on where it is the subject.
os.environ.setdefault("GC_FREEZE", "false")

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


@functools.cache
def postgres_available() -> bool:
    return reachable(POSTGRES_URL)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Every server test runs twice: on SQLite (the embedded default) and on PostgreSQL,
    each time on a database of its own. The PostgreSQL runs are marked `postgres`:
    `scripts/test` leaves them to its full run (`scripts/test --all`, which `.ci/run` does)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    if not postgres_available():
        pytest.skip(f"no PostgreSQL server answers at {POSTGRES_URL} (.ci/run starts one)")
    with scratch_database(POSTGRES_URL) as url:
        yield url


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    # Replays build in a worker thread here: a build process per test app would only
    # slow the suite (tests/server/test_replay.py runs one with a process).
    app = create_app(Settings(database_url=database_url, replay_processes=0, computer_pause=0))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def fast_client(database_url: str) -> Iterator[TestClient]:
    """A client whose connections may send as fast as a bot plays (no rate limit in the way)."""
    app = create_app(
        Settings(
            database_url=database_url,
            rate_burst=10_000,
            rate_per_second=1e6,
            replay_processes=0,
            computer_pause=0,
        )
    )
    with TestClient(app) as test_client:
        yield test_client
