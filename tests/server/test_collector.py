"""The garbage collector is settled while the server runs and as it was once it stops."""

from __future__ import annotations

import gc
from pathlib import Path

from fastapi.testclient import TestClient

from app import collector
from app.config import Settings
from app.main import create_app


def test_a_running_server_freezes_what_start_up_built_and_thaws_it_when_it_stops(
    tmp_path: Path,
) -> None:
    before = gc.get_threshold()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'gc.sqlite3'}", replay_processes=0, gc_freeze=True
    )
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_freeze_count() > 10_000  # the imports, at the least
        assert gc.get_threshold()[:2] == (collector.YOUNG, collector.MIDDLE)
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_without_it_the_collector_is_left_alone(tmp_path: Path) -> None:
    before = gc.get_threshold()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'gc.sqlite3'}", replay_processes=0, gc_freeze=False
    )
    with TestClient(create_app(settings)):
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == before


def test_restore_gives_back_the_thresholds_it_was_handed() -> None:
    before = gc.get_threshold()
    try:
        settled = collector.settle(young=1234, middle=5)
        assert settled == before
        assert gc.get_threshold() == (1234, 5, before[2])
        assert gc.get_freeze_count() > 0
    finally:
        collector.restore(before)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
