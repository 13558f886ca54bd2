"""A game being played, kept in memory and rebuilt from the action log when needed.

The log in the database is the truth; this is a cache of `setup + replay(actions)`. It
also memoises the serialised `state` message for each distinct viewer at the current
`seq`, so a room with many spectators computes the spectator view once per move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

from app.rooms.clock import Clock, parse_clock
from app.rules import Game
from app.store.repository import ActionRecord, GameRecord, aware

# The events a move list puts into words beside a move (what it found, took, lost or
# ended, the Daedalus card its turn's end turned, Master's dice and who they threatened),
# the only ones a `history` entry carries: the others (`pushed`, `moved`, `turn`...)
# repeat the move itself and would make a long game's history four times as large.
# docs/protocol.md lists them; the client's move log reads these.
HISTORY_EVENTS = frozenset(
    {
        "daedalus",
        "found",
        "event",
        "took",
        "collected",
        "lost",
        "duel_won",
        "final_duel",
        "won",
        "second_phase",
        "placed",
        "no_take",  # the card game's "took nothing, and why", kept through a reload
        "discarded",
        "dragon_die",
        "duel_roll",
    }
)
# Master's `threat` names who must duel, and the cells the dragon reaches: a move list
# says only who (and nothing for a threat of nobody), so a history keeps only that.
THREAT_FIELDS = ("type", "source", "duellists")


def dumps(message: Any) -> str:
    """Compact JSON, non-ASCII as UTF-8: what `json.dumps(message, separators=(",", ":"),
    ensure_ascii=False)` writes, at a thirteenth of the cost. Serialising the states was
    the largest cost of a move under load (a third of the server's CPU). Integer keys are
    written as strings, as the standard library does; a lone surrogate (which the
    message parser refuses at the door) would raise instead of going out half-encoded."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # an integer key (twice as slow to allow everywhere), or bad text
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def in_history(event: dict[str, Any]) -> bool:
    """An event a move list words beside its move: one of `HISTORY_EVENTS`, a move that
    ended where it began (the notation `c3` says where the pawn is, not that it stayed),
    or a dragon's threat that made someone duel."""
    kind = event.get("type")
    if kind == "threat":
        return bool(event.get("duellists"))
    return kind in HISTORY_EVENTS or (kind == "moved" and event.get("from") == event.get("to"))


def for_history(event: dict[str, Any]) -> dict[str, Any]:
    """What a `history` entry keeps of an event `in_history`: all of it, but a threat's
    cells (a dozen per threat, which the move list never shows)."""
    if event.get("type") == "threat":
        return {k: event[k] for k in THREAT_FIELDS if k in event}
    return event


@dataclass(slots=True)
class LastAction:
    seq: int
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    by: str | None = None
    # Its notation as the seats that see it whole read it: written once, not per viewer.
    notation: str | None = None


@dataclass
class LiveGame:
    record: GameRecord
    game: Game
    last: LastAction | None = None
    # The turn timer replayed from the log's times (None: the game has none).
    clock: Clock | None = None
    # seq -> who the server played that action as ("computer:<reason>"), for the move list.
    bys: dict[int, str] = field(default_factory=dict)
    # seq -> the action's events `in_history` (unredacted), for the move list
    # sent after a hello or a sync: a page that reloads words each move as it did live.
    notable: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    _messages: dict[tuple[int | None, bool, bool], str] = field(default_factory=dict)
    _history: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    # The last board grid serialised, with the list it was written from (kept alive, so
    # that `is` names that list and no other).
    _tiles: tuple[Any, orjson.Fragment] | None = None

    @classmethod
    def load(cls, record: GameRecord, actions: list[ActionRecord]) -> LiveGame:
        game = Game.new(record.variant, record.players, record.seed, record.options)
        live = cls(record=record, game=game)
        settings = parse_clock(record.clock)
        if settings is not None:
            started = aware(record.started_at) or datetime.now(UTC)
            live.clock = Clock.start(settings, len(record.players), started, game.to_move)
        live.extend(actions)
        live.follow_row(record)
        return live

    def grace(self, until: datetime) -> None:
        """The current turn runs until `until` (`Clock.grace`); states are built anew."""
        if self.clock is not None:
            self.clock.grace(until)
            self._invalidate()

    def follow_row(self, record: GameRecord) -> None:
        """Take the game row's deadline when it is later than the log's for the same seq:
        a turn given its time again after an outage (`Clock.grace`)."""
        clock, stored = self.clock, aware(record.deadline)
        if clock is None or stored is None or record.seq != self.seq:
            return
        deadline = clock.deadline
        if deadline is not None and stored > deadline:
            self.grace(stored)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def seq(self) -> int:
        return self.game.seq

    @property
    def finished(self) -> bool:
        return self.game.result is not None

    def extend(self, actions: list[ActionRecord]) -> None:
        """Catch up with actions another process (or an earlier run) committed."""
        for entry in actions:
            if entry.seq != self.game.seq + 1:
                continue
            events = self.game.apply(entry.seat, entry.payload)
            self.last = LastAction(entry.seq, entry.seat, entry.payload, events, entry.by)
            if entry.by:
                self.bys[entry.seq] = entry.by
            self._note(entry.seq, events)
            if self.clock is not None:
                at = aware(entry.at) or datetime.now(UTC)
                self.clock.step(at, entry.by, self.game.to_move)
        self._invalidate()

    def tentative(self, seat: int, action: dict[str, Any]) -> tuple[Game, list[dict[str, Any]]]:
        """Apply on a copy: the live state changes only once the log has the action."""
        copy = self.game.clone()
        events = copy.apply(seat, action)
        return copy, events

    def clock_after(self, game: Game, at: datetime, by: str | None) -> Clock | None:
        """The clock once `game` (a tentative successor) is stored at `at`."""
        if self.clock is None:
            return None
        clock = self.clock.clone()
        clock.step(at, by, game.to_move)
        return clock

    def commit(
        self,
        game: Game,
        seat: int,
        action: dict[str, Any],
        events: list[Any],
        by: str | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.game = game
        self.last = LastAction(game.seq, seat, action, events, by)
        if by:
            self.bys[game.seq] = by
        self._note(game.seq, events)
        if clock is not None:
            self.clock = clock
        self._invalidate()

    def _note(self, seq: int, events: list[Any]) -> None:
        kept = [for_history(e) for e in events if isinstance(e, dict) and in_history(e)]
        if kept:
            self.notable[seq] = kept

    def _invalidate(self) -> None:
        self._messages.clear()
        self._history.clear()

    # What a viewer is sent -------------------------------------------------------

    def state_message(
        self, viewer: int | None, with_history: bool = False, with_legal: bool = False
    ) -> str:
        """The `state` message for `viewer`, built once per seq for all its connections;
        `with_legal` adds what a `legal` request would answer for that seat at this seq,
        for the clients that asked at hello rather than ask at every turn."""
        key = (viewer, with_history, with_legal)
        text = self._messages.get(key)
        if text is None:
            message: dict[str, Any] = {
                "type": "state",
                "seq": self.game.seq,
                "view": self._shared_grid(self.game.view(viewer)),
                "last": self._last_for(viewer),
            }
            if self.clock is not None:
                message["clock"] = self.clock.wire()
            if with_history:
                message["history"] = self.history_for(viewer)
            if with_legal and viewer is not None:
                message["legal"] = self.game.legal_actions(viewer)
            text = dumps(message)
            self._messages[key] = text
        return text

    def _shared_grid(self, view: dict[str, Any]) -> dict[str, Any]:
        """`view` with its board's tiles as JSON written once for all its viewers: an
        engine that draws the grid once per board hands every viewer the same list
        (`ClassicEngine._grid`), the largest part of each state. The view is copied
        where it changes, never edited: the engine may still hold the list."""
        board = view.get("board")
        tiles = board.get("tiles") if isinstance(board, dict) else None
        if tiles is None:
            return view
        written = self._tiles
        if written is None or written[0] is not tiles:
            written = self._tiles = (tiles, orjson.Fragment(dumps(tiles)))
        return {**view, "board": {**board, "tiles": written[1]}}

    def _last_for(self, viewer: int | None) -> dict[str, Any] | None:
        if self.last is None:
            return None
        engine, state = self.game.engine, self.game.state
        last = self.last
        action = engine.redact_action(state, last.seat, last.action, viewer)
        if action == last.action:
            if last.notation is None:
                last.notation = engine.notation(action)
            notation = last.notation
        else:
            notation = engine.notation(action)
        return {
            "seq": last.seq,
            "seat": last.seat,
            "action": action,
            "events": engine.redact_events(state, last.events, viewer),
            "notation": notation,
            "by": last.by,
        }

    def history_for(self, viewer: int | None) -> list[dict[str, Any]]:
        cached = self._history.get(viewer)
        if cached is None:
            engine, state = self.game.engine, self.game.state
            cached = []
            for seq, seat, action in self.game.actions:
                entry: dict[str, Any] = {
                    "seq": seq,
                    "seat": seat,
                    "notation": engine.notation(engine.redact_action(state, seat, action, viewer)),
                }
                if seq in self.bys:
                    entry["by"] = self.bys[seq]
                notable = self.notable.get(seq)
                if notable and (shown := engine.redact_events(state, notable, viewer)):
                    entry["events"] = shown
                cached.append(entry)
            self._history[viewer] = cached
        return cached
