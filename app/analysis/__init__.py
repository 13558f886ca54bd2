"""Replay analysis: what each turn of a finished game could have done, and whether it did.

Lichess made replays worth opening by judging every move; this does the same for the
Labyrinth games. Each variant's judge re-plays the record once and, at the start of every
turn, looks at the position through the acting seat's own view (`engine.view(state,
seat)`): the same facts the player had, never the seed, another hand or a face-down face.
So a mark judges a decision the player could actually have made. The one exception is
said where it is made: a classic "gift" needs the next player's target, which the giver
could not see.

The result is data (`GET /api/games/{id}/analysis`), built once per finished game in the
replay build process and stored like the replay body:

    {"variant": "classic",
     "turns": [{"seq": 1, "seat": 0, "marks": [{"kind": "missed", ...}], ...}],
     "players": [{"seat": 0, "turns": 12, "missed": 2, "gifts": 1, "accuracy": 0.83,
                  "played_for": 0}]}

`seq` of a turn is the seq of its first action, the step the replay page shows it at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from app.analysis import cards, classic, master, team
from app.analysis.turns import JSON, Turn

Judge = Callable[[Mapping[str, Any]], list[Turn]]

JUDGES: dict[str, Judge] = {
    "classic": classic.judge,
    "master": master.judge,
    "cards": cards.judge,
    "team": team.judge,
}

# Where a turn begins, per variant: the rule each judge cuts its record with, and whether a
# change of seat also begins one (Team's players may end a turn without an `end` action
# when the game does it for them).
TURN_STARTS: dict[str, tuple[Callable[[JSON, JSON | None], bool], bool]] = {
    "classic": (classic.starts, False),
    "master": (master.starts, False),
    "cards": (cards.starts, False),
    "team": (team.starts, True),
}


def count_turns(variant: str, log: Iterable[tuple[int, str | None]]) -> int | None:
    """How many turns a log of `(seat, action type)` holds, cut as the judges cut it (a
    classic turn is a push and a move; a double turn is two): what a person means by "a
    33-turn game", where the log's `seq` counts 66 actions. None for an unknown variant.

    The rules see each action's type only, which is all any of them reads."""
    if variant not in TURN_STARTS:
        return None
    starts, by_seat = TURN_STARTS[variant]
    turns: list[list[str | None]] = []
    previous: JSON | None = None
    last_seat: int | None = None
    for seat, kind in log:
        action: JSON = {"type": kind}
        if starts(action, previous) or (by_seat and turns and seat != last_seat):
            turns.append([])
        if turns:
            turns[-1].append(kind)
        previous, last_seat = action, seat
    return sum(1 for kinds in turns if kinds != team.FIRST_CARD)  # as the judges skip it


# The kinds of mark that count against a turn's accuracy (a gift, a risk, a coin or a
# double turn left unused is told, but a turn is "accurate" when it missed nothing it
# could have had on the board).
MISSES = frozenset({"missed"})


def played_for(by: str | None) -> bool:
    """Whether the server played an action for a person's seat (they were away, had left,
    ran out of time): the computer's choice, not the person's. A computer seat's own
    actions (`computer:seat`) are its player's."""
    return by is not None and by != "computer:seat"


def analyse(record: Mapping[str, Any], bys: Mapping[int, str] | None = None) -> JSON:
    """The marks of every turn of a finished game's record, and a summary per player.

    `bys` (seq -> the log's `by`) names the actions the server played for a seat: a turn
    it began is marked like any, but counts in its player's summary only as `played_for`
    (a player who left is not judged by the computer's play)."""
    turns = JUDGES[record["variant"]](record)
    bys = bys or {}
    players = []
    for seat in range(len(record["players"])):
        mine = [t for t in turns if t.seat == seat]
        own = [t for t in mine if not played_for(bys.get(t.seq))]
        missed = sum(1 for t in own if any(m["kind"] in MISSES for m in t.marks))
        counts: dict[str, int] = {}
        for t in own:
            for m in t.marks:
                counts[m["kind"]] = counts.get(m["kind"], 0) + 1
        players.append(
            {
                "seat": seat,
                "turns": len(own),
                "missed": missed,
                "gifts": counts.get("gift", 0),
                "marks": counts,
                "accuracy": None if not own else round((len(own) - missed) / len(own), 3),
                "played_for": len(mine) - len(own),
            }
        )
    return {
        "variant": record["variant"],
        "turns": [t.to_dict() for t in turns],
        "players": players,
    }
