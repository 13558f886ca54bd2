"""Two deployments on one Redis: pub/sub ignores the database number of `REDIS_URL`,
so only `REDIS_PREFIX` keeps one deployment's room news from reaching the other's
processes (and the test runs' clusters from each other's)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

from app.config import Settings
from app.main import make_fanout
from tests.cluster.conftest import REDIS_URL, redis_available

HubMessage = dict[str, Any]


async def _heard(prefixes: tuple[str, str], url_b: str) -> tuple[list[HubMessage], set[str]]:
    """What B's hub heard of A's publish, and the presence keys both left in Redis."""
    hub_a, presence_a, redis_a = make_fanout(
        Settings(redis_url=REDIS_URL, redis_prefix=prefixes[0])
    )
    hub_b, _, redis_b = make_fanout(Settings(redis_url=url_b, redis_prefix=prefixes[1]))
    heard_a: list[HubMessage] = []
    heard_b: list[HubMessage] = []

    async def into(box: list[HubMessage], message: HubMessage) -> None:
        box.append(message)

    await hub_a.start(lambda m: into(heard_a, m))
    await hub_b.start(lambda m: into(heard_b, m))
    room = "r" + secrets.token_hex(4)
    try:
        await presence_a.merged(room, {0}, 1)
        await hub_a.publish({"room": room, "kind": "room"})
        # A's own copy comes back through Redis: once A has it, B has had its chance.
        for _ in range(200):
            if heard_a:
                break
            await asyncio.sleep(0.01)
        assert heard_a == [{"room": room, "kind": "room"}]
        await asyncio.sleep(0.2)
        keys = {k.decode() for k in await redis_a.keys(f"*{room}*")}
        return heard_b, keys
    finally:
        await hub_a.stop()
        await hub_b.stop()
        for r in (redis_a, redis_b):
            await r.aclose()


@pytest.fixture
def redis_url() -> str:
    if not redis_available():
        pytest.skip(f"no Redis server answers at {REDIS_URL} (.ci/run starts one)")
    return REDIS_URL


def _other_database(url: str) -> str:
    base, _, db = url.rpartition("/")
    return f"{base}/{1 if db == '0' else 0}"


def test_two_prefixes_on_one_redis_do_not_hear_each_other(redis_url: str) -> None:
    one, two = f"t{secrets.token_hex(4)}", f"t{secrets.token_hex(4)}"
    heard, keys = asyncio.run(_heard((one, two), _other_database(redis_url)))
    assert heard == []
    assert len(keys) == 1 and keys.pop().startswith(f"{one}:presence:")


def test_one_prefix_is_one_deployment_whatever_the_database_number(redis_url: str) -> None:
    """Why the prefix is needed: a database number alone does not part two deployments."""
    prefix = f"t{secrets.token_hex(4)}"
    heard, _ = asyncio.run(_heard((prefix, prefix), _other_database(redis_url)))
    assert [m["kind"] for m in heard] == ["room"]
