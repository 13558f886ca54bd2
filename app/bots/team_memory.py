"""What a Team Edition seat remembers of face-down tiles: what it saw on them face up.

A person at the table watches the maze: when Daedalus flips the ghost face down, they
know the ghost is under that back, and they follow the back as pushes carry it along a
line. The view shows a face-down tile as its back only (nothing leaves the server), so a
computer player that wants the same knowledge must keep it, and may keep nothing else:
the memory is built ONLY from what the seat was shown, one step at a time, each step
being the seat's view after an action together with that action's events as the seat
received them (`redact_events`, i.e. the public log). It never reads the engine's state.

What it holds: per cell of the maze (and the spare, cell 49), the treasure last seen face
up there (`""` for a tile seen without one), moved along with the tiles by every push
(the players' and Daedalus's) and switch named in the events. A cell whose tile the seat
never saw face up is absent. A face-up tile's truth always overwrites the memory.

It is state across decisions, so whoever drives a computer seat keeps one memory per
(game, seat) and feeds it every step (`observe`); after a restart it is rebuilt the same
way from the game's log (`replay`: the seat's views and events, step by step), so a
rebuilt memory equals the one kept live. A memory of seq N depends only on what the seat
was shown up to N: the decision stays a function of the seat's view history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.rules.board import CELL_COUNT, SIZE, Slot

SPARE = CELL_COUNT  # the spare's index in `faces`


@dataclass(slots=True)
class TeamMemory:
    """cell (0-48, spare 49) -> the treasure seen on its tile face up ("" for none)."""

    faces: dict[int, str] = field(default_factory=dict)
    seq: int = -1  # the seq of the last view observed

    def observe(self, view: Mapping[str, Any], events: Iterable[Mapping[str, Any]] = ()) -> None:
        """One step: the events of the action just played (moving tiles), then the view
        after it (refreshing every face-up tile)."""
        for event in events:
            self._follow(event)
        for r, row in enumerate(view["board"]["tiles"]):
            for c, tile in enumerate(row):
                if not tile.get("face_down"):
                    self.faces[r * SIZE + c] = tile.get("treasure") or ""
        spare = view["board"]["spare"]
        if not spare.get("face_down"):
            self.faces[SPARE] = spare.get("treasure") or ""
        self.seq = int(view.get("seq", self.seq))

    def under(self, cell: int) -> str | None:
        """The treasure remembered on the tile at `cell` ("" for none), None if unknown."""
        return self.faces.get(cell)

    def _follow(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind == "pushed":
            self._push(Slot.parse(str(event["slot"])))
        elif kind == "daedalus":
            effect = event.get("effect") or {}
            if effect.get("kind") == "push":
                self._push(Slot.parse(str(effect["slot"])))
        elif kind == "switched":
            (r1, c1), (r2, c2) = event["cells"]
            a, b = r1 * SIZE + c1, r2 * SIZE + c2
            first, second = self.faces.pop(a, None), self.faces.pop(b, None)
            if first is not None:
                self.faces[b] = first
            if second is not None:
                self.faces[a] = second

    def _push(self, slot: Slot) -> None:
        """The spare goes in at the line's head, every tile moves one along, the last
        one comes out as the spare: memories ride with their tiles."""
        line = slot.line
        moved = [self.faces.pop(cell, None) for cell in line]
        spare = self.faces.pop(SPARE, None)
        for cell, face in zip(line[1:], moved[:-1], strict=True):
            if face is not None:
                self.faces[cell] = face
        if spare is not None:
            self.faces[line[0]] = spare
        if moved[-1] is not None:
            self.faces[SPARE] = moved[-1]
