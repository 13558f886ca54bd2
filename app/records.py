"""Game records after the game: replay frames, import checks and fairness verification.

Shared by the HTTP API (`app/web/games.py`) and the command line (`python -m app.verify`),
so that the server and anyone holding a record file run exactly the same checks. Nothing
here branches on the variant: every engine answers through `Engine` (`reveal`,
`notation`, `result`), so a new variant replays, imports and verifies once it is in the
registry.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app import boundedjson
from app.rules import ENGINES, Game, IllegalAction, InvalidOptions, seed_hash
from app.rules.base import JSON
from app.text import TextError, clean_name, name_keys

# The fields of the protocol's record, and the optional ones the export adds (ext).
RECORD_FIELDS = {"variant", "options", "players", "seed", "actions"}
EXTRA_FIELDS = {"id", "seed_hash", "result", "imported"}


class InvalidRecord(ValueError):
    """A record that does not replay: `seq` is its first bad action (None: the record's
    shape itself is wrong), `message` says what is wrong in words, and `reason` which of
    `REASONS` it is, so a page can say it in its own language."""

    def __init__(self, message: str, seq: int | None = None, reason: str = "shape") -> None:
        super().__init__(message)
        self.message = message
        self.seq = seq
        self.reason = reason


#: Why a record is refused (the import's `error.reason`, ext): not JSON, not a record's
#: shape, options its game refuses, an illegal action, an action after the end, a game
#: not over, a seed that is not its claimed hash's, a result the replay does not reach.
REASONS = ("not_json", "shape", "options", "illegal", "over", "unfinished", "seed_hash", "result")


def _check_shape(record: Any) -> None:
    """Refuse anything that is not a record before the engine sees it, with a message a
    person can act on (a missing field, a wrong type)."""
    if not isinstance(record, Mapping):
        raise InvalidRecord("a record is a JSON object")
    missing = RECORD_FIELDS - set(record)
    if missing:
        raise InvalidRecord(f"the record lacks {', '.join(sorted(missing))}")
    unknown = set(record) - RECORD_FIELDS - EXTRA_FIELDS
    if unknown:
        raise InvalidRecord(f"unknown record fields: {', '.join(sorted(unknown))}")
    variant = record["variant"]
    if not isinstance(variant, str) or variant not in ENGINES:
        raise InvalidRecord(f"unknown variant {variant!r}")
    engine = ENGINES[variant]
    players = record["players"]
    if not isinstance(players, list) or len(players) > engine.max_players:
        raise InvalidRecord("players is a list of names")
    for index, player in enumerate(players):
        _check_name(index, player)
    if not engine.min_players <= len(players) <= engine.max_players:
        raise InvalidRecord(
            f"{variant} is for {engine.min_players} to {engine.max_players} players"
        )
    if not isinstance(record["seed"], str) or not 1 <= len(record["seed"]) <= 128:
        raise InvalidRecord("seed is a string of 1 to 128 characters")
    if record["options"] is not None and not isinstance(record["options"], Mapping):
        raise InvalidRecord("options is an object")
    actions = record["actions"]
    if not isinstance(actions, list) or len(actions) > engine.max_actions:
        raise InvalidRecord(f"actions is a list of at most {engine.max_actions} entries")
    for index, entry in enumerate(actions, start=1):
        if not isinstance(entry, Mapping) or set(entry) != {"seq", "seat", "action"}:
            raise InvalidRecord(f"action seq {index}: an entry is {{seq, seat, action}}", index)
        if entry["seq"] != index or type(entry["seat"]) is not int:
            raise InvalidRecord(f"action seq {index}: expected seq {index} and a seat", index)
        if not isinstance(entry["action"], Mapping):
            raise InvalidRecord(f"action seq {index}: the action is an object", index)


def _check_name(index: int, name: Any) -> None:
    """A player's name follows the one rule a table's names follow (`app/text.py`), and
    is stored as a table stores it: already trimmed."""
    if not isinstance(name, str):
        raise InvalidRecord(f"players[{index}]: a name is a string")
    try:
        clean = clean_name(name)
    except TextError as exc:
        raise InvalidRecord(f"players[{index}]: {exc.message}") from exc
    if clean != name:
        raise InvalidRecord(f"players[{index}]: a name has no surrounding spaces")


def _check_distinct_names(players: list[str]) -> None:
    """One name per table, as a join compares them (`name_taken`: case, lookalikes): an
    import is refused a record whose players a room would not have seated. Only imports
    check it: `verify` still re-plays a game stored before rooms compared names so."""
    keys: dict[str, int] = {}
    for index, player in enumerate(players):
        mine = name_keys(player)
        first = next((keys[key] for key in mine if key in keys), None)
        if first is not None:
            raise InvalidRecord(
                f"players[{index}]: the same name as players[{first}] "
                "(names are compared as a room compares them: case, lookalikes)"
            )
        keys.update(dict.fromkeys(mine, index))


def replay(record: Any) -> Game:
    """Re-play a record through its engine; `InvalidRecord` names the first bad action.

    The engine validates every action exactly as it does in a live room, so an imported
    record is as trustworthy as a played one.
    """
    _check_shape(record)
    try:
        game = Game.new(record["variant"], record["players"], record["seed"], record["options"])
    except InvalidOptions as exc:
        raise InvalidRecord(f"options: {exc}", reason="options") from exc
    for entry in record["actions"]:
        if game.result is not None:
            raise InvalidRecord(
                f"action seq {entry['seq']}: the game was already over", entry["seq"], "over"
            )
        try:
            game.apply(entry["seat"], entry["action"])
        except IllegalAction as exc:
            raise InvalidRecord(
                f"action seq {entry['seq']} ({exc.code}): {exc.message}", entry["seq"], "illegal"
            ) from exc
    return game


def replay_finished(record: Any) -> Game:
    """`replay`, and the game must be over: only finished games are stored for replay.

    A claimed `seed_hash` is checked before the re-play: an exported record whose seed
    was changed is refused for that (`seed_hash`), not for whichever action the other
    seed's board happens to make illegal first, which blamed a move nobody changed."""
    _check_shape(record)
    _check_seed_claim(record)
    game = replay(record)
    if game.result is None:
        raise InvalidRecord(
            f"the game is not over after action seq {game.seq}", reason="unfinished"
        )
    _check_claims(record, game)
    return game


def import_summary(body: bytes, max_depth: int = boundedjson.MAX_DEPTH) -> dict[str, Any]:
    """An uploaded record file read (`boundedjson`) and `replay_finished`, answered as
    plain data (what an import stores): it runs in a build process and crosses back."""
    try:
        record = boundedjson.loads(body, max_depth)
    except json.JSONDecodeError as exc:
        raise InvalidRecord(f"the record is not JSON: {exc}", reason="not_json") from exc
    except ValueError as exc:  # CPython's bound on an integer literal's digits
        limit = sys.get_int_max_str_digits()
        raise InvalidRecord(
            f"the record is not JSON: a number has more than {limit} digits", reason="not_json"
        ) from exc
    _check_shape(record)
    _check_distinct_names(record["players"])
    game = replay_finished(record)
    return {
        "variant": game.variant,
        "options": game.options,
        "players": list(game.players),
        "seed": game.seed,
        "seq": game.seq,
        "result": game.result,
        "actions": [tuple(entry) for entry in game.actions],
    }


def _check_claims(record: Mapping[str, Any], game: Game) -> None:
    """An exported record may carry its `result` (ext): when present it must be the
    replay's. (Its `seed_hash`, checked before the re-play, catches a changed seed even
    when the actions still happen to be legal under it.)"""
    claimed_result = record.get("result")
    if claimed_result is not None and claimed_result != game.result:
        raise InvalidRecord(
            f"result {_js(claimed_result)} differs from the replay's {_js(game.result)}",
            reason="result",
        )


def _check_seed_claim(record: Mapping[str, Any]) -> None:
    """A claimed `seed_hash` (ext) is the SHA-256 of the record's seed."""
    claimed_hash = record.get("seed_hash")
    if claimed_hash is not None and claimed_hash != seed_hash(record["seed"]):
        raise InvalidRecord(
            "seed_hash is not the SHA-256 of seed: the seed was changed", reason="seed_hash"
        )


def replay_data(record: Mapping[str, Any]) -> JSON:
    """The moves and one frame per step (`frames[k]` is the state after seq k, with every
    secret shown), computed by replaying the record once.

    Notation and events are taken from the finished game unredacted: the game is over,
    nothing is secret any more.
    """
    game = Game.new(record["variant"], record["players"], record["seed"], record.get("options"))
    engine = game.engine
    frames = [engine.reveal(game.state)]
    moves = []
    for entry in record["actions"]:
        events = game.apply(entry["seat"], entry["action"])
        frames.append(engine.reveal(game.state))
        moves.append(
            {
                "seq": entry["seq"],
                "seat": entry["seat"],
                "notation": engine.notation(entry["action"]),
                "action": entry["action"],
                "events": events,
            }
        )
    return {"moves": moves, "frames": frames}


@dataclass
class Verification:
    """The answer of a fairness check: each named check with its outcome and why."""

    checks: list[JSON] = field(default_factory=list)

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append({"name": name, "ok": ok, "detail": detail})

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c["ok"] for c in self.checks)

    def to_dict(self) -> JSON:
        return {"ok": self.ok, "checks": self.checks}


def verify(
    record: Mapping[str, Any],
    published_hash: str | None = None,
    final_seq: int | None = None,
    result: JSON | None = None,
) -> Verification:
    """Check a record against what was published: the seed hash committed at the start,
    the final seq and the result. Each argument left None is taken from the record itself
    (a record file carries `seed_hash` and `result` when exported by this server)."""
    out = Verification()
    published_hash = published_hash or _str_or_none(record.get("seed_hash"))
    seed = record.get("seed") if isinstance(record, Mapping) else None
    if published_hash is None:
        out.add("seed_hash", False, "no published seed hash to check the seed against")
    elif not isinstance(seed, str):
        out.add("seed_hash", False, "the record has no seed")
    else:
        actual = seed_hash(seed)
        same = actual == published_hash
        out.add("seed_hash", same, f"sha256(seed) = {actual}; published {published_hash}")
    try:
        game = replay(record)
    except InvalidRecord as exc:
        out.add("replay", False, exc.message)
        return out
    out.add("replay", True, f"{game.seq} actions replayed from the seed, every one legal")
    out.add("finished", game.result is not None, f"the replay ends with {_js(game.result)}")
    if final_seq is not None:
        out.add("final_seq", game.seq == final_seq, f"replay seq {game.seq}; stored {final_seq}")
    result = result if result is not None else record.get("result")
    if result is not None:
        out.add("result", game.result == result, f"replay {_js(game.result)}; stored {_js(result)}")
    return out


def _js(value: Any) -> str:
    """A value as JSON in a message, as the clients and the record file spell it."""
    return json.dumps(value, separators=(",", ":"))


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
