"""Helpers to build exact card-game positions in tests.

A test starts from a real game (fixed seed) and then replaces the layout, hands and pile,
so that each test shows only the position it is about.
"""

from __future__ import annotations

from typing import Any

from app.rules import Game
from app.rules.board import parse_open
from app.rules.cards import DECK, CardsState, Place, parse_action

JSON = dict[str, Any]
Cell = tuple[int, int]


def new_game(players: int = 2, seed: str = "cards-seed") -> Game:
    return Game.new("cards", [f"P{i}" for i in range(players)], seed)


def state(game: Game) -> CardsState:
    return game.state


def card(motif: str, shape: str, nth: int = 0) -> int:
    """The id of the `nth` card of this motif and shape (an L motif has two)."""
    ids = [i for i, c in enumerate(DECK) if c.motif == motif and c.shape == shape]
    return ids[nth]


def lay(game: Game, cards: dict[Cell, tuple[str, str, str]]) -> None:
    """Replace the layout: cell -> (motif, shape, openings as laid, e.g. "NS").
    The same motif and shape twice takes that shape's next card."""
    used: dict[tuple[str, str], int] = {}
    layout: dict[Cell, tuple[int, int]] = {}
    for cell, (motif, shape, opens) in cards.items():
        nth = used.get((motif, shape), 0)
        used[(motif, shape)] = nth + 1
        layout[cell] = (card(motif, shape, nth), parse_open(opens))
    game.state.layout.cards = layout


def set_hand(game: Game, seat: int, cards: list[tuple[str, str]]) -> None:
    game.state.players[seat].hand = [card(m, s) for m, s in cards]


def play(game: Game, *notations: str) -> list[JSON]:
    """Apply actions in notation for whoever is to move; the events of all of them."""
    events: list[JSON] = []
    for text in notations:
        events += game.apply(game.to_move, parse_action(text).to_dict())
    return events


def types(events: list[JSON]) -> list[str]:
    return [e["type"] for e in events]


def nothing_to_take() -> tuple[Game, JSON]:
    """Ann (rules version 2) is to place a ghost joined to the ghost at (1, 0), which may
    not go (the layout would come apart): the turn passes with nothing taken."""
    game = Game.new("cards", ["Ann", "Bob"], "cards-seed", {"rules_version": 2})
    lay(game, {
        (0, 0): ("owl", "I", "EW"),
        (1, 0): ("ghost", "I", "EW"),
        (2, 0): ("chest", "I", "EW"),
    })  # fmt: skip
    set_hand(game, 0, [("ghost", "T"), ("map", "I")])
    return game, Place(0, (3, 0), 0).to_dict()
