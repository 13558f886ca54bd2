"""Fixtures shared by the server tests: a real app on a fresh database per test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite in a temporary folder; `TEST_DATABASE_URL` runs the same tests elsewhere."""
    return os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'test.sqlite3'}"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def fast_client(database_url: str) -> Iterator[TestClient]:
    """A client whose connections may send as fast as a bot plays (no rate limit in the way)."""
    app = create_app(Settings(database_url=database_url, rate_burst=10_000, rate_per_second=1e6))
    with TestClient(app) as test_client:
        yield test_client
