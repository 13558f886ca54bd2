"""The rules package: pure, deterministic game engines and the registry of variants.

Rooms, storage, replays and bots find an engine here by variant id and talk to it only
through the `Engine` interface (`base.py`), or through the `Game` wrapper.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules import cards, classic, master, team
from app.rules.base import (
    RULES_VERSION,
    VERSION_KEY,
    Engine,
    IllegalAction,
    InvalidOptions,
    rng_for,
    rules_version,
    seed_hash,
)
from app.rules.game import Game

ENGINES: dict[str, Engine] = {
    classic.ENGINE.variant: classic.ENGINE,
    master.ENGINE.variant: master.ENGINE,
    cards.ENGINE.variant: cards.ENGINE,
    team.ENGINE.variant: team.ENGINE,
}


class UnknownVariant(ValueError):
    """A variant id with no engine (a clear ValueError, not a bare KeyError)."""


def get_engine(variant: str) -> Engine:
    """The engine of `variant`; raises `UnknownVariant` naming the known ones."""
    engine = ENGINES.get(variant)
    if engine is None:
        known = ", ".join(sorted(ENGINES))
        raise UnknownVariant(f"unknown variant {variant!r}; known variants: {known}")
    return engine


def new_options(variant: str, raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """The parsed options of a new room or game: played by the current rules unless
    `rules_version` says otherwise. (Parsing a stored record's options never adds a
    version: there, its absence means version 1.)"""
    stamped = (
        {VERSION_KEY: RULES_VERSION, **(raw or {})}
        if raw is None or isinstance(raw, Mapping)
        else raw
    )
    return get_engine(variant).parse_options(stamped)


def seat_colors(variant: str, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The colours a game of `variant` with `options` deals its seats, in seat order: a
    room shows its seats in them before the game is dealt."""
    get_engine(variant)  # an unknown variant is refused as everywhere
    module = {"classic": classic, "master": master, "team": team, "cards": cards}[variant]
    return module.seat_colors(options)


def max_actions(variant: str) -> int:
    """The most actions a game of `variant` may have (live and imported alike)."""
    return get_engine(variant).max_actions


__all__ = [
    "ENGINES",
    "RULES_VERSION",
    "Engine",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "UnknownVariant",
    "get_engine",
    "max_actions",
    "new_options",
    "rng_for",
    "rules_version",
    "seat_colors",
    "seed_hash",
]
