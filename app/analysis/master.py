"""Master Labyrinth: a lowest-value token within reach that the turn did not take, a duel
risked when a safe move did as well, and a coin or a double turn left unused.

**missed** — a token may be taken when the adventurer walks onto it from another cell and it is of
the lowest value still on the board (never under the lair). For every push x rotation
the seat could make, the judge walks the board from the pawn (the lair blocks every
path) and asks whether such a token lies within reach; a turn that could take one and
took none is marked **missed**, with the push and the walk.

**risk** — a take is followed by the dragon die. After the push, every cell where the
pawn could take a token is weighed by the chance (of the six faces of the die, all known:
arrows turn the dragon, a guardian face wakes that guardian) that its adventurer is then
among the nearest to the threat and so duels. A take with a chance of a duel, when the
same value could be taken elsewhere (tokens come in pairs) with none, is marked, with
that safe cell.

**unused_coin** — after a take the player held the card of the value taken (the `coin`
choice was theirs to make) and played `no_coin`: five points left on the table. The card
might have been kept for a re-roll or a double turn, so the mark tells, it does not
count against accuracy.

**unused_double** — at the end of a turn the player held a 7-12 card and ended the turn,
when the extra turn it buys would have let them take a token: from the position they
faced then, some push of that bonus turn (the same search as **missed**) left a walk to
a lowest-value token. The mark carries the card, the push and the walk.

Both are judged at the moment of the choice (`Decision`), from the seat's own view then:
their own hand is theirs to see.

All of it comes from the seat's view: tokens, pieces, the dragon and the board are public.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.analysis.maze import after, path
from app.analysis.turns import (
    JSON,
    Decision,
    Played,
    Turn,
    of_type,
    played_turns,
    preview,
    preview_line,
)
from app.bots.maze import board_from_view, slot_of
from app.rules import Game
from app.rules.board import Board, carried, cell_of, row_col
from app.rules.master import (
    COIN_POINTS,
    DRAGON_FACES,
    FACINGS,
    FRONT,
    GUARDIANS,
    LAIR,
    LAIR_MASK,
)

# A push or a double turn draws nothing at random in Master: the rng is never read.
_NO_RANDOMNESS = random.Random(0)


def starts(action: JSON, previous: JSON | None) -> bool:
    return action.get("type") == "push"


def decides(action: JSON) -> bool:
    """The choices judged where they were made: a coin not taken, a turn ended."""
    return action.get("type") in ("no_coin", "end_turn")


def judge(record: Mapping[str, Any]) -> list[Turn]:
    played, game = played_turns(record, starts, decides=decides)
    turns = []
    for turn in played:
        judged = Turn(turn.seq, turn.seat)
        if not of_type(turn.events, "took", turn.seat):
            missed = _missed(turn.view, [a for a in turn.legal if a["type"] == "push"])
            if missed is not None:
                missed["frame"] = preview(game, turn, missed["best"])
                judged.marks.append(missed)
        risk = _risk(game, turn)
        if risk is not None:
            judged.marks.append(risk)
        for decision in turn.decisions:
            mark = unused_coin(decision) or unused_double(game, decision)
            if mark is not None:
                judged.marks.append(mark)
        turns.append(judged)
    return turns


def unused_coin(decision: Decision) -> JSON | None:
    """`no_coin` when `coin` was legal: the matching card was in hand."""
    if decision.action.get("type") != "no_coin" or {"type": "coin"} not in decision.legal:
        return None
    card = decision.view["turn"]["taken"]
    return {"kind": "unused_coin", "seq": decision.seq, "card": card, "points": COIN_POINTS}


def unused_double(game: Game, decision: Decision) -> JSON | None:
    """`end_turn` when a double turn was legal and its bonus turn could take a token."""
    if decision.action.get("type") != "end_turn":
        return None
    cards = [a for a in decision.legal if a["type"] == "double_turn"]
    if not cards:
        return None
    card = cards[0]  # the lowest: which card buys the turn changes nothing on the board
    bonus = decision.state.clone()
    game.engine.apply(bonus, decision.seat, card, _NO_RANDOMNESS)
    view = game.engine.view(bonus, decision.seat)
    pushes = [a for a in game.engine.legal_actions(bonus, decision.seat) if a["type"] == "push"]
    found = _missed(view, pushes)
    if found is None:
        return None
    line = [card, found["best"]]
    return {
        "kind": "unused_double",
        "seq": decision.seq,
        "card": card["card"],
        "value": found["value"],
        "best": found["best"],
        "path": found["path"],
        "frame": preview_line(game, decision.state, decision.seat, line, decision.seq),
    }


def _missed(view: JSON, pushes: list[JSON]) -> JSON | None:
    lowest = view.get("lowest")
    if lowest is None:
        return None
    board = board_from_view(view)
    here = cell_of(*view["players"][view["you"]]["pos"])
    lair = cell_of(*view["lair"])
    tokens = [cell_of(*t["pos"]) for t in view["tokens"] if t["value"] == lowest]
    best: tuple[int, JSON, list[list[int]]] | None = None
    for push in pushes:
        slot = slot_of(push)
        trial = after(board, push)
        start = carried(slot, here)
        reach = trial.reach_mask_blocked(start, 1 << lair)
        for token in tokens:
            cell = carried(slot, token)
            if cell != start and cell != lair and reach >> cell & 1:
                walk = path(trial, start, cell, 1 << lair)
                if best is None or len(walk) < best[0]:
                    best = (len(walk), push, walk)
    if best is None:
        return None
    return {"kind": "missed", "goal": "token", "value": lowest, "best": best[1], "path": best[2]}


def duel_chance(board: Board, view: JSON, seat: int, cell: int, holds: bool) -> int:
    """Of the dragon die's six faces, how many make `seat`'s adventurer, standing on
    `cell`, one of the nearest to the threat (and so a duellist, if it `holds` a
    treasure)."""
    if not holds:
        return 0
    players = view["players"]
    count = len(players)
    order = [(seat + k) % count for k in range(count)]
    where = {p["seat"]: (cell if p["seat"] == seat else cell_of(*p["pos"])) for p in players}
    facing = FACINGS.index(view["dragon"]["facing"])
    hits = 0
    for face in DRAGON_FACES:
        if face in GUARDIANS:
            origin = cell_of(*view["guardians"][face])
            layers = [] if origin == LAIR else board.distance_layers(origin, LAIR_MASK)
        else:
            front = FRONT[FACINGS[(facing + int(face)) % 4]]
            layers = [0, *board.distance_layers(front, LAIR_MASK)]
        for layer in layers:
            nearest = [s for s in order if layer >> where[s] & 1]
            if nearest:
                hits += seat in nearest
                break
    return hits


def _risk(game: Game, turn: Played) -> JSON | None:
    """A move into a chance of a duel when a cell with the same take had none."""
    kinds = [a.get("type") for a in turn.actions]
    if kinds[:2] != ["push", "move"]:
        return None
    state = turn.state.clone()
    game.engine.apply(state, turn.seat, turn.actions[0], _NO_RANDOMNESS)
    view = game.engine.view(state, turn.seat)
    moves = [a for a in game.engine.legal_actions(state, turn.seat) if a["type"] == "move"]
    if not moves:
        return None
    board = board_from_view(view)
    start = cell_of(*view["players"][turn.seat]["pos"])
    lowest = view.get("lowest")
    tokens = {cell_of(*t["pos"]): t["value"] for t in view["tokens"] if t["value"] == lowest}

    def outcome(cell: int) -> int | None:
        return tokens.get(cell) if cell != start else None

    def chance(cell: int) -> int:
        # The die is rolled only after a take; the adventurer then holds a treasure.
        return duel_chance(board, view, turn.seat, cell, True) if outcome(cell) else 0

    chosen = cell_of(*turn.actions[1]["to"])
    risked = chance(chosen)
    if not risked:
        return None
    for move in moves:
        cell = cell_of(*move["to"])
        if outcome(cell) == outcome(chosen) and not chance(cell):
            return {"kind": "risk", "chance": round(risked / 6, 3), "safe": list(row_col(cell))}
    return None
