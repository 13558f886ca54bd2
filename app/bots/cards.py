"""Computer players for Labyrinth, the card game, from their own view and `legal` only.

- `easy`: places at random half the time and takes whatever comes to hand.
- `medium`: one-turn greedy: the placement that takes the most cards, then the biggest
  take.
- `hard`: weighs each placement by the cards it takes now, less what the layout left
  then offers the next player (the expected best take of a hand drawn from the cards
  this seat has not seen), plus what it offers its own kept card and next draw; cards
  holding the layout together cannot be taken, which it counts (`cards_outlook`). Of
  the biggest takes it takes the one leaving that outlook best.

The layout is rebuilt from the view with the engine's own `Layout` (pure geometry on
public cards), so "joined by a path" means exactly what the rules mean.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots.cards_outlook import Kind, expected_best, offers, shape_of, unseen_kinds
from app.bots.maze import best_of, by_type, fallback
from app.rules.board import parse_open, rotate
from app.rules.cards import DECK, ENGINE, MOTIFS, Layout

Action = dict[str, Any]
Cell = tuple[int, int]
VARIANT = "cards"
CARDS_PER_MOTIF = len(DECK) // len(MOTIFS)
RISK_WEIGHT = 1.0  # a card the next player may take weighs as one taken now
NEXT_WEIGHT = 0.5  # a card this seat may take next turn, the rival playing between


def _card_id(motif: str) -> int:
    """An id of the deck with this motif: the layout only asks a card for its motif."""
    return MOTIFS.index(motif) * CARDS_PER_MOTIF


def layout_from_view(view: dict[str, Any]) -> Layout:
    return Layout(
        {
            (c["pos"][0], c["pos"][1]): (_card_id(c["motif"]), parse_open(c["open"]))
            for c in view["layout"]
        }
    )


def _candidates(layout: Layout, placed: Cell) -> list[Cell]:
    """Cards of the placed card's motif joined to it by a path (what it may take)."""
    motif = layout.motif(placed)
    return [c for c in layout.paths_from(placed) if c != placed and layout.motif(c) == motif]


def best_take(layout: Layout, placed: Cell) -> tuple[Cell, ...]:
    """The largest take the rules allow after placing on `placed`."""
    choices = ENGINE.take_choices(layout, _candidates(layout, placed))
    return max(choices, key=lambda t: len(t.cells)).cells if choices else ()


def _placed_layout(layout: Layout, hand: list[dict[str, Any]], action: Action) -> Layout:
    card = hand[action["card"]]
    trial = layout.clone()
    cell = (action["pos"][0], action["pos"][1])
    opens = rotate(parse_open(card["open"]), action["rotation"])
    trial.cards[cell] = (_card_id(card["motif"]), opens)
    return trial


def _take_action(cells: tuple[Cell, ...]) -> Action:
    return {"type": "take", "cards": [list(c) for c in cells]}


def _biggest(takes: list[Action]) -> list[Action]:
    size = max(len(a["cards"]) for a in takes)
    return [a for a in takes if len(a["cards"]) == size]


# -- the three levels -------------------------------------------------------------------


def choose_easy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kinds = by_type(legal)
    if "take" in kinds:
        return rng.choice(kinds["take"])
    if "place" in kinds and rng.random() < 0.5:
        return rng.choice(kinds["place"])
    return choose_medium(view, legal, rng)


def choose_medium(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kinds = by_type(legal)
    if "take" in kinds:
        return rng.choice(_biggest(kinds["take"]))
    if "place" in kinds:
        layout = layout_from_view(view)
        hand = view["players"][view["you"]]["hand"]
        scored = []
        for action in kinds["place"]:
            trial = _placed_layout(layout, hand, action)
            scored.append((float(len(best_take(trial, tuple(action["pos"])))), action))
        return best_of(scored, rng)
    if "discard" in kinds:
        return rng.choice(kinds["discard"])
    return fallback(legal, rng)


def _outlook(
    view: dict[str, Any], layout: Layout, kept: list[dict[str, Any]], pool: dict[Kind, float]
) -> float:
    """What a layout left after this seat's turn is worth to it beyond the cards it took:
    its own next take (the kept card, with the one it will draw) less what the next
    player may expect to take from it."""
    values = offers(layout)
    players = view["players"]
    you = view["you"]
    rivals = [p for p in players[you + 1 :] + players[:you] if p.get("hand_count")]
    risk = expected_best(values, pool, rivals[0]["hand_count"]) if rivals else 0.0
    sure = [values.get((c["motif"], shape_of(parse_open(c["open"]))), 0) for c in kept]
    draws = 1 if view.get("pile") else 0
    return NEXT_WEIGHT * expected_best(values, pool, draws, sure) - RISK_WEIGHT * risk


def choose_hard(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The biggest take, then the placement (or the take) whose layout gives the next
    player least and keeps most for its own next turn."""
    kinds = by_type(legal)
    layout = layout_from_view(view)
    hand = list(view["players"][view["you"]].get("hand", ()))
    pool = unseen_kinds(view)
    if "take" in kinds:
        scored = []
        for action in _biggest(kinds["take"]):
            trial = layout.clone()
            for x, y in action["cards"]:
                del trial.cards[(x, y)]
            scored.append((_outlook(view, trial, hand, pool), action))
        return best_of(scored, rng)
    if "place" in kinds:
        scored = []
        seen: dict[tuple[int, Cell, int], float] = {}
        for action in kinds["place"]:
            card = hand[action["card"]]
            cell = (action["pos"][0], action["pos"][1])
            key = (action["card"], cell, rotate(parse_open(card["open"]), action["rotation"]))
            if key not in seen:
                trial = _placed_layout(layout, hand, action)
                take = best_take(trial, cell)
                for taken in take:
                    del trial.cards[taken]
                kept = [c for i, c in enumerate(hand) if i != action["card"]]
                seen[key] = len(take) + _outlook(view, trial, kept, pool)
            scored.append((seen[key], action))
        return best_of(scored, rng)
    if "discard" in kinds:
        # Keep the card this layout offers most.
        values = offers(layout)
        return min(
            kinds["discard"],
            key=lambda a: values.get(
                (hand[a["card"]]["motif"], shape_of(parse_open(hand[a["card"]]["open"]))), 0
            ),
        )
    return fallback(legal, rng)
