"""Team Edition: a turn that could have collected a treasure and collected none.

What counts as collectable follows the rules: a face-up tile showing a treasure of the
player's own board (expert: the left one only), or, once the deck and their board are
empty, one of the other players' boards. The judge tries every combination of the spells
the player still held at the start of the turn (`spells.Search`: the push, the rotate or
switch, the move spells), then a move, from the seat's own view: face-down faces stay
unknown to it as to the player. A turn marked **missed** carries the cheapest such line
(fewest spells): the spells as actions, the move, and the walk when it is a plain one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.analysis.spells import Search
from app.analysis.turns import JSON, Turn, of_type, played_turns, preview_line

# The action types of a "turn" that is no player's: turning the game's first Daedalus card
# (rules version 2), an action of its own in the log. Nothing to judge, no turn to count.
FIRST_CARD = ["daedalus"]


def starts(action: JSON, previous: JSON | None) -> bool:
    """A turn begins after an `end`, and after the game's first Daedalus card (rules
    version 2: its own action, before which nothing can be judged)."""
    return previous is None or previous.get("type") in ("end", "daedalus")


def judge(record: Mapping[str, Any]) -> list[Turn]:
    played, game = played_turns(record, starts, by_seat=True)
    turns = []
    for turn in played:
        if [a.get("type") for a in turn.actions] == FIRST_CARD:
            continue
        judged = Turn(turn.seq, turn.seat)
        if turn.view.get("turn") and not of_type(turn.events, "collected", turn.seat):
            missed = _missed(turn.view)
            if missed is not None:
                if missed["spells"]:
                    line = missed["spells"]
                    missed["frame"] = preview_line(game, turn.state, turn.seat, line, turn.seq)
                judged.marks.append(missed)
        turns.append(judged)
    return turns


def collectable(view: JSON) -> set[str]:
    players = view["players"]
    me = players[view["you"]]
    expert = view["options"].get("mode") == "expert"

    def wanted(board: list[str]) -> list[str]:
        return board[:1] if expert else board

    if me["board"]:
        return set(wanted(me["board"]))
    if view.get("treasure_deck", 0) == 0:
        return {t for p in players for t in wanted(p["board"])}
    return set()


def _missed(view: JSON) -> JSON | None:
    wanted = collectable(view)
    if not wanted or view["turn"].get("phase") != "play" or view["turn"].get("moves"):
        return None
    line = Search(view, wanted).best()
    return None if line is None else line.to_mark()
