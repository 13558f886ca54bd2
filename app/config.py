"""Settings read from the environment, so one build runs on a laptop or behind a proxy."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """`DATABASE_URL` defaults to a SQLite file so that nothing else has to run."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    database_url: str = f"sqlite:///{ROOT / 'data' / 'labyrinth.sqlite3'}"
    redis_url: str | None = None
    # What this deployment's Redis names start with: its pub/sub channel and presence
    # keys. Redis' pub/sub ignores the database number of `REDIS_URL`, so two deployments
    # sharing one Redis (a staging beside production, two test runs) need two prefixes.
    redis_prefix: str = "labyrinth"
    run_migrations: bool = True
    log_level: str = "INFO"
    # Per connection: a burst of `rate_burst` messages, refilled at `rate_per_second`.
    rate_burst: int = 40
    rate_per_second: float = 20.0
    # Finished games whose replay each process keeps built (about 30 KiB each, gzipped).
    replay_cache_size: int = 256
    # Processes that build replays beside each server process (0: a worker thread).
    replay_processes: int = 1
    # At start-up, the most recently finished games whose replay is built if missing.
    replay_prebuild: int = 50
    # Replay builds (and imports' re-plays) running at once in each server process.
    replay_builds: int = 2
    # Seconds a replay whose build failed answers `replay_failed` before it is tried again.
    replay_failure_ttl: float = 60.0
    # Deepest nesting of arrays and objects in a WebSocket message or a JSON body.
    max_json_depth: int = 32
    # Chat lines per speaker (a seat, or a spectator's address): a burst, then a refill.
    chat_burst: int = 5
    chat_per_second: float = 0.5
    # Client networks that may read `/metrics` (comma-separated; others get 404).
    metrics_networks: str = "127.0.0.0/8,::1/128"
    # Seconds a computer seat waits before it moves, so a person can follow (0 in tests).
    computer_pause: float = 0.8
    # Every so many seconds, look for computer moves that are due but nobody is making
    # (a process died during its pause); also done once at start-up. 0: never.
    computer_sweep_seconds: float = 10.0
    # A seated player disconnected this long (seconds) is "away": others may let the
    # computer play the seat.
    away_after: float = 60.0
    # A live game with no seated player connected for this long (seconds) is adjourned:
    # out of the lobby's live list, resumable from its link.
    adjourn_after: float = 1800.0
    # How often each process looks for turns whose deadline has passed (seconds).
    clock_scan_every: float = 1.0
    # How long a "continue on another device" link works (seconds).
    device_link_ttl: float = 600.0
    # Before the start, seconds the host's seat must be disconnected before any seated
    # player may start the game.
    host_grace_seconds: float = 60.0
    # After a game, how long a "play again" offer waits for the seats that have not
    # accepted (seconds): then the next game starts without them.
    rematch_seconds: float = 60.0
    # A WebSocket that has not said `hello` after this many seconds is closed (4408).
    hello_timeout: float = 10.0
    # Concurrent WebSockets one client address may hold in this process (0: no cap).
    max_sockets_per_address: int = 32
    # Per client address and minute, in this process (0: no limit).
    rooms_per_minute: int = 30
    joins_per_minute: int = 60
    imports_per_minute: int = 10
    # Request bodies past this size are refused with 413 (imports: `max_import_bytes`).
    max_body_bytes: int = 64 * 1024
    max_import_bytes: int = 4 * 1024 * 1024
    # `scripts/serve` (uvicorn): seconds to send a whole request head, seconds an idle
    # kept-alive connection stays open, the largest request head in bytes, and the
    # connections and tasks past which new requests are answered 503 (0: no cap): 1,000
    # tables of 2 players and a spectator are 3,000 sockets (docs/performance.md).
    http_header_timeout: float = 10.0
    keep_alive_timeout: float = 5.0
    max_header_bytes: int = 16 * 1024
    limit_concurrency: int = 10_000
    # Addresses (or networks) of the proxies whose X-Forwarded-For is believed.
    forwarded_allow_ips: str = "127.0.0.1"
    # Every `room_sweep_seconds`, rooms with no socket here unused for `room_idle_seconds`
    # leave memory, and rooms whose game never started, older than `lobby_ttl_hours`,
    # with no seat connected, are deleted (games are never deleted). 0: no sweep.
    room_sweep_seconds: float = 60.0
    room_idle_seconds: float = 300.0
    lobby_ttl_hours: float = 24.0
    # SQLite: how long a write waits for the database's lock before answering `unavailable`.
    sqlite_busy_timeout: float = 3.0
    # Worker threads the rooms' database calls use at once in each process (0: 2 on
    # SQLite, whose work holds the GIL and whose writes take turns anyway; 40 on
    # PostgreSQL, whose calls mostly wait on the network).
    database_threads: int = 0
    # Once started, freeze what start-up built out of the garbage collector's sight and
    # let a clock pace the collections instead of the allocation counts
    # (`app/collector.py`): the automatic ones paused the loop for 30-370 ms under load.
    gc_freeze: bool = True


@lru_cache
def get_settings() -> Settings:
    return Settings()
