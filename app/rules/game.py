"""A game as one object that reads like the game (after python-chess).

`Game` binds an engine to one state, the seed and the list of applied actions, so that
callers (rooms, replays, bots, tests) never pass the rng or the engine around:

    game = Game.new("classic", ["Ann", "Bob"], seed="s3cret")
    game.apply(0, {"type": "push", "side": "N", "index": 1, "rotation": 0})
    game.record()                       # what the log stores
    Game.from_record(record, upto=10)   # the replay stopped at seq 10
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from app.rules.base import JSON, Engine, IllegalAction, LazyRandom, rng_for


def _copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (cheaper than `copy.deepcopy`), so that a recorded
    action cannot change when the caller reuses its dict."""
    if isinstance(value, Mapping):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy_json(v) for v in value]
    return value


class Game:
    """One game: its engine, players, seed, options, current state and actions so far."""

    def __init__(
        self, engine: Engine, players: Sequence[str], seed: str, options: JSON, state: Any
    ) -> None:
        self.engine = engine
        self.players = list(players)
        self.seed = seed
        self.options = options
        self.state = state
        self.actions: list[tuple[int, int, JSON]] = []

    @classmethod
    def new(
        cls,
        variant: str,
        players: Sequence[str],
        seed: str,
        options: Mapping[str, Any] | None = None,
    ) -> Game:
        """Set up with `rng_for(seed, 0)`; options are validated (`InvalidOptions`)."""
        from app.rules import get_engine  # the registry imports this module

        engine = get_engine(variant)
        parsed = engine.parse_options(options)
        return cls(engine, players, seed, parsed, engine.setup(players, parsed, rng_for(seed, 0)))

    # -- playing --------------------------------------------------------------------------

    def apply(self, seat: int, action: Mapping[str, Any] | Any) -> list[JSON]:
        """Apply a wire dict (or a typed action with `to_dict`) for `seat`; the rng is
        `rng_for(seed, seq + 1)`, so a replay draws the same numbers. Raises
        `IllegalAction` with the state unchanged."""
        if not isinstance(action, Mapping) and hasattr(action, "to_dict"):
            action = action.to_dict()
        rng = cast(random.Random, LazyRandom(self.seed, self.seq + 1))
        events = self.engine.apply(self.state, seat, action, rng)
        self.actions.append((self.seq, seat, _copy_json(action)))
        return events

    def legal_actions(self, seat: int | None) -> list[JSON]:
        return self.engine.legal_actions(self.state, seat)

    def view(self, viewer: int | None) -> JSON:
        return self.engine.view(self.state, viewer)

    @property
    def seq(self) -> int:
        return self.state.seq

    @property
    def to_move(self) -> int | None:
        return self.engine.to_move(self.state)

    @property
    def result(self) -> JSON | None:
        return self.engine.result(self.state)

    @property
    def status(self) -> str:
        return "playing" if self.result is None else "finished"

    @property
    def variant(self) -> str:
        return self.engine.variant

    def clone(self) -> Game:
        """An independent copy, to try an action and throw it away."""
        twin = Game(self.engine, self.players, self.seed, self.options, self.state.clone())
        twin.actions = self.actions.copy()  # entries are never mutated
        return twin

    # -- records --------------------------------------------------------------------------

    def record(self) -> JSON:
        """The game as the log stores it: replaying it reproduces this game exactly."""
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "players": list(self.players),
            "seed": self.seed,
            "actions": [
                {"seq": seq, "seat": seat, "action": _copy_json(action)}
                for seq, seat, action in self.actions
            ],
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any], upto: int | None = None) -> Game:
        """Replay a record, stopping after action `upto` when given. Each action is applied
        once on one state (no copies), so a replay costs what playing it cost. A bad record
        raises `IllegalAction` naming the seq of its first bad action."""
        game = cls.new(record["variant"], record["players"], record["seed"], record.get("options"))
        for entry in record["actions"]:
            seq = entry.get("seq") if isinstance(entry, Mapping) else None
            if upto is not None and isinstance(seq, int) and seq > upto:
                break
            expected = game.seq + 1
            if seq != expected or set(entry) != {"seq", "seat", "action"}:
                raise IllegalAction(
                    "bad_message", f"record action seq {seq}: expected an entry seq {expected}"
                )
            try:
                game.apply(entry["seat"], entry["action"])
            except IllegalAction as exc:
                raise IllegalAction(exc.code, f"record action seq {seq}: {exc.message}") from exc
        return game

    def __repr__(self) -> str:
        return f"<Game {self.variant} seq={self.seq} {self.status} to_move={self.to_move}>"
