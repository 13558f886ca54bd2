"""The garbage collector is settled and paced while the server runs, and as it was once
it stops."""

from __future__ import annotations

import gc
import time
import weakref
from pathlib import Path

from fastapi.testclient import TestClient

from app import collector
from app.config import Settings
from app.main import create_app


class Node:
    """Something that can be part of a cycle and be watched through a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """A cycle of two objects that nothing else holds: garbage only a collection frees."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


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
        assert gc.get_threshold() == (collector.YOUNG, collector.MIDDLE, collector.OLDEST)
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_a_running_server_collects_on_its_clock(tmp_path: Path) -> None:
    """With the automatic triggers out of reach, only the pacer can free the cycle."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'gc.sqlite3'}", replay_processes=0, gc_freeze=True
    )
    with TestClient(create_app(settings)) as client:
        gc.set_threshold(10**9, 10**9, 10**9)
        watched = cycle()
        for _ in range(100):
            if watched() is None:
                break
            client.get("/healthz")
            time.sleep(collector.EVERY)
        assert watched() is None


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
        settled = collector.settle(young=1234, middle=5, oldest=99)
        assert settled == before
        assert gc.get_threshold() == (1234, 5, 99)
        assert gc.get_freeze_count() > 0
    finally:
        collector.restore(before)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_each_tick_frees_young_garbage_and_a_full_pass_comes_when_due() -> None:
    clock = Clock()
    pacer = collector.Pacer(full_every=300.0, clock=clock)
    watched = cycle()
    assert pacer.step() == 1
    assert watched() is None
    clock.now += 299.0
    assert pacer.step() == 1
    clock.now += 1.0
    assert pacer.step() == 2
    assert pacer.step() == 1  # the next full pass is five minutes later again


def test_a_full_pass_frees_garbage_among_frozen_objects_and_freezes_the_rest() -> None:
    """A connection that was alive at a freeze and closed since is freed by the next
    full pass; the young collections never see it."""
    clock = Clock()
    pacer = collector.Pacer(full_every=300.0, clock=clock)
    a, b = Node(), Node()
    a.other, b.other = b, a
    watched = weakref.ref(a)
    kept = Node()
    gc.freeze()
    try:
        del a, b
        assert pacer.step() == 1
        assert watched() is not None  # frozen: out of the young collections' sight
        clock.now += 300.0
        assert pacer.step() == 2
        assert watched() is None
        assert gc.get_freeze_count() > 0
        assert any(o is kept for o in gc.get_objects()) is False  # frozen again
    finally:
        gc.unfreeze()
