"""Computer players for Master Labyrinth, from their own view and `legal` only.

- `easy`: pushes at random half the time, walks to a token when it sees one most of the
  time, never re-rolls, rarely takes a double turn, sometimes forgets its coin.
- `medium` (`choose`, kept under that name for the tests that drive games with it): the
  one-turn greedy player described below.
- `hard`: scores every push and stop by the token it takes (its value, a coin when it
  holds the matching card), the dragon die's six faces (its own risk of a duel and the
  chance that a rival duels instead), and next turn's chances when nothing is in reach;
  plays re-rolls and double turns with the card it will miss least; challenges the dragon
  only when the 15 points make it the winner.

The greedy player (medium):
Random play rarely ends a master game (it ends only when someone wins the final duel), so
tests and load runs use this: push so that the lowest token (or, once the final duel is
open, the cell in front of the dragon's head) becomes reachable, walk there, play every
card for a coin, re-roll failed rolls, always challenge.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots.maze import (
    DIST,
    after_push,
    best_of,
    board_from_view,
    by_type,
    fallback,
    nearest,
    slot_of,
)
from app.rules.board import SLOTS, Board, Slot, carried, cell_of, cells_of, row_col

Action = dict[str, Any]
VARIANT = "master"
LAIR_MASK = 1 << cell_of(3, 3)


def _goals(view: dict[str, Any], here: int) -> set[int]:
    """The cells the player wants to walk onto: the lowest tokens' (not its own cell, as
    staying takes nothing), or the cell in front of the dragon's head in the final."""
    if view["stage"] == "final":
        return {cell_of(*view["dragon"]["front"])}
    lowest = view["lowest"]
    return {cell_of(*t["pos"]) for t in view["tokens"] if t["value"] == lowest} - {here}


def _closeness(reach: int, goals: set[int]) -> int:
    if not goals:
        return 0
    if any(reach >> g & 1 for g in goals):
        return 100
    return -min(
        abs(r1 - r2) + abs(c1 - c2)
        for (r1, c1) in map(row_col, cells_of(reach))
        for (r2, c2) in map(row_col, goals)
    )


def _best_push(
    view: dict[str, Any], board: Board, pushes: list[Action], rng: random.Random
) -> Action:
    me = view["players"][view["you"]]
    here = cell_of(*me["pos"])
    final = view["stage"] == "final"
    scored: list[tuple[int, Action]] = []
    for action in pushes:
        slot = Slot(action["side"], action["index"])
        trial = board.clone()
        trial.push(slot, action["rotation"])
        moved = {
            **view,
            "tokens": [
                {"pos": list(row_col(carried(slot, cell_of(*t["pos"])))), "value": t["value"]}
                for t in view["tokens"]
            ],
        }
        start = carried(slot, here)
        goals = _goals(moved, start) if not final else _goals(view, start)
        goals.discard(cell_of(3, 3))
        scored.append((_closeness(trial.reach_mask_blocked(start, LAIR_MASK), goals), action))
    top = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == top])


def choose(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """One of `legal` for the seat of `view`."""
    kinds = {a["type"]: a for a in legal}
    for preferred in ("coin", "challenge"):
        if preferred in kinds:
            return kinds[preferred]
    if "reroll" in kinds:
        roll = view["turn"]["roll"]
        if view["turn"]["phase"] == "reroll" or roll <= 3:
            return kinds["reroll"]
        return kinds["accept"]
    if "double_turn" in kinds:
        return kinds["double_turn"] if rng.random() < 0.5 else kinds["end_turn"]
    pushes = [a for a in legal if a["type"] == "push"]
    if pushes:
        return _best_push(view, board_from_view(view), pushes, rng)
    moves = [a for a in legal if a["type"] == "move"]
    if moves:
        here = cell_of(*view["players"][view["you"]]["pos"])
        goals = _goals(view, here)
        hits = [m for m in moves if cell_of(*m["to"]) in goals]
        return hits[0] if hits else rng.choice(moves)
    return rng.choice(legal)


choose_medium = choose


# -- easy -------------------------------------------------------------------------------


def choose_easy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """A beginner: half its pushes at random, often a stroll instead of a token."""
    kinds = by_type(legal)
    if "coin" in kinds:
        return kinds["coin"][0] if rng.random() < 0.5 else kinds["no_coin"][0]
    if "accept" in kinds:
        return kinds["accept"][0]
    if "end_turn" in kinds:
        doubles = kinds.get("double_turn", [])
        return rng.choice(doubles) if doubles and rng.random() < 0.2 else kinds["end_turn"][0]
    if "challenge" in kinds:
        return kinds["challenge"][0]
    if "push" in kinds:
        if rng.random() < 0.5:
            return rng.choice(kinds["push"])
        return _best_push(view, board_from_view(view), kinds["push"], rng)
    if "move" in kinds:
        moves = kinds["move"]
        here = cell_of(*view["players"][view["you"]]["pos"])
        goals = _goals(view, here)
        hits = [m for m in moves if cell_of(*m["to"]) in goals]
        if hits and rng.random() < 0.6:
            return hits[0]
        return rng.choice(moves)
    return fallback(legal, rng)


# -- hard -------------------------------------------------------------------------------

FACINGS = "NESW"
FRONT = {"N": cell_of(2, 3), "E": cell_of(3, 4), "S": cell_of(4, 3), "W": cell_of(3, 2)}
LAIR = cell_of(3, 3)
COIN = 5.0
REACH_BONUS = 100.0
SECOND_PLY_PUSHES = 10
DENY_PUSHES = 8
DENY_WEIGHT = 0.7
DENY_CHANCE = 0.75  # when no take is in reach (`_hard_push`)
DRAGON = 15
SECOND_PLY_CELLS = 3


def _lose_chance(low_cards: int) -> float:
    """A duel is lost on 1-3; each 1-6 card in hand is one more try."""
    return 0.5 ** (1 + min(low_cards, 3))


def _duel_balance(
    view: dict[str, Any], board: Board, positions: list[int], guardians: dict[str, int]
) -> float:
    """Expected points this seat gains from the dragon die thrown after a take: rivals'
    losses count for it, its own against it (each face 1/6, the nearest adventurers
    duel, those without treasure duel for nothing)."""
    you = view["you"]
    players = view["players"]
    count = len(players)
    order = [(you + k) % count for k in range(count)]
    facing = FACINGS.index(view["dragon"]["facing"])
    sources: list[list[int]] = []
    for turns in range(1, 5):
        front = FRONT[FACINGS[(facing + turns) % 4]]
        sources.append([0, *board.distance_layers(front, LAIR_MASK)])
    for cell in guardians.values():
        sources.append([] if cell == LAIR else board.distance_layers(cell, LAIR_MASK))
    balance = 0.0
    for layers in sources:
        for layer in layers:
            here = [s for s in order if layer >> positions[s] & 1]
            if not here:
                continue
            for seat in here:
                treasures = players[seat]["treasures"]
                if not treasures:
                    continue
                low = players[seat].get("low_count", 0)
                loss = min(treasures) * _lose_chance(low)
                balance += loss if seat != you else -loss
            break
    return balance / 6


def _carried_view(view: dict[str, Any], slot: Slot) -> tuple[list[int], dict[str, int], list]:
    """Pawns, guardians and tokens after a push at `slot` (all ride their tiles)."""
    positions = [carried(slot, cell_of(*p["pos"])) for p in view["players"]]
    guardians = {k: carried(slot, cell_of(*v)) for k, v in view["guardians"].items()}
    tokens = [(carried(slot, cell_of(*t["pos"])), t["value"]) for t in view["tokens"]]
    return positions, guardians, tokens


def _take_value(view: dict[str, Any], value: int) -> float:
    me = view["players"][view["you"]]
    return value + (COIN if value in me.get("hand", []) else 0.0)


def _targets(view: dict[str, Any], tokens: list[tuple[int, int]]) -> dict[int, int]:
    """cell -> value of the tokens that may be taken now (the lowest value, not under the
    lair); in the final, the cell in front of the dragon's head (value 0)."""
    if view["stage"] == "final":
        return {FRONT[view["dragon"]["facing"]]: 0}
    if not tokens:
        return {}
    lowest = min(v for _, v in tokens)
    return {c: v for c, v in tokens if v == lowest and c != LAIR}


def _stop_score(
    view: dict[str, Any],
    board: Board,
    start: int,
    stop: int,
    positions: list[int],
    guardians: dict[str, int],
    targets: dict[int, int],
) -> float:
    """Ending the move on `stop` (walking from `start`): a take, with the dragon's duels
    that follow it, or the final duel's cell."""
    if stop in targets and (stop != start or view["stage"] == "final"):
        if view["stage"] == "final":
            return REACH_BONUS
        moved = positions.copy()
        moved[view["you"]] = stop
        value = _take_value(view, targets[stop])
        return REACH_BONUS + value + _duel_balance(view, board, moved, guardians)
    return 0.0


def _next_turn_chances(board: Board, cell: int, targets: dict[int, int]) -> float:
    """How many of next turn's pushes let a pawn on `cell` walk to a target."""
    if not targets:
        return 0.0
    hits = 0
    for slot in SLOTS:
        goals = [g for g in (after_push(slot, t) for t in targets) if g is not None]
        goals = [g for g in goals if g != LAIR]
        if not goals:
            continue
        moved = carried(slot, cell)
        for rotation in range(4):
            trial = board.clone()
            trial.push(slot, rotation)
            reach = trial.reach_mask_blocked(moved, LAIR_MASK)
            if any(reach >> g & 1 for g in goals) and moved not in goals:
                hits += 1
    return float(hits)


def _best_stop(
    view: dict[str, Any],
    board: Board,
    start: int,
    cells: list[int],
    positions: list[int],
    guardians: dict[str, int],
    targets: dict[int, int],
    deep: bool,
) -> float:
    best = max(_stop_score(view, board, start, c, positions, guardians, targets) for c in cells)
    if best > 0 or not deep or not targets:
        return best
    ranked = sorted(cells, key=lambda c: min(DIST[c][t] for t in targets))
    return (
        max(
            _next_turn_chances(board, c, targets) - min(DIST[c][t] for t in targets) / 100
            for c in ranked[:SECOND_PLY_CELLS]
        )
        / 100
    )


def _rival_threat(
    view: dict[str, Any],
    board: Board,
    positions: list[int],
    tokens: list[tuple[int, int]],
    forbidden: Slot,
) -> float:
    """The most the next player could take on their turn from this board: a token of the
    lowest value left (walked onto from another cell), or in the final the dragon."""
    players = view["players"]
    rival = (view["you"] + 1) % len(players)
    if view["stage"] == "final":
        targets = {FRONT[view["dragon"]["facing"]]: float(DRAGON)}
    elif tokens:
        lowest = min(v for _, v in tokens)
        targets = {c: float(v) for c, v in tokens if v == lowest and c != LAIR}
    else:
        return 0.0
    best = 0.0
    for slot in SLOTS:
        if slot == forbidden:
            continue
        start = carried(slot, positions[rival])
        moved = {}
        for cell, value in targets.items():
            after = after_push(slot, cell)
            if after is not None and after not in (LAIR, start):
                moved[after] = value
        if not moved or max(moved.values()) <= best:
            continue
        for rotation in range(4):
            trial = board.clone()
            trial.push(slot, rotation)
            reach = trial.reach_mask_blocked(start, LAIR_MASK)
            for cell, value in moved.items():
                if reach >> cell & 1 and value > best:
                    best = value
    return best


def _hard_push(view: dict[str, Any], pushes: list[Action], rng: random.Random) -> Action:
    board = board_from_view(view)
    you = view["you"]
    final = view["stage"] == "final"
    first = []
    for action in pushes:
        slot = slot_of(action)
        trial = board.clone()
        trial.push(slot, action["rotation"])
        positions, guardians, tokens = _carried_view(view, slot)
        targets = _targets(view, tokens)
        start = positions[you]
        reach = trial.reach_mask_blocked(start, LAIR_MASK)
        cells = cells_of(reach)
        score, stop = max(
            (_stop_score(view, trial, start, c, positions, guardians, targets), c) for c in cells
        )
        if score == 0 and targets:
            score = -min(nearest(reach, t) for t in targets) / 100
        first.append((score, stop, action, trial, positions, guardians, tokens, targets))
    first.sort(key=lambda item: item[0], reverse=True)
    scored = []
    if first[0][0] > 0:
        # Takes: among the best, the one that leaves the next player least.
        for score, stop, action, trial, positions, _, tokens, _ in first[:DENY_PUSHES]:
            if score <= 0:
                break
            if final:
                scored.append((score, action))
                continue
            moved = positions.copy()
            moved[you] = stop
            left = [t for t in tokens if t[0] != stop or t[1] != tokens_value(tokens, stop)]
            threat = _rival_threat(view, trial, moved, left, slot_of(action).opposite)
            scored.append((score - DENY_WEIGHT * threat, action))
        return best_of(scored, rng)
    low = min((v for v in (t["value"] for t in view["tokens"])), default=DRAGON)
    # Denying the next player when nothing is in reach, but not every time: hard players
    # who all deny each other can leave the lowest token where none of them ever reaches
    # it (three pawns on one cell beside it, each push that would open the way refused
    # as a gift to the next), and the game never ends.
    deny = DENY_WEIGHT if rng.random() < DENY_CHANCE else 0.0
    for score, _, action, trial, positions, guardians, tokens, targets in first[:SECOND_PLY_PUSHES]:
        start = positions[you]
        cells = cells_of(trial.reach_mask_blocked(start, LAIR_MASK))
        deep = _best_stop(view, trial, start, cells, positions, guardians, targets, True)
        chances = deep * 100 / 48 * (DRAGON if final else low) / 2
        threat = _rival_threat(view, trial, positions, tokens, slot_of(action).opposite)
        scored.append((chances - deny * threat + score / 100, action))
    return best_of(scored, rng)


def tokens_value(tokens: list[tuple[int, int]], cell: int) -> int | None:
    """The value of the token on `cell` (the lowest if two share it)."""
    return min((v for c, v in tokens if c == cell), default=None)


def _hard_move(view: dict[str, Any], moves: list[Action], rng: random.Random) -> Action:
    board = board_from_view(view)
    you = view["you"]
    positions = [cell_of(*p["pos"]) for p in view["players"]]
    guardians = {k: cell_of(*v) for k, v in view["guardians"].items()}
    tokens = [(cell_of(*t["pos"]), t["value"]) for t in view["tokens"]]
    targets = _targets(view, tokens)
    start = positions[you]
    scored: list[tuple[float, Action]] = []
    for move in moves:
        stop = cell_of(*move["to"])
        score = _stop_score(view, board, start, stop, positions, guardians, targets)
        if score == 0 and targets:
            score = -min(DIST[stop][t] for t in targets) / 100
        scored.append((score, move))
    if max(s for s, _ in scored) > 0:
        return best_of(scored, rng)
    scored.sort(key=lambda item: item[0], reverse=True)
    deep = [
        (_next_turn_chances(board, cell_of(*m["to"]), targets) + s, m)
        for s, m in scored[: 2 * SECOND_PLY_CELLS]
    ]
    return best_of(deep, rng)


def _coin_hopes(view: dict[str, Any]) -> set[int]:
    """Card values that may still earn a coin: a token of that value is on the board or
    not yet laid out (the reserve holds the values 7-12 until the second phase)."""
    hopes = {t["value"] for t in view["tokens"]}
    if view["stage"] == "first":
        hopes |= set(range(7, 13))
    return hopes


def _spare_card(view: dict[str, Any], cards: list[Action]) -> Action:
    """The card to spend on a re-roll or a double turn: one that can earn no coin any
    more, else the one whose token comes last (the highest)."""
    hopes = _coin_hopes(view)
    useless = [a for a in cards if a["card"] not in hopes]
    if useless:
        return useless[0]
    return max(cards, key=lambda a: a["card"])


def choose_hard(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kinds = by_type(legal)
    me = view["players"][view["you"]]
    if "coin" in kinds:
        return kinds["coin"][0]
    if "challenge" in kinds:
        best_rival = max(
            (p["score"] for p in view["players"] if p["seat"] != view["you"]), default=0
        )
        winning = me["score"] + 15 > best_rival
        return kinds["challenge"][0] if winning else kinds["decline"][0]
    if "accept" in kinds:
        rerolls = kinds.get("reroll", [])
        turn = view["turn"]
        if not rerolls:
            return kinds["accept"][0]
        if turn["phase"] == "final":
            done = turn.get("final") or []
            left = 3 - len(done) - 1
            needed = 12 - sum(done) - turn["roll"]
            return _spare_card(view, rerolls) if needed > 3.5 * left else kinds["accept"][0]
        lowest = min(me["treasures"], default=0)
        keep_for_coin = all(a["card"] in _coin_hopes(view) for a in rerolls)
        if lowest <= 2 and keep_for_coin:
            return kinds["accept"][0]
        return _spare_card(view, rerolls)
    if "end_turn" in kinds:
        doubles = kinds.get("double_turn", [])
        if not doubles:
            return kinds["end_turn"][0]
        return _spare_card(view, doubles)
    if "push" in kinds:
        return _hard_push(view, kinds["push"], rng)
    if "move" in kinds:
        return _hard_move(view, kinds["move"], rng)
    return fallback(legal, rng)
