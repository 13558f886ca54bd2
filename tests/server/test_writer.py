"""Group commit (`app/store/writer.py`): appends made while a commit runs share the next
one, each waiter gets its own outcome, and a taken `seq` still loses alone."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from app.rooms.keys import new_game_id, new_seed
from app.rules import seed_hash
from app.store import migrate
from app.store.db import make_engine, make_sessionmaker
from app.store.repository import GameRecord, Repository, StaleWrite


def repository(url: str) -> Repository:
    migrate.upgrade(url)
    return Repository(make_sessionmaker(make_engine(url)))


def new_game(repo: Repository) -> str:
    seed = new_seed()
    game = GameRecord(
        id=new_game_id(),
        room_code=None,
        variant="classic",
        options={},
        players=["a", "b"],
        seed=seed,
        seed_hash=seed_hash(seed),
        status="live",
        seq=0,
        result=None,
        started_at=datetime.now(UTC),
        finished_at=None,
        imported=False,
    )
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
