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
    # Before the start, seconds the host's seat must be disconnected before any seated
    # player may start the game.
    host_grace_seconds: float = 60.0


@lru_cache
def get_settings() -> Settings:
    return Settings()
