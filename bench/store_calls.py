"""The database calls of setting a table up, one at a time: prints figures, never asserts.

A table's set-up is four requests (create, the host's join, a guest's join, start) and a
hello per socket (a join and a start read the room back in their own transaction); on a
busy server each of their writes holds SQLite's write lock and waits for the GIL, so what
one call costs alone bounds how fast a thousand tables are set up (`bench/load.py human`,
docs/performance.md). Per call, the median of `--rounds` runs
over `--rooms` rooms in a scratch SQLite file, or with `--postgres` in a scratch database
beside `POSTGRES_URL` (default `postgresql://postgres@127.0.0.1/postgres`).

Run: `python bench/store_calls.py [--postgres]` from the repository root.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rooms.keys import new_game_id, new_seed
from app.rules import seed_hash
from app.store import migrate
from app.store.db import make_engine, make_sessionmaker, scratch_database
from app.store.repository import GameRecord, Repository


def new_game(code: str) -> GameRecord:
    seed = new_seed()
    return GameRecord.live(new_game_id(), "classic", {}, seed, seed_hash(seed), room_code=code)


def per_call_us(codes: list[str], call: Callable[[str], object]) -> float:
    started = time.perf_counter()
    for code in codes:
        call(code)
    return (time.perf_counter() - started) / len(codes) * 1e6


def one_round(repo: Repository, rooms: int) -> dict[str, float]:
    codes = [secrets.token_hex(4) for _ in range(rooms)]
    return {
        "create": per_call_us(codes, lambda c: repo.create_room(c, "classic", {}, "h" * 64)),
        # Each write reads the room back in its own transaction, as the room service calls it.
        "host's join": per_call_us(
            codes,
            lambda c: repo.take_seat_and_read(c, "Ann", secrets.token_hex(32), 4, host=True),
        ),
        "join": per_call_us(
            codes, lambda c: repo.take_seat_and_read(c, "Bob", secrets.token_hex(32), 4)
        ),
        "start": per_call_us(codes, lambda c: repo.start_game_and_read(new_game(c), 2)),
        "room read": per_call_us(codes, repo.get_room),
        "hello's seat": per_call_us(codes, lambda c: repo.seat_for_token(c, "0" * 64)),
    }


@contextlib.contextmanager
def scratch(postgres: bool) -> Iterator[str]:
    if postgres:
        admin = os.environ.get("POSTGRES_URL", "postgresql://postgres@127.0.0.1/postgres")
        with scratch_database(admin) as url:
            yield url
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{folder}/store_calls.sqlite3"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", action="store_true", help="a scratch PostgreSQL database")
    args = parser.parse_args()
    with scratch(args.postgres) as url:
        migrate.upgrade(url)
        engine = make_engine(url)
        repo = Repository(make_sessionmaker(engine))
        rounds = [one_round(repo, args.rooms) for _ in range(args.rounds)]
        engine.dispose()
    print(f"store calls, {args.rooms} rooms, median of {args.rounds} rounds ({url.split(':')[0]})")
    for name in rounds[0]:
        print(f"  {name:13} {statistics.median(r[name] for r in rounds):7.0f} us")


if __name__ == "__main__":
    main()
