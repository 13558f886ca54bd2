"""The replay cache (app/replays.py): one build per game however many ask at once, a warm
start that the request after it joins, built bodies stored for other processes (and
built again when stored by other code), refusals that are never cached and failed builds
that are, for a while."""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import json
import threading
from typing import Any

import pytest

from app.records import replay_data
from app.replays import VERSION, BuildFailed, Replay, Replays, build
from app.rooms.errors import RoomError
from app.store.repository import ActionRecord, GameRecord
from tests.server.helpers import greedy_record, imported_row

RECORD = greedy_record(players=2, seed="cache", max_actions=60)


def game_row(game_id: str, status: str = "finished") -> GameRecord:
    return imported_row(RECORD, game_id, status)


class FakeRepo:
    """The two reads the cache makes, over a dict of games that all share RECORD."""

    def __init__(self, *games: GameRecord) -> None:
        self.games = {game.id: game for game in games}
        self.stored: dict[str, tuple[str, bytes]] = {}
        self.store_fails = False
        self.reads: list[str] = []
        self.bys: dict[int, str] = {}  # seq -> the log's `by`

    def stored_replay(self, game_id: str, version: str) -> bytes | None:
        self.reads.append(game_id)
        kept = self.stored.get(game_id)
        return kept[1] if kept is not None and kept[0] == version else None

    def store_replay(self, game_id: str, version: str, body: bytes) -> None:
        if self.store_fails:
            raise OSError("the database is gone")
        self.stored[game_id] = (version, body)

    def get_game(self, game_id: str) -> GameRecord | None:
        return self.games.get(game_id)

    def actions(self, game_id: str, after: int = 0) -> list[ActionRecord]:
        return [
            ActionRecord(a["seq"], a["seat"], a["action"], self.bys.get(a["seq"]))
            for a in RECORD["actions"]
        ]


class CountingBuilder:
    """`build`, counted, and held until `release` is set (to make requests overlap)."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[str] = []
        self.release = threading.Event()
        self.release.set()
        self.fail = fail

    def __call__(
        self, game: GameRecord, record: dict[str, Any], bys: dict[int, str] | None = None
    ) -> bytes:
        self.calls.append(game.id)
        self.release.wait(10)
        if self.fail:
            raise RuntimeError("the build broke")
        return build(game, record, bys)


def test_requests_that_overlap_share_one_build() -> None:
    builder = CountingBuilder()
    builder.release.clear()
    replays = Replays(FakeRepo(game_row("g1")), builder=builder)

    async def scenario() -> list[Replay]:
        waiting = [asyncio.create_task(replays.get("g1")) for _ in range(5)]
        await asyncio.sleep(0.05)
        builder.release.set()
        return await asyncio.gather(*waiting)

    results = asyncio.run(scenario())
    assert builder.calls == ["g1"]
    assert all(r is results[0] for r in results)
    # whole frames are made from the patches once, when first asked for
    full = asyncio.run(replays.body("g1", "full"))
    assert json.loads(gzip.decompress(full))["frames"] == replay_data(RECORD)["frames"]
    assert results[0].full is full and builder.calls == ["g1"]


def test_a_warm_start_is_joined_by_the_request_after_it() -> None:
    builder = CountingBuilder()
    replays = Replays(FakeRepo(game_row("g1")), builder=builder)

    async def scenario() -> None:
        replays.warm("g1")
        replays.warm("g1")  # already building: nothing more
        await replays.get("g1")
        replays.warm("g1")  # already built: nothing more
        await replays.get("g1")

    asyncio.run(scenario())
    assert builder.calls == ["g1"]


def test_unknown_and_live_games_are_refused_and_not_cached() -> None:
    builder = CountingBuilder()
    repo = FakeRepo(game_row("live", status="live"))
    replays = Replays(repo, builder=builder)

    async def get(game_id: str) -> RoomError:
        with pytest.raises(RoomError) as caught:
            await replays.get(game_id)
        return caught.value

    assert asyncio.run(get("nope")).code == "not_found"
    live = asyncio.run(get("live"))
    assert (live.code, live.status) == ("game_live", 409)
    assert builder.calls == []
    # once the game is over, its replay is built
    repo.games["live"] = dataclasses.replace(repo.games["live"], status="finished")
    asyncio.run(replays.get("live"))
    assert builder.calls == ["live"]


def test_a_failed_build_is_remembered_for_a_while_then_retried() -> None:
    """Issue 17 item 12: a build that fails answers `replay_failed` to every request for
    `failure_ttl` seconds without re-playing again; after that it is tried again."""
    builder = CountingBuilder(fail=True)
    replays = Replays(FakeRepo(game_row("g1")), builder=builder, failure_ttl=0.3)

    async def scenario() -> None:
        replays.warm("g1")  # fails in the background: logged, not raised
        await asyncio.sleep(0.1)
        for _ in range(5):
            with pytest.raises(BuildFailed) as caught:
                await replays.get("g1")
            assert (caught.value.code, caught.value.status) == ("replay_failed", 500)
        replays.warm("g1")  # remembered: not started again
        assert builder.calls == ["g1"]
        await asyncio.sleep(0.3)
        builder.fail = False
        await replays.get("g1")

    asyncio.run(scenario())
    assert builder.calls == ["g1", "g1"]


def test_builds_run_at_most_concurrency_at_once() -> None:
    """Issue 17 item 12: however many replays are asked for at once, at most
    `concurrency` builds run together (the others wait for a slot)."""
    running: list[int] = []
    peak: list[int] = [0]
    lock = threading.Lock()

    def slow_build(game: GameRecord, record: dict[str, Any], bys: dict[int, str]) -> bytes:
        with lock:
            running.append(1)
            peak[0] = max(peak[0], len(running))
        threading.Event().wait(0.05)
        with lock:
            running.pop()
        return build(game, record, bys)

    repo = FakeRepo(*(game_row(f"g{k}") for k in range(6)))
    replays = Replays(repo, builder=slow_build, concurrency=2)

    async def scenario() -> None:
        await asyncio.gather(*(replays.get(f"g{k}") for k in range(6)))

    asyncio.run(scenario())
    assert peak[0] == 2


def test_the_least_recently_used_replay_goes_first() -> None:
    builder = CountingBuilder()
    repo = FakeRepo(*(game_row(g) for g in "abc"))
    replays = Replays(repo, size=2, builder=builder)

    async def scenario() -> None:
        for game_id in "aba":
            await replays.get(game_id)
        await replays.get("c")  # evicts b, the least recently used
        await replays.get("a")  # still in memory
        await replays.get("b")  # read back from the store

    asyncio.run(scenario())
    assert repo.reads == ["a", "b", "c", "b"]
    assert builder.calls == ["a", "b", "c"]


def test_a_stored_replay_is_not_built_again_by_another_process() -> None:
    repo = FakeRepo(game_row("g1"))
    first, second = CountingBuilder(), CountingBuilder()
    asyncio.run(Replays(repo, builder=first).get("g1"))
    assert repo.stored["g1"][0] == VERSION
    item = asyncio.run(Replays(repo, builder=second).get("g1"))
    assert first.calls == ["g1"] and second.calls == []
    assert item.patches == repo.stored["g1"][1]


def test_a_replay_stored_by_other_code_is_built_again() -> None:
    repo = FakeRepo(game_row("g1"))
    repo.stored["g1"] = ("older-code", b"not what this code builds")
    builder = CountingBuilder()
    item = asyncio.run(Replays(repo, builder=builder).get("g1"))
    assert builder.calls == ["g1"]
    assert repo.stored["g1"] == (VERSION, item.patches)
    assert json.loads(gzip.decompress(item.patches))["id"] == "g1"


def test_a_replay_that_cannot_be_stored_is_served_all_the_same() -> None:
    repo = FakeRepo(game_row("g1"))
    repo.store_fails = True
    builder = CountingBuilder()
    replays = Replays(repo, builder=builder)
    item = asyncio.run(replays.get("g1"))
    assert json.loads(gzip.decompress(item.patches))["patches"]
    assert asyncio.run(replays.get("g1")) is item and builder.calls == ["g1"]


def test_a_replay_marks_the_moves_the_server_played_for_a_seat() -> None:
    """The room's move list marks a move the computer played for an away player or on a
    timeout; the replay's moves carry the log's `by` so that its list can mark them too
    (the record, an export, has no such field)."""
    repo = FakeRepo(game_row("g1"))
    repo.bys = {3: "computer:timeout", 4: "computer:timeout", 9: "computer:away"}
    body = json.loads(gzip.decompress(asyncio.run(Replays(repo).body("g1"))))
    marked = {m["seq"]: m["by"] for m in body["moves"] if "by" in m}
    assert marked == repo.bys
    assert len(body["moves"]) == len(RECORD["actions"])
