"""Shared by the computer players' tests: positions from seeded games, frozen views."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from app.rules import Game

V2 = {"rules_version": 2}
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("classic", V2),
    ("classic", {"events": True, **V2}),
    ("classic", {"events": True, "return_home": False, **V2}),
    ("classic", {"events": True}),  # rules version 1: games stored before version 2
    ("master", V2),
    ("team", {"mode": "introductory", **V2}),
    ("team", {"mode": "standard", **V2}),
    ("team", {"mode": "expert", **V2}),
    ("cards", V2),
)


def variant_id(case: tuple[str, dict[str, Any]]) -> str:
    variant, options = case
    return variant + "".join(f"-{k}={v}" for k, v in sorted(options.items()))


def positions(
    variant: str, options: dict[str, Any], seed: str, players: int = 2, steps: int = 400
) -> Iterator[Game]:
    """The positions of a game played by random legal actions, one per action."""
    game = Game.new(variant, [f"P{i}" for i in range(players)], seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.to_move is None:
            return
        yield game
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))


class FrozenDict(dict[str, Any]):
    """A dict that refuses every change: a player handed one cannot write to its view."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a view handed to a player is read-only")

    __setitem__ = __delitem__ = _refuse  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return id(self)


def freeze(value: Any) -> Any:
    """A deep read-only copy of a JSON value (dicts frozen, lists as tuples)."""
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Back to plain JSON, to compare a frozen action with a legal one."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value


def position_after(
    variant: str, options: dict[str, Any], seed: str, players: int, steps: int
) -> Game:
    """The game after `steps` random legal actions (fewer if it ended first)."""
    game = Game.new(variant, [f"P{i}" for i in range(players)], seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.to_move is None:
            break
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    return game


# What the seat to move faces: the turn's phase and the kinds of legal actions, plus a
# duel in another's turn and a bonus turn (Master), a spell on offer (Team).
Phase = tuple[str, ...]


def phase_key(variant: str, view: dict[str, Any], legal: list[dict[str, Any]]) -> Phase:
    """What a seat faces, as the audits of the computer players tell mid-turn questions
    apart: the phase, the kinds of its legal actions, and what else changes the decision."""
    turn = view["turn"]
    key = [str(turn.get("phase")), *sorted({str(a["type"]) for a in legal})]
    if variant == "master":
        if turn["actor"] != turn["seat"]:
            key.append("other's duel")
        if turn.get("bonus"):
            key.append("bonus turn")
    if variant == "team" and any(a.get("spell") for a in legal):
        key.append("spell")
    return tuple(key)
