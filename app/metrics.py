"""Prometheus metrics of one server process, in a registry of its own.

A registry per app (not the library's global one) keeps several apps in one process —
the test suite creates many — from colliding over metric names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.connections = Gauge(
            "labyrinth_open_connections", "Open WebSocket connections", registry=self.registry
        )
        self.rooms = Gauge(
            "labyrinth_live_rooms", "Rooms held in memory by this process", registry=self.registry
        )
        self.actions = Counter(
            "labyrinth_actions_applied", "Actions accepted and committed", registry=self.registry
        )
        self.latency = Histogram(
            "labyrinth_action_latency_seconds",
            "From an action's arrival to its commit and fan-out",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.errors = Counter(
            "labyrinth_errors", "Error messages sent, by code", ["code"], registry=self.registry
        )

        self.log_batches = Gauge(
            "labyrinth_log_batches",
            "Transactions the group commit wrote to the action log",
            registry=self.registry,
        )
        self.log_appends = Gauge(
            "labyrinth_log_appends", "Actions the group commit wrote", registry=self.registry
        )
        self.log_largest = Gauge(
            "labyrinth_log_largest_batch",
            "The most actions one group commit wrote",
            registry=self.registry,
        )

    def track_log(self, stats: Callable[[], Any]) -> None:
        """The group commit's counters (`app/store/writer.py`), read when scraped."""
        self.log_batches.set_function(lambda: stats().batches)
        self.log_appends.set_function(lambda: stats().appends)
        self.log_largest.set_function(lambda: stats().largest)

    def track(self, connections: Callable[[], int], rooms: Callable[[], int]) -> None:
        """Read the gauges from the service when scraped, so they can never drift."""
        self.connections.set_function(connections)
        self.rooms.set_function(rooms)

    def render(self) -> bytes:
        return generate_latest(self.registry)
