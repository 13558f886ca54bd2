"""Group commit (`app/store/writer.py`): appends made while a commit runs share the next
one, each waiter gets its own outcome, and a taken `seq` still loses alone."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Executor, Future
from datetime import UTC, datetime
from typing import Any

import pytest

from app.rooms.keys import new_game_id, new_seed
from app.rules import seed_hash
from app.store import migrate
from app.store import writer as writer_module
from app.store.db import make_engine, make_sessionmaker
from app.store.repository import GameRecord, Repository, StaleWrite
from app.store.writer import Append, GroupWriter


def repository(url: str) -> Repository:
    migrate.upgrade(url)
    return Repository(make_sessionmaker(make_engine(url)))


def new_game(repo: Repository) -> str:
    seed = new_seed()
    game = GameRecord.live(new_game_id(), "classic", {}, seed, seed_hash(seed), ["a", "b"])
    assert repo.create_game(game)
    return game.id


def test_concurrent_appends_share_commits_and_all_land(database_url: str) -> None:
    repo = repository(database_url)
    games = [new_game(repo) for _ in range(30)]
    now = datetime.now(UTC)

    async def play(game_id: str) -> None:
        for seq in range(1, 6):
            result = {"winners": [0]} if seq == 5 and game_id == games[0] else None
            await repo.commit_action(game_id, seq, seq % 2, {"type": "x", "n": seq}, result, now)

    async def run() -> None:
        await asyncio.gather(*(play(g) for g in games))

    asyncio.run(run())
    stats = repo.writer.stats
    assert stats.appends == 150
    assert stats.batches < stats.appends, "appends made meanwhile share a commit"
    assert stats.largest > 1
    for game_id in games:
        log = repo.actions(game_id)
        assert [(a.seq, a.payload["n"]) for a in log] == [(n, n) for n in range(1, 6)]
        record = repo.get_game(game_id)
        assert record is not None and record.seq == 5
    first = repo.get_game(games[0])
    assert first is not None
    assert (first.status, first.result) == ("finished", {"winners": [0]})
    assert first.finished_at is not None
    assert {repo.get_game(g).status for g in games[1:]} == {"live"}  # type: ignore[union-attr]


def test_a_taken_seq_loses_alone_in_its_batch(database_url: str) -> None:
    repo = repository(database_url)
    games = [new_game(repo) for _ in range(5)]
    now = datetime.now(UTC)
    # Another process already stored seq 1 of the third game.
    repo.append_action(games[2], 1, 1, {"type": "theirs"}, None, now)

    async def run() -> list[BaseException | None]:
        jobs = [repo.commit_action(g, 1, 0, {"type": "mine"}, None, now) for g in games]
        return await asyncio.gather(*jobs, return_exceptions=True)

    outcomes = asyncio.run(run())
    assert [type(o) for o in outcomes] == [
        type(None),
        type(None),
        StaleWrite,
        type(None),
        type(None),
    ]
    assert repo.writer.stats.largest == 5, "the five were one batch"
    for n, game_id in enumerate(games):
        assert [a.payload["type"] for a in repo.actions(game_id)] == [
            "theirs" if n == 2 else "mine"
        ]


def test_a_failed_write_reaches_every_waiter(database_url: str) -> None:
    """An append for a game that does not exist fails alone (a foreign key), and the
    others of its batch still commit."""
    repo = repository(database_url)
    game_id = new_game(repo)
    now = datetime.now(UTC)

    async def run() -> list[BaseException | None]:
        jobs = [
            repo.commit_action(game_id, 1, 0, {"type": "ok"}, None, now),
            repo.commit_action("no-such-game", 1, 0, {"type": "lost"}, None, now),
        ]
        return await asyncio.gather(*jobs, return_exceptions=True)

    ok, lost = asyncio.run(run())
    assert ok is None
    assert isinstance(lost, StaleWrite)
    assert [a.payload["type"] for a in repo.actions(game_id)] == ["ok"]


def append(n: int) -> Append:
    return Append(row={"game_id": "g", "seq": n}, game={"seq": n})


class RunsAtOnce(Executor):
    """Writes a batch in the caller's thread: the turns a commit costs, without a thread's
    timing in the count."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        job: Future[Any] = Future()
        job.set_result(fn(*args, **kwargs))
        return job


def test_a_commit_costs_the_event_loop_three_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under load each turn of the loop takes 10-30 ms, and a move waits for every turn its
    commit passes through: the turn that ends its batch, the one the outcome comes back
    in, and the waiter's own wake-up (anyio's hand-over behind a shield took seven)."""
    monkeypatch.setattr(writer_module, "_executor", RunsAtOnce)
    writer = GroupWriter(lambda batch: [None] * len(batch))

    async def run() -> int:
        turns = 0
        stop = False

        def tick() -> None:
            nonlocal turns
            turns += 1
            if not stop:
                asyncio.get_running_loop().call_soon(tick)

        asyncio.get_running_loop().call_soon(tick)
        await writer.append(append(1))
        stop = True
        return turns

    assert asyncio.run(run()) <= 3


def test_a_waiter_that_goes_away_leaves_its_batch_to_the_others() -> None:
    written: list[list[int]] = []
    release = threading.Event()

    def write(batch: list[Append]) -> list[BaseException | None]:
        release.wait(5)
        written.append([item.row["seq"] for item in batch])
        return [None] * len(batch)

    writer = GroupWriter(write)

    async def run() -> list[Any]:
        jobs = [asyncio.create_task(writer.append(append(n))) for n in range(3)]
        await asyncio.sleep(0.05)  # the three are one batch, in the thread
        jobs[1].cancel()
        release.set()
        return await asyncio.gather(*jobs, return_exceptions=True)

    first, second, third = asyncio.run(run())
    assert (first, third) == (None, None)
    assert isinstance(second, asyncio.CancelledError)
    assert written == [[0, 1, 2]], "the batch was written whole"


def test_a_loop_that_closed_mid_commit_does_not_hold_up_the_next() -> None:
    """A test's `asyncio.run` (or a server's loop) may end while its batch is written: the
    outcome has nowhere to go, and the next loop's appends are written all the same."""
    release = threading.Event()
    calls: list[int] = []

    def write(batch: list[Append]) -> list[BaseException | None]:
        calls.append(len(batch))
        if len(calls) == 1:
            release.wait(5)
        return [None] * len(batch)

    writer = GroupWriter(write)

    async def abandon() -> None:
        asyncio.get_running_loop().create_task(writer.append(append(1)))
        await asyncio.sleep(0.05)  # handed over; the loop then closes

    asyncio.run(abandon())
    release.set()
    asyncio.run(asyncio.wait_for(writer.append(append(2)), timeout=5))
    assert calls == [1, 1]
    assert writer.stats.appends == 1, "only the second batch came back to a loop"
