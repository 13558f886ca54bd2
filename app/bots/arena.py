"""Games between computer players, without a server: for the tests and `bench/bots.py`.

Each decision is handed the seat's view and legal list only (what the server's computer
seats get), plus, for a player that keeps one, its memory fed with that seat's views and
events after every action (`app.bots.memory`), and an rng seeded from the game's seed,
the seat and the sequence number, so a game is reproducible from its seed and levels.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots import Level, choose
from app.bots.memory import new_memory, observe_step
from app.rules import RULES_VERSION, Game


@dataclass(slots=True)
class Outcome:
    """How a game between computer players went."""

    variant: str
    levels: tuple[Level, ...]
    result: dict[str, Any] | None  # None: stopped at the action limit
    actions: int
    turns: int
    # per-decision CPU time of the deciding process (on a shared machine the wall clock
    # measures the neighbours too), and wall-clock time
    seconds: dict[Level, list[float]] = field(default_factory=dict)
    wall: dict[Level, list[float]] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return [] if self.result is None else list(self.result.get("winners", []))


def play(
    variant: str,
    levels: Sequence[Level],
    seed: str,
    options: Mapping[str, Any] | None = None,
    max_actions: int = 5000,
) -> Outcome:
    """Play one game to its end (or `max_actions`), seat i at `levels[i]`: by the current
    rules, as a new room is, unless `options` names a `rules_version` (a game made with
    `Game.new` and no version plays version 1, for old records' sake)."""
    names = [f"Computer {i + 1}" for i in range(len(levels))]
    stamped = {"rules_version": RULES_VERSION, **(options or {})}
    game = Game.new(variant, names, seed=seed, options=stamped)
    outcome = Outcome(variant, tuple(levels), None, 0, 0)
    memories = {seat: new_memory(variant, level) for seat, level in enumerate(levels)}
    for seat, memory in memories.items():
        if memory is not None:
            memory.observe(game.view(seat))
    last = None
    while game.to_move is not None and game.seq < max_actions:
        seat = game.to_move
        if seat != last:
            outcome.turns += 1
            last = seat
        level = levels[seat]
        view, legal = game.view(seat), game.legal_actions(seat)
        rng = random.Random(f"{seed}/{seat}/{game.seq}")
        start, cpu = time.perf_counter(), time.process_time()
        action = choose(variant, level, view, legal, rng, memories[seat])
        outcome.seconds.setdefault(level, []).append(time.process_time() - cpu)
        outcome.wall.setdefault(level, []).append(time.perf_counter() - start)
        events = game.apply(seat, action)
        for watcher, memory in memories.items():
            if memory is not None:
                observe_step(game, watcher, memory, events)
    outcome.result = game.result
    outcome.actions = game.seq
    return outcome
