"""What every engine does with a wire action before the rules see it, and the two actions
all sliding games share.

Wire parsing is strict on purpose: an unknown field, a missing one, a bool where an int
belongs or an out-of-range value is `bad_message`, never a guess, so that a client bug
shows at once and nothing half-understood reaches the rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from app.rules.base import JSON, IllegalAction
from app.rules.board import Slot, cell_name, cell_of, parse_cell


def bad(message: str) -> IllegalAction:
    """The action does not parse (`bad_message`)."""
    return IllegalAction("bad_message", message)


def illegal(message: str) -> IllegalAction:
    """The action parses but a rule forbids it; the message names the rule."""
    return IllegalAction("illegal", message)


def expect_fields(action: Mapping[str, Any], kind: str, fields: tuple[str, ...]) -> None:
    expected = {"type", *fields}
    if set(action) != expected:
        wanted = ", ".join(sorted(expected))
        raise bad(f"a {kind} action has exactly the fields {wanted}; got {sorted(action)}")


def match_notation(pattern: str | re.Pattern[str], text: str, kind: str) -> re.Match[str]:
    """`text` matched whole by `pattern`; `ValueError` naming the `kind` of notation."""
    match = re.fullmatch(pattern, text)
    if match is None:
        raise ValueError(f"bad {kind} {text!r}")
    return match


def int_field(value: Any, name: str, allowed: range | tuple[int, ...]) -> int:
    """An int in `allowed`; `type(...) is int` so that `true` is not taken for 1."""
    if type(value) is not int or value not in allowed:
        raise bad(f"{name} must be an integer {_among(allowed)}, got {_got(value)}")
    return value


def _among(allowed: range | tuple[int, ...]) -> str:
    """A few values are listed; a long run is said as its bounds (a card game's
    coordinate was refused with every integer from -1000 to 1000, 11 KB of message)."""
    if isinstance(allowed, range) and allowed.step == 1 and len(allowed) > 8:
        return f"from {allowed.start} to {allowed.stop - 1}"
    return f"in {list(allowed)}"


def _got(value: Any, limit: int = 40) -> str:
    """The refused value as the message shows it, cut short: a long string or a number
    of thousands of digits is named, not echoed."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**limit else "a huge number"
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class Push:
    """Push the spare, turned `rotation` quarter turns clockwise from how the view shows
    it, in at slot (`side`, `index`). Notation `Nb`, `W4+1`."""

    side: str
    index: int
    rotation: int = 0
    TYPE: ClassVar[str] = "push"
    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(r"([NS][bdf]|[EW][246])(?:\+([123]))?")

    @property
    def slot(self) -> Slot:
        return Slot(self.side, self.index)

    @classmethod
    def parse(cls, text: str) -> Push:
        match = match_notation(cls._PATTERN, text, "push")
        slot = Slot.parse(match[1])
        return cls(slot.side, slot.index, int(match[2] or 0))

    def __str__(self) -> str:
        return f"{self.slot}+{self.rotation}" if self.rotation else str(self.slot)

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Push:
        expect_fields(action, "push", ("side", "index", "rotation"))
        side = action["side"]
        if side not in ("N", "E", "S", "W"):
            raise bad(f"side must be one of N, E, S, W, got {side!r}")
        index = int_field(action["index"], "index", (1, 3, 5))
        return cls(side, index, int_field(action["rotation"], "rotation", range(4)))

    def to_dict(self) -> JSON:
        return {"type": "push", "side": self.side, "index": self.index, "rotation": self.rotation}


@dataclass(frozen=True, slots=True)
class Move:
    """Walk to `to` = (row, col); the piece's own cell means staying. Notation `c3`."""

    to: tuple[int, int]
    TYPE: ClassVar[str] = "move"

    @property
    def cell(self) -> int:
        return cell_of(*self.to)

    @classmethod
    def at(cls, cell: int) -> Move:
        return cls(divmod(cell, 7))

    @classmethod
    def parse(cls, text: str) -> Move:
        return cls.at(parse_cell(text))

    def __str__(self) -> str:
        return cell_name(self.cell)

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Move:
        expect_fields(action, "move", ("to",))
        to = action["to"]
        if not isinstance(to, list | tuple) or len(to) != 2:
            raise bad(f"to must be [row, col], got {to!r}")
        return cls((int_field(to[0], "to[0]", range(7)), int_field(to[1], "to[1]", range(7))))

    def to_dict(self) -> JSON:
        return {"type": "move", "to": list(self.to)}


def from_wire(action: Any, kinds: Mapping[str, Any]) -> Any:
    """The typed action of a wire dict, by its `type` among `kinds` (type name -> class
    with `from_dict`); anything malformed is `bad_message`."""
    if not isinstance(action, Mapping):
        raise bad("an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        names = list(kinds)
        expected = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
        raise bad(f"unknown action type {kind!r}; expected {expected}")
    return kinds[kind].from_dict(action)
