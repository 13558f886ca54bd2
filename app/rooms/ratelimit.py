"""Rate limits: a token bucket per connection, and per client address for what one
anonymous machine could otherwise repeat without end (sockets, rooms, joins, imports).

Bursts are fine, floods are refused with `rate_limited` (or `too_many_connections`). The
per-address state lives in this process: behind a balancer each replica counts its own
share, which still bounds what one address costs any of them.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field

from app.rooms.errors import RoomError

# Above this many tracked addresses, buckets that are full again are forgotten.
PRUNE_ABOVE = 10_000


class RateLimited(RoomError):
    """HTTP 429 `rate_limited`, with `retry_after`: whole seconds until a try succeeds
    (at least 1), which `Retry-After` carries and the message says."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("rate_limited", message, 429)
        self.retry_after = retry_after


@dataclass
class TokenBucket:
    capacity: float
    refill_per_second: float
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.capacity
        self.stamp = time.monotonic()

    def _refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.refill_per_second)
        self.stamp = now

    def take(self) -> bool:
        self._refill(time.monotonic())
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.capacity

    def wait(self) -> float:
        """Seconds until one token is back (for `Retry-After`)."""
        return max(0.0, (1 - self.tokens) / self.refill_per_second)


class PerMinute:
    """At most `limit` events per address and minute, in bursts of up to `limit`."""

    def __init__(self, what: str, limit: int) -> None:
        self.what = what
        self.limit = limit
        self._buckets: dict[str, TokenBucket] = {}

    def check(self, address: str) -> None:
        """Count one event for `address`, or raise `rate_limited` (HTTP 429)."""
        if self.limit <= 0:
            return
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= PRUNE_ABOVE:
                self._prune()
            bucket = self._buckets[address] = TokenBucket(self.limit, self.limit / 60)
        if not bucket.take():
            # whole seconds, rounded up: a client that waits as told is not refused again
            # (`:.0f` said "0 s" for a token 0.4 s away)
            wait = max(1, math.ceil(bucket.wait()))
            raise RateLimited(
                f"at most {self.limit} {self.what} per minute from one address; "
                f"try again in {wait} s",
                wait,
            )

    def _prune(self) -> None:
        now = time.monotonic()
        for address in [a for a, b in self._buckets.items() if b.full(now)]:
            del self._buckets[address]


class SocketCount:
    """Concurrent WebSockets per address: `acquire` on open, `release` on close."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: Counter[str] = Counter()

    def acquire(self, address: str) -> None:
        if 0 < self.limit <= self._open[address]:
            raise RoomError(
                "too_many_connections",
                f"at most {self.limit} open connections from one address",
                429,
            )
        self._open[address] += 1

    def release(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]

    def count(self, address: str) -> int:
        return self._open[address]


@dataclass
class AddressLimits:
    """Everything limited per client address, built from the settings."""

    sockets: SocketCount
    rooms: PerMinute
    joins: PerMinute
    imports: PerMinute

    @classmethod
    def from_settings(cls, sockets: int, rooms: int, joins: int, imports: int) -> AddressLimits:
        return cls(
            SocketCount(sockets),
            PerMinute("rooms", rooms),
            PerMinute("joins", joins),
            PerMinute("imports", imports),
        )
