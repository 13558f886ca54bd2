"""Memories of computer players: what a seat keeps between its decisions.

Most players decide from the current view alone. A few remember what they were shown
earlier (Team Edition's hard player: the faces of tiles since turned face down). Such a
memory is fed ONLY what the seat was shown, step by step (its view after each action and
the action's events as redacted for it), so it holds nothing a person in that seat could
not know; whoever drives the seat keeps one per (game, seat).

Two ways to keep it, giving the same memory (a test checks): live, calling `observe`
after every action of the game; or after a restart, `replay`, which re-plays the game's
record and shows the seat each step exactly as the live path did. The record holds the
seed, but `replay` reads it only to re-create the seat's own views: the memory is still
built from those views and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from app.rules import Game


class Memory(Protocol):
    """What a remembering player keeps: fed one step at a time."""

    seq: int

    def observe(
        self, view: Mapping[str, Any], events: Iterable[Mapping[str, Any]] = ()
    ) -> None: ...


def new_memory(variant: str, level: str) -> Memory | None:
    """A fresh memory for a seat played at `level`, or None when that player keeps none."""
    from app.bots import REMEMBERING

    if (variant, level) in REMEMBERING:
        from app.bots.team import new_memory as team_memory

        return team_memory()
    return None


def observe_step(game: Game, seat: int, memory: Memory, events: list[dict[str, Any]]) -> None:
    """Show `seat`'s memory the step `game` just made: the action's events as that seat
    received them, then its view now."""
    shown = game.engine.redact_events(game.state, events, seat)
    memory.observe(game.view(seat), shown)


class Keeper:
    """One seat's memory with the replayed game that feeds it, for the server's driver:
    `catch_up(record)` shows the seat every step logged since the last call (a restart
    starts from an empty keeper and so replays the whole log)."""

    def __init__(self, record: Mapping[str, Any], seat: int, memory: Memory) -> None:
        self.seat = seat
        self.memory = memory
        self.game = Game.from_record({**record, "actions": []})
        memory.observe(self.game.view(seat))

    def catch_up(self, record: Mapping[str, Any]) -> Memory:
        for entry in record["actions"]:
            if entry["seq"] <= self.game.seq:
                continue
            events = self.game.apply(entry["seat"], entry["action"])
            observe_step(self.game, self.seat, self.memory, events)
        return self.memory


def replay(record: Mapping[str, Any], seat: int, level: str) -> Memory | None:
    """The memory `seat` would hold at the end of `record` had it been fed live."""
    memory = new_memory(str(record["variant"]), level)
    if memory is None:
        return None
    return Keeper(record, seat, memory).catch_up(record)
