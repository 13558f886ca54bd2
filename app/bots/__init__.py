"""Players that choose actions from what they are shown: their view and their `legal` list.

A bot sees exactly what a human in its seat would see, so it can play over the public
protocol like any other client, and the server's computer seats (takeovers, timeouts,
"play against the computer") decide through `choose` below and nothing else: the rooms
never branch on the variant or the level, and the players behind this one door can grow
stronger without the rooms noticing.

One module per game (`classic.py`, `master.py`, `team.py`, `cards.py`), each with a
`choose_easy`, `choose_medium` and `choose_hard`; `maze.py` holds what the three sliding
games share.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any, Literal

Action = dict[str, Any]
Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
Chooser = Callable[[dict[str, Any], list[Action], random.Random], Action]
# The players that read a memory (see `app.bots.memory`); the others ignore one.
REMEMBERING: frozenset[tuple[str, str]] = frozenset({("team", "hard")})
# What a person holds and spends at their own choice: Master's cards (a coin, a re-roll, a
# double turn) and the dragon's duel, which risks a treasure. A computer standing in for
# a person who is away or out of time keeps them for their return: a turn played for
# Finn spent his 12 on a double turn he never chose, for good.
SPENDING: dict[str, frozenset[str]] = {
    "master": frozenset({"coin", "reroll", "double_turn", "challenge"}),
}


def keeping(variant: str, legal: list[Action]) -> list[Action]:
    """The legal actions that spend nothing the seat holds, or all of them if none does."""
    spends = SPENDING.get(variant, frozenset())
    kept = [action for action in legal if action["type"] not in spends]
    return kept or legal


def label(level: Level) -> str:
    """The seat name a computer player gets, which says what it is: "Computer (hard)"."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    return f"Computer ({level})"


def _any_legal(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Any legal action: for a variant without players of its own (none today)."""
    return rng.choice(legal)


@cache
def players() -> dict[str, dict[str, Chooser]]:
    """variant -> level -> chooser (imported on first use: the rules import nothing here)."""
    from app.bots import cards, classic, master, team

    return {
        module.VARIANT: {
            "easy": module.choose_easy,
            "medium": module.choose_medium,
            "hard": module.choose_hard,
        }
        for module in (classic, master, team, cards)
    }


def choose(
    variant: str,
    level: Level,
    view: dict[str, Any],
    legal: list[Action],
    rng: random.Random,
    memory: Any = None,
    *,
    keep: bool = False,
) -> Action:
    """One of `legal` for the seat whose `view` this is, at `level`; with `keep`, one that
    spends nothing the seat holds when such a choice is legal (`keeping`).

    A function of its arguments only: the same view, legal list, rng state (and memory,
    for a player that keeps one: `app.bots.memory`, built from the seat's earlier views
    only) give the same action, which is what lets a takeover or a timeout be tested and
    reproduced. Without a memory every player still plays, from the view alone.
    """
    if not legal:
        raise ValueError("no legal action to choose from")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    chooser = players().get(variant, {}).get(level, _any_legal)
    if keep:
        legal = keeping(variant, legal)
    if memory is not None and (variant, level) in REMEMBERING:
        return chooser(view, legal, rng, memory)  # type: ignore[call-arg]
    return chooser(view, legal, rng)
