"""A finished game cut into turns, each seen from its player's seat as it began.

Every judge walks the same thing: for each turn, the acting seat's view and `legal` list
when the turn began (what the player could know and do), then the actions taken and the
events they caused (what happened). The record is re-played once; the views are taken
through `engine.view`, the only road by which state leaves an engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.rules import Game
from app.rules.base import rng_for

JSON = dict[str, Any]


@dataclass
class Turn:
    """One turn and what the analysis says of it."""

    seq: int  # the seq of the turn's first action
    seat: int
    marks: list[JSON] = field(default_factory=list)
    facts: JSON = field(default_factory=dict)  # figures shown beside the move (cards: takes)

    def to_dict(self) -> JSON:
        return {"seq": self.seq, "seat": self.seat, "marks": self.marks, **self.facts}


@dataclass
class Decision:
    """A choice made inside a turn (master: a coin left, a double turn not played), with
    what the deciding seat saw and could do just before it."""

    seq: int  # the seq of the action that made the choice
    seat: int
    action: JSON  # the choice made
    view: JSON
    legal: list[JSON]
    state: Any  # a copy of the engine state just before it


@dataclass
class Played:
    """A turn as it was played: where it began, and what it did."""

    seq: int
    seat: int
    view: JSON  # the seat's view when the turn began
    legal: list[JSON]  # the seat's legal actions then
    state: Any  # a copy of the engine state then (for judges that try actions on it)
    actions: list[JSON] = field(default_factory=list)
    events: list[JSON] = field(default_factory=list)
    after: JSON | None = None  # the seat's view once the turn is over
    decisions: list[Decision] = field(default_factory=list)  # those `decides` asked for


def played_turns(
    record: Mapping[str, Any],
    starts: Callable[[JSON, JSON | None], bool],
    by_seat: bool = False,
    decides: Callable[[JSON], bool] | None = None,
) -> tuple[list[Played], Game]:
    """Every turn of `record` (a turn being what lies between two actions for which
    `starts(action, previous action)` holds, or, with `by_seat`, whose seats differ), and
    the finished game. Before each action for which `decides(action)` holds, the acting
    seat's view, legal list and a copy of the state are kept in the turn's `decisions`
    (only there: a copy per action would cost more than the judging)."""
    game = Game.new(record["variant"], record["players"], record["seed"], record.get("options"))
    turns: list[Played] = []
    previous: JSON | None = None
    for entry in record["actions"]:
        seat, action = entry["seat"], entry["action"]
        if starts(action, previous) or (by_seat and turns and turns[-1].seat != seat):
            if turns:
                turns[-1].after = game.view(turns[-1].seat)
            view, legal = game.view(seat), game.legal_actions(seat)
            turns.append(Played(entry["seq"], seat, view, legal, game.state.clone()))
        if decides is not None and turns and decides(action):
            turns[-1].decisions.append(
                Decision(
                    entry["seq"],
                    seat,
                    action,
                    game.view(seat),
                    game.legal_actions(seat),
                    game.state.clone(),
                )
            )
        events = game.apply(seat, action)
        if turns:
            turns[-1].actions.append(action)
            turns[-1].events.extend(events)
        previous = action
    if turns:
        turns[-1].after = game.view(turns[-1].seat)
    return turns, game


def of_type(events: list[JSON], kind: str, seat: int | None = None) -> list[JSON]:
    return [e for e in events if e.get("type") == kind and (seat is None or e.get("seat") == seat)]


def preview(game: Game, turn: Played, action: JSON) -> JSON:
    """The position, every secret shown (as replay frames are), after `action` had been
    the turn's first action instead: what the replay page draws to show a better push."""
    return preview_line(game, turn.state, turn.seat, [action], turn.seq)


def preview_line(game: Game, state: Any, seat: int, actions: list[JSON], seq: int) -> JSON:
    """The position, every secret shown, after `seat` had played `actions` from `state`
    (a better line: a spell combination, a double turn and its push). Only actions that
    draw nothing at random are previewed, so the rng is a formality."""
    trial = state.clone()
    for action in actions:
        game.engine.apply(trial, seat, action, rng_for(game.seed, seq))
    return game.engine.reveal(trial)
