"""Players that choose actions from what they are shown: their view and their `legal` list.

A bot sees exactly what a human in its seat would see, so it can play over the public
protocol like any other client, and the server's computer seats (takeovers, timeouts,
"play against the computer") decide through `choose` below and nothing else: the rooms
never branch on the variant or the level, and the players behind this one door can grow
stronger without the rooms noticing.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal

Action = dict[str, Any]
Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
Chooser = Callable[[dict[str, Any], list[Action], random.Random], Action]


def _any_legal(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The simplest player: any legal action (a stand-in where no better player exists)."""
    return rng.choice(legal)


def _players() -> dict[str, Chooser]:
    from app.bots import greedy, master

    return {"classic": greedy.choose, "master": master.choose}


def choose(
    variant: str, level: Level, view: dict[str, Any], legal: list[Action], rng: random.Random
) -> Action:
    """One of `legal` for the seat whose `view` this is, at `level`.

    A function of its arguments only: the same view, legal list and rng state give the
    same action, which is what lets a takeover or a timeout be tested and reproduced.
    """
    if not legal:
        raise ValueError("no legal action to choose from")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    return _players().get(variant, _any_legal)(view, legal, rng)
