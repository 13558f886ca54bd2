"""Several real server processes sharing one PostgreSQL database and one Redis."""

from __future__ import annotations

import functools
import json
import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from app.store.db import reachable, scratch_database
from tests.conftest import POSTGRES_URL, postgres_available
from tests.live_server import ServerProcess

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
# This run's channel and presence keys: two test runs on one machine (a developer's
# beside CI's) share the Redis, and pub/sub ignores its database number.
REDIS_PREFIX = f"test-{os.getpid()}-{secrets.token_hex(3)}"


HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """These are long fault runs (several server processes, `kill -9`, outages, real
    clocks): marked `slow`, which `scripts/test` leaves to `.ci/run`'s second run."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.slow)


@functools.cache
def redis_available() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


@pytest.fixture
def shared_database() -> Iterator[str]:
    if not postgres_available():
        pytest.skip(f"no PostgreSQL server answers at {POSTGRES_URL} (.ci/run starts one)")
    if not redis_available():
        pytest.skip(f"no Redis server answers at {REDIS_URL} (.ci/run starts one)")
    with scratch_database(POSTGRES_URL) as url:
        assert reachable(url)
        yield url


@pytest.fixture
def cluster(tmp_path: Path, shared_database: str) -> Iterator[Callable[[], ServerProcess]]:
    """A factory of started replicas on the shared database and Redis; all stopped after."""
    started: list[ServerProcess] = []
    env = {
        "DATABASE_URL": shared_database,
        "REDIS_URL": REDIS_URL,
        "REDIS_PREFIX": REDIS_PREFIX,
        "RATE_BURST": "100000",
        "RATE_PER_SECOND": "100000",
        # Every client of these tests comes from one address.
        "ROOMS_PER_MINUTE": "0",
        "JOINS_PER_MINUTE": "0",
        "MAX_SOCKETS_PER_ADDRESS": "0",
    }

    def start() -> ServerProcess:
        server = ServerProcess(tmp_path, env).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


class Peer:
    """A protocol client over a real socket, with a timeout on every wait."""

    def __init__(self, ws_base: str, code: str, token: str | None) -> None:
        # Entered as a context manager (websockets' supported way), left in close().
        self.ws: ClientConnection = connect(f"{ws_base}/ws/{code}", max_size=2**22).__enter__()
        self.send({"type": "hello", "token": token})
        self.welcome = self.until("welcome")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def until(self, kind: str, timeout: float = 15) -> dict[str, Any]:
        while True:
            message = json.loads(self.ws.recv(timeout=timeout))
            if message["type"] == kind:
                return message
            if message["type"] == "error" and kind != "error":
                raise AssertionError(f"expected {kind}, got {message}")

    def state_at(self, seq: int) -> dict[str, Any]:
        """The first `state` at `seq` or later."""
        while True:
            state = self.until("state")
            if state["seq"] >= seq:
                return state

    def legal(self) -> dict[str, Any]:
        self.send({"type": "legal", "id": "l"})
        return self.until("legal")

    def close(self) -> None:
        self.ws.__exit__(None, None, None)
