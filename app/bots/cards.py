"""Computer players for Labyrinth, the card game, from their own view and `legal` only.

- `easy`: places at random half the time and takes whatever comes to hand.
- `medium`: one-turn greedy: the placement that takes the most cards, then the biggest
  take.
- `hard`: the biggest take too, and among placements and takes of equal worth the one
  that leaves the next player least: for each motif, the chance that an unseen hand
  holds it (from the cards not yet seen anywhere) times the most cards of that motif one
  card could then join; it also keeps its own next card's chances in mind.

The layout is rebuilt from the view with the engine's own `Layout` (pure geometry on
public cards), so "joined by a path" means exactly what the rules mean.
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

from app.bots.maze import best_of, by_type, fallback
from app.rules.board import parse_open, rotate
from app.rules.cards import DECK, ENGINE, MOTIFS, Layout, neighbours

Action = dict[str, Any]
Cell = tuple[int, int]
VARIANT = "cards"
CARDS_PER_MOTIF = len(DECK) // len(MOTIFS)
KEEP_WEIGHT = 0.3
RISK_WEIGHT = 1.0


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


def _unseen_motifs(view: dict[str, Any]) -> tuple[dict[str, int], int]:
    """How many cards of each motif nobody has seen (in other hands or the pile)."""
    left = dict.fromkeys(MOTIFS, CARDS_PER_MOTIF)
    me = view["players"][view["you"]]
    seen = [c["motif"] for c in view["layout"]] + [c["motif"] for c in me.get("hand", [])]
    for player in view["players"]:
        seen += player["taken"]
    seen += [d["motif"] if isinstance(d, dict) else d for d in view.get("discarded", [])]
    for motif in seen:
        if motif in left:
            left[motif] -= 1
    return left, sum(left.values())


def _exposure(layout: Layout) -> dict[str, int]:
    """Per motif, the most cards of it in one path system with an open end: what one new
    card of that motif, laid on that end, could join."""
    best: dict[str, int] = {}
    seen: set[Cell] = set()
    for cell in layout.cards:
        if cell in seen:
            continue
        system = layout.paths_from(cell)
        seen.update(system)
        open_end = any(
            layout.opens(c) & bit and other not in layout.cards
            for c in system
            for bit, other, _ in neighbours(c)
        )
        if not open_end:
            continue
        counts: dict[str, int] = {}
        for c in system:
            motif = layout.motif(c)
            counts[motif] = counts.get(motif, 0) + 1
        for motif, count in counts.items():
            best[motif] = max(best.get(motif, 0), count)
    return best


def _risk(view: dict[str, Any], layout: Layout) -> float:
    """Cards the next player may expect to take from this layout."""
    players = view["players"]
    rival = players[(view["you"] + 1) % len(players)]
    hand = rival.get("hand_count", 0)
    left, unseen = _unseen_motifs(view)
    if not hand or not unseen:
        return 0.0
    risk = 0.0
    for motif, count in _exposure(layout).items():
        held = 1 - comb(unseen - left[motif], hand) / comb(unseen, hand) if left[motif] else 0
        risk += held * count
    return risk


def _keep_value(layout: Layout, kept: list[dict[str, Any]]) -> float:
    exposure = _exposure(layout)
    return max((exposure.get(c["motif"], 0) for c in kept), default=0)


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


def choose_hard(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kinds = by_type(legal)
    layout = layout_from_view(view)
    hand = view["players"][view["you"]].get("hand", [])
    if "take" in kinds:
        scored = []
        for action in _biggest(kinds["take"]):
            trial = layout.clone()
            for x, y in action["cards"]:
                del trial.cards[(x, y)]
            scored.append((-_risk(view, trial), action))
        return best_of(scored, rng)
    if "place" in kinds:
        scored = []
        for action in kinds["place"]:
            trial = _placed_layout(layout, hand, action)
            take = best_take(trial, tuple(action["pos"]))
            for cell in take:
                del trial.cards[cell]
            kept = [c for i, c in enumerate(hand) if i != action["card"]]
            value = (
                len(take)
                - RISK_WEIGHT * _risk(view, trial)
                + KEEP_WEIGHT * _keep_value(trial, kept)
            )
            scored.append((value, action))
        return best_of(scored, rng)
    if "discard" in kinds:
        # Throw away the card whose motif this layout offers least.
        exposure = _exposure(layout)
        return min(kinds["discard"], key=lambda a: exposure.get(hand[a["card"]]["motif"], 0))
    return fallback(legal, rng)
