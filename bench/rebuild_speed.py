"""How long rebuilding a long live game from its log takes, and what it costs every other
room: the event loop's longest stall while the rebuild runs inline (as before issue 17)
and in a worker thread (as `RoomService._live` does now).

    python bench/rebuild_speed.py [--actions 3000]

A random-play classic game of at least `--actions` actions is made first (random play,
nobody trying to win, is the longest a game gets; see `app.rules.max_actions`).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

from anyio import to_thread

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rooms.live import LiveGame
from app.rules import Game, max_actions
from app.store.repository import ActionRecord, GameRecord


def long_game(at_least: int) -> tuple[GameRecord, list[ActionRecord]]:
    for attempt in range(200):
        seed = f"rebuild-{attempt}"
        game = Game.new("classic", ["Ann", "Bob"], seed, {})
        rng = random.Random(seed)
        while game.result is None and game.seq < max_actions("classic"):
            seat = game.to_move
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.seq >= at_least:
            record = GameRecord.live("bench", "classic", game.options, seed, "", ["Ann", "Bob"])
            actions = [ActionRecord(s, seat, a) for s, seat, a in game.actions]
            return record, actions
    raise SystemExit(f"no random game of {at_least} actions in 200 seeds")


async def longest_stall(rebuild: object) -> tuple[float, float]:
    """(rebuild seconds, longest gap between 1 ms ticks of another task, seconds)."""
    gaps: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    began = time.perf_counter()
    await rebuild()  # type: ignore[operator]
    took = time.perf_counter() - began
    done.set()
    await task
    return took, max(gaps)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=3000)
    args = parser.parse_args()
    record, actions = long_game(args.actions)
    print(f"classic game of {len(actions)} actions (bound {max_actions('classic')})")

    async def inline() -> None:
        LiveGame.load(record, actions)

    async def in_thread() -> None:
        await to_thread.run_sync(LiveGame.load, record, actions)

    for name, rebuild in (("inline (before)", inline), ("worker thread (now)", in_thread)):
        took, stall = await longest_stall(rebuild)
        print(f"{name:>20}: rebuild {took * 1000:7.1f} ms, other tasks' longest stall "
              f"{stall * 1000:7.1f} ms")  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
