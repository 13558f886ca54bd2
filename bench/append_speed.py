"""What one appended action costs the group writer, and how much of it is SQLAlchemy's:
prints figures, never asserts.

The writer (`app/store/writer.py`) writes each batch of appends with two Core statements
(`Repository.write_appends`). Here the same batches are written that way and with the
standard library's `sqlite3` straight, in one scratch SQLite file: if SQLAlchemy's own
work were a large part of the database's share of an action (docs/performance.md), the
second would be much faster.

Run: `python bench/append_speed.py [--batch 25] [--rounds 40]` from the repository root.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.store import migrate
from app.store.db import make_engine, make_sessionmaker
from app.store.repository import Repository
from app.store.writer import Append
from bench.store_calls import new_game

PAYLOAD = {"type": "push", "side": "N", "index": 1, "rotation": 90}


def started_games(repo: Repository, count: int) -> list[str]:
    ids = []
    for _ in range(count):
        code = secrets.token_hex(4)
        repo.create_room(code, "classic", {}, "h" * 64)
        repo.take_seat_and_read(code, "Ann", secrets.token_hex(32), 4, host=True)
        repo.take_seat_and_read(code, "Bob", secrets.token_hex(32), 4)
        game = new_game(code)
        repo.start_game_and_read(game, 2)
        ids.append(game.id)
    return ids


def plain(value: Any) -> Any:
    """A row's value as `sqlite3` takes it (SQLAlchemy's JSON and DateTime do this)."""
    if isinstance(value, dict):
        return json.dumps(value)
    if isinstance(value, datetime):
        return value.isoformat(sep=" ")
    return value


def sqlite_writer(path: str) -> Callable[[list[Append]], None]:
    connection = sqlite3.connect(path, isolation_level=None)
    # the pragmas the engine sets on each of its connections (`app/store/db.py`)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
        connection.execute(f"PRAGMA {pragma}")

    def write(batch: list[Append]) -> None:
        columns = list(batch[0].row)
        insert = (
            f"INSERT INTO actions ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        )
        connection.execute("BEGIN IMMEDIATE")
        connection.executemany(insert, [tuple(plain(v) for v in a.row.values()) for a in batch])
        connection.executemany(
            "UPDATE games SET seq = ? WHERE id = ?",
            [(a.game["seq"], a.row["game_id"]) for a in batch],
        )
        connection.execute("COMMIT")

    return write


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=25, help="appends per batch")
    parser.add_argument("--rounds", type=int, default=40, help="batches per writer")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/append_speed.sqlite3"
        url = f"sqlite:///{path}"
        migrate.upgrade(url)
        engine = make_engine(url)
        repo = Repository(make_sessionmaker(engine))
        games = started_games(repo, args.batch)
        raw = sqlite_writer(path)

        def core(batch: list[Append]) -> None:
            assert all(outcome is None for outcome in repo.write_appends(batch))

        times: dict[str, list[float]] = {"SQLAlchemy Core (as now)": [], "sqlite3 alone": []}
        seq = 0
        for _ in range(args.rounds):  # the two in turns: the machine's drift hits both
            for name, write in (("SQLAlchemy Core (as now)", core), ("sqlite3 alone", raw)):
                seq += 1
                now = datetime.now(UTC)
                batch = [repo.action_append(g, seq, 0, PAYLOAD, None, now) for g in games]
                started = time.perf_counter()
                write(batch)
                times[name].append((time.perf_counter() - started) / len(batch) * 1e6)
        engine.dispose()
    print(f"one append in a batch of {args.batch}, {args.rounds} batches each (SQLite)")
    for name, figures in times.items():
        median = statistics.median(figures)
        print(f"  {name:26} min {min(figures):6.1f} us, median {median:6.1f} us")


if __name__ == "__main__":
    main()
