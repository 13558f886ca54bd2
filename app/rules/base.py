"""The one interface every game engine implements.

Rooms, storage, replays and bots talk to games only through `Engine`, so none of them
branches on the variant. Engines are pure: no I/O, no clock, no global randomness. Every
random choice comes from the `random.Random` handed in, which `rng_for` derives from the
game's seed and the sequence number of the action, so replaying a record reproduces the
game exactly.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, overload, runtime_checkable

JSON = dict[str, Any]


class IllegalAction(Exception):  # not ...Error: the name reads like the game
    """An action the engine refuses; the state is untouched when this is raised.

    `code` is one of the protocol's error codes: `bad_message` (the action does not
    parse), `not_your_turn`, `illegal` (against a rule; the message names the rule),
    `finished`.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidOptions(ValueError):
    """Room options that the variant does not accept (unknown key, wrong type)."""


RULES_VERSION = 2
"""The rules new games are played by. Version 1 is every game made before version 2
(classic and team seats zig-zagging round the board, master likewise, classic's
`double_turn` forced and `exchange` showing the pile for free, team's first Daedalus card
turned during setup, linking optional in the card game). A game's version is its option
`rules_version`; its absence means 1, so every record stored before version 2 re-plays
exactly as it was played. New rooms are stamped with `RULES_VERSION` (`new_options`)."""

VERSION_KEY = "rules_version"


def rules_version(options: Mapping[str, Any]) -> int:
    """The rules version a game is played by (1 when its options do not say)."""
    version = options.get(VERSION_KEY, 1)
    return version if isinstance(version, int) else 1


def take_version(raw: Mapping[str, Any]) -> tuple[dict[str, Any], JSON]:
    """Split `rules_version` off raw options, checked: the other options, and the version
    as parsed options hold it (nothing when absent, so old records keep their options)."""
    rest = {k: v for k, v in raw.items() if k != VERSION_KEY}
    if VERSION_KEY not in raw:
        return rest, {}
    version = raw[VERSION_KEY]
    if type(version) is not int or not 1 <= version <= RULES_VERSION:
        raise InvalidOptions(
            f"option {VERSION_KEY} must be an integer from 1 to {RULES_VERSION}, got {version!r}"
        )
    return rest, {VERSION_KEY: version}


def no_options(raw: Mapping[str, Any] | None, variant: str) -> JSON:
    """The options of a variant that has none but the rules version: nothing, or an
    object with at most `rules_version`."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InvalidOptions("options must be an object")
    rest, version = take_version(raw)
    if rest:
        raise InvalidOptions(f"unknown {variant} option(s): {', '.join(map(str, sorted(rest)))}")
    return version


@overload
def copy_result(result: None) -> None: ...
@overload
def copy_result(result: JSON) -> JSON: ...
def copy_result(result: JSON | None) -> JSON | None:
    """A game's result for a new state or a view, its lists (winners, scores) copied: a
    result handed out must not share anything a later change could reach."""
    if result is None:
        return None
    return {key: [*value] if isinstance(value, list) else value for key, value in result.items()}


def rng_for(seed: str, seq: int) -> random.Random:
    """The random source for setup (`seq == 0`) or for the action that produces `seq`.

    Derived by hashing, never from the clock, so that each step of a replay draws the
    same numbers whatever happened before it in the process.
    """
    digest = hashlib.sha256(f"{seed}/{seq}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


class LazyRandom:
    """`rng_for(seed, seq)`, made on the first draw: most actions (a push, a move) draw
    nothing, and seeding a Mersenne Twister cost more than applying a push. Every method
    of `random.Random` is the seeded one's, so the draws are the same as `rng_for`'s."""

    __slots__ = ("_rng", "_seed", "_seq")

    def __init__(self, seed: str, seq: int) -> None:
        self._seed, self._seq = seed, seq
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:  # only for names the slots lack: the draws
        rng = self._rng
        if rng is None:
            rng = self._rng = rng_for(self._seed, self._seq)
        return getattr(rng, name)


def seed_hash(seed: str) -> str:
    """The public commitment to a game's seed (SHA-256, hex)."""
    return hashlib.sha256(seed.encode()).hexdigest()


@runtime_checkable
class GameState(Protocol):
    """What the server needs of any engine's state object."""

    seq: int

    def clone(self) -> GameState:
        """An independent copy, so a tentative action can be applied and thrown away."""
        ...


class Engine(Protocol):
    """A game variant. Every method is deterministic given its arguments."""

    variant: str
    min_players: int
    max_players: int
    # The most actions a game may have: far above any real game (random play, nobody
    # trying to win, ends well below it), so that a game played only to grow, live or
    # imported, costs a bounded rebuild. Live play refuses the next action (`too_long`),
    # import refuses the record.
    max_actions: int

    def parse_options(self, raw: Mapping[str, Any] | None) -> JSON:
        """Validate room options and fill in defaults; raise `InvalidOptions`."""
        ...

    def setup(self, players: Sequence[str], options: JSON, rng: random.Random) -> Any:
        """A new game for these player names (seat i is players[i]); `seq` is 0."""
        ...

    def apply(
        self, state: Any, seat: int, action: Mapping[str, Any], rng: random.Random
    ) -> list[JSON]:
        """Validate completely, then change `state` in place and return the events.

        Raises `IllegalAction` before touching anything. Increments `state.seq` by one.
        """
        ...

    def to_move(self, state: Any) -> int | None:
        """The seat expected to act next, or None when the game is over."""
        ...

    def legal_actions(self, state: Any, seat: int | None) -> list[JSON]:
        """Every action `seat` may send now; each is accepted, and only these are."""
        ...

    def view(self, state: Any, viewer: int | None) -> JSON:
        """The state as `viewer` (a seat, or None for a spectator) may see it.

        The only road by which state leaves the engine: secrets are removed here.
        """
        ...

    def reveal(self, state: Any) -> JSON:
        """The view with every secret shown (hands, piles, targets, face-down faces, deck
        orders), whatever the status: the frames of a finished game's replay."""
        ...

    def redact_action(self, state: Any, seat: int, action: JSON, viewer: int | None) -> JSON:
        """The action `seat` took, as far as `viewer` may know it (e.g. a picked card hidden)."""
        ...

    def redact_events(self, state: Any, events: list[JSON], viewer: int | None) -> list[JSON]:
        """The events of an action, without those `viewer` may not see."""
        ...

    def result(self, state: Any) -> JSON | None:
        """None while playing; `{"winners": [seats], ...}` once finished."""
        ...

    def notation(self, action: JSON) -> str:
        """Human notation of a (possibly redacted) action: `Nb+1`, `c3`, `swap:2`."""
        ...
