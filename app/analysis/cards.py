"""The card game: the biggest take a turn could have had, against the take it made.

For every placement the player's hand allowed (the `legal` list at the turn's start),
the placement is tried on a copy of the position and the largest take the rules would
then accept is counted. A take depends only on the layout (public) and the placed card
(the player's own hand), so the judge knows no more than the player did. A turn that
took fewer cards than it could is marked **missed**, with the placement and the take
that would have done best, and the motif of the card that placement lays (the page names
the card: a placement's coordinates mean nothing to a reader).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.analysis.turns import JSON, Turn, played_turns
from app.rules.cards import DECK


def starts(action: JSON, previous: JSON | None) -> bool:
    return action.get("type") in ("place", "discard")


def judge(record: Mapping[str, Any]) -> list[Turn]:
    played, game = played_turns(record, starts)
    engine = game.engine
    rng = random.Random(0)  # the card game draws nothing at random after setup
    turns = []
    for turn in played:
        judged = Turn(turn.seq, turn.seat)
        took = next((a for a in turn.actions if a.get("type") == "take"), None)
        got = 0 if took is None else len(took["cards"])
        best: tuple[int, JSON | None, JSON | None] = (0, None, None)
        for place in turn.legal:
            if place.get("type") != "place":
                continue
            trial = turn.state.clone()
            engine.apply(trial, turn.seat, place, rng)
            taking = trial.turn is not None and trial.turn.phase == "take"
            takes = engine.legal_actions(trial, turn.seat) if taking else []
            largest = max(takes, key=lambda t: len(t["cards"]), default=None)
            size = 0 if largest is None else len(largest["cards"])
            if size > best[0]:
                best = (size, place, largest)
        judged.facts = {"could": best[0], "got": got}
        if got < best[0] and best[1] is not None:
            card = turn.state.players[turn.seat].hand[best[1]["card"]]
            judged.marks.append(
                {"kind": "missed", "best": best[1], "take": best[2], "motif": DECK[card].motif}
            )
        turns.append(judged)
    return turns
