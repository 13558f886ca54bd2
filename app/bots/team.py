"""Computer players for Labyrinth Team Edition (all modes), from their own view and `legal`.

The team wins only by collecting all 24 treasures before the Book of Daedalus runs out,
about one a turn, so every level is about collecting; they differ in how far they look.

- `easy`: walks to a treasure it sees most of the time; pushes at random now and then.
- `medium`: one-step greedy: the push spell that brings one of its treasures within reach
  (else nearer), then the walk.
- `hard`: searches the spells it holds, alone and chained (push then rotate, rotate then
  push, over the tiles that matter), for a way onto one of its treasures; when none
  reaches, it gets nearer without pushing its team-mates away from theirs (each seat
  fetches the treasures on its own board, so "who fetches which" is the boards' split,
  and the team's plan is that no push of one undoes another's approach); with nothing
  visible to fetch, it turns face-down tiles up, which is where hidden treasures are.

Face-down tiles are walls to it, as the view shows them: never their faces.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.bots.maze import (
    DIST,
    FAR,
    Action,
    best_of,
    board_from_view,
    by_type,
    face_down_mask,
    fallback,
    slot_of,
)
from app.rules.board import (
    FULL,
    NOT_FIRST_COL,
    NOT_LAST_COL,
    SIZE,
    Board,
    carried,
    cell_of,
    cells_of,
    parse_open,
    row_col,
)

VARIANT = "team"
HIT = 100.0
TEAM_WEIGHT = 0.2  # a team-mate's step lost counts a fifth of one's own
CHAINED_PUSHES = 12


@dataclass(slots=True)
class Scene:
    """A board as this seat sees it, with what stands where."""

    board: Board
    down: frozenset[int]  # tile ids face down
    positions: list[int]

    def down_mask(self) -> int:
        mask = 0
        for cell, tile in enumerate(self.board.tiles):
            if tile in self.down:
                mask |= 1 << cell
        return mask


def _wanted(view: dict[str, Any], seat: int) -> set[str]:
    """The treasures `seat` may collect now (its board; the others' once the deck and its
    board are empty; expert: left cards only)."""
    expert = view["options"].get("mode") == "expert"
    players = view["players"]
    own = players[seat]["board"]
    if own:
        return set(own[:1] if expert else own)
    if view.get("treasure_deck"):
        return set()
    return {
        t for p in players if p["seat"] != seat for t in (p["board"][:1] if expert else p["board"])
    }


def _scene(view: dict[str, Any]) -> Scene:
    board = board_from_view(view)
    down = frozenset(cells_of(face_down_mask(view)))
    return Scene(board, down, [cell_of(*p["pos"]) for p in view["players"]])


def _target_mask(scene: Scene, wanted: set[str]) -> int:
    mask = 0
    for cell, tile in enumerate(scene.board.tiles):
        if tile not in scene.down and scene.board.catalogue[tile].treasure in wanted:
            mask |= 1 << cell
    return mask


def _reach(scene: Scene, cell: int) -> int:
    down = scene.down_mask()
    return scene.board.flood_blocked(1 << cell, down)


def _distance(reach: int, targets: int) -> int:
    """Fewest steps, walls ignored, from the reach to a target; 0 when one is in it."""
    if reach & targets:
        return 0
    if not targets or not reach:
        return FAR
    return min(DIST[a][b] for a in cells_of(reach) for b in cells_of(targets))


def _value(view: dict[str, Any], scene: Scene, wanted: list[set[str]]) -> float:
    """How good this scene is for this seat (a treasure in reach, else nearness), less
    what it costs the team-mates who still have treasures to fetch."""
    you = view["you"]
    mine = _target_mask(scene, wanted[you])
    own = _distance(_reach(scene, scene.positions[you]), mine)
    value = HIT if own == 0 else -float(own)
    for seat, theirs in enumerate(wanted):
        if seat == you or not theirs:
            continue
        targets = _target_mask(scene, theirs)
        if targets:
            value -= TEAM_WEIGHT * _distance(_reach(scene, scene.positions[seat]), targets)
    return value


def _pushed(scene: Scene, action: Action) -> Scene:
    slot = slot_of(action)
    board = scene.board.clone()
    board.push(slot, action["rotation"])
    return Scene(board, scene.down, [carried(slot, p) for p in scene.positions])


def _rotated(scene: Scene, action: Action) -> Scene:
    board = scene.board.clone()
    board.opens[cell_of(*action["at"])] = parse_open(action["open"])
    board.refresh()
    return Scene(board, scene.down, scene.positions)


def _neighbourhood(mask: int) -> int:
    return (
        mask
        | ((mask << 1) & NOT_FIRST_COL)
        | ((mask >> 1) & NOT_LAST_COL)
        | ((mask << SIZE) & FULL)
        | (mask >> SIZE)
    )


def _useful_rotations(view: dict[str, Any], scene: Scene, rotates: list[Action]) -> list[Action]:
    """Rotations of tiles between this seat's reach and a treasure's paths: the only ones
    that can join them."""
    you = view["you"]
    targets = _target_mask(scene, _wanted(view, you))
    if not targets:
        return []
    down = scene.down_mask()
    near_me = _neighbourhood(_reach(scene, scene.positions[you]))
    near_goal = _neighbourhood(scene.board.flood_blocked(targets, down))
    keep = near_me & near_goal
    return [a for a in rotates if keep >> cell_of(*a["at"]) & 1]


def _move_to(cell: int, spell: bool = False) -> Action:
    return {"type": "move", "to": list(row_col(cell)), "spell": spell}


def _moves(kinds: dict[str, list[Action]]) -> dict[int, Action]:
    """Destination -> the move there, preferring the one that spends no spell."""
    best: dict[int, Action] = {}
    for move in kinds.get("move", []):
        cell = cell_of(*move["to"])
        if cell not in best or best[cell].get("spell"):
            best[cell] = move
    return best


def _orient(view: dict[str, Any], orients: list[Action], rng: random.Random) -> Action:
    """Turn the tile just stepped on so that its paths open toward this seat's treasures
    (or at least as widely as possible)."""
    scene = _scene(view)
    at = cell_of(*view["turn"]["orient_at"])
    wanted = [_wanted(view, p["seat"]) for p in view["players"]]
    scene = Scene(scene.board, scene.down - {scene.board.tiles[at]}, scene.positions)
    scored = []
    for action in orients:
        trial = _rotated(scene, {"at": list(row_col(at)), "open": action["open"]})
        reach = _reach(trial, at)
        scored.append((_value(view, trial, wanted) + bin(reach).count("1") / 100, action))
    return best_of(scored, rng)


def _walk(
    view: dict[str, Any], scene: Scene, moves: dict[int, Action], rng: random.Random
) -> Action | None:
    """The stop to walk to: a treasure; else nearest one; else a face-down tile to turn
    up (where unseen treasures are); None when staying is as good."""
    you = view["you"]
    targets = _target_mask(scene, _wanted(view, you))
    hits = [c for c in moves if targets >> c & 1]
    if hits:
        return moves[rng.choice(hits)]
    here = scene.positions[you]
    if targets:
        best = min(_distance(1 << c, targets) for c in moves)
        if best >= _distance(1 << here, targets):
            return None
        return moves[rng.choice([c for c in moves if _distance(1 << c, targets) == best])]
    down = scene.down_mask()
    flips = [c for c in moves if down >> c & 1]
    return moves[rng.choice(flips)] if flips else None


# -- the three levels -------------------------------------------------------------------


def choose_easy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kinds = by_type(legal)
    if "orient" in kinds:
        return rng.choice(kinds["orient"])
    moves = _moves(kinds)
    if moves:
        scene = _scene(view)
        targets = _target_mask(scene, _wanted(view, view["you"]))
        hits = [c for c in moves if targets >> c & 1]
        if hits and rng.random() < 0.7:
            return moves[rng.choice(hits)]
        if "push" in kinds and rng.random() < 0.3:
            return rng.choice(kinds["push"])
        if rng.random() < 0.5:
            return moves[rng.choice(sorted(moves))]
    return kinds["end"][0] if "end" in kinds else fallback(legal, rng)


def choose_medium(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kinds = by_type(legal)
    if "orient" in kinds:
        return _orient(view, kinds["orient"], rng)
    scene = _scene(view)
    you = view["you"]
    moves = _moves(kinds)
    targets = _target_mask(scene, _wanted(view, you))
    hits = [c for c in moves if targets >> c & 1]
    if hits:
        return moves[rng.choice(hits)]
    if "push" in kinds:
        mine = [_wanted(view, you) if p["seat"] == you else set() for p in view["players"]]
        now = _value(view, scene, mine)
        scored = [(_value(view, _pushed(scene, a), mine), a) for a in kinds["push"]]
        if max(s for s, _ in scored) > now:
            return best_of(scored, rng)
    if moves:
        walk = _walk(view, scene, moves, rng)
        if walk is not None:
            return walk
    return kinds["end"][0] if "end" in kinds else fallback(legal, rng)


def choose_hard(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kinds = by_type(legal)
    if "orient" in kinds:
        return _orient(view, kinds["orient"], rng)
    scene = _scene(view)
    you = view["you"]
    wanted = [_wanted(view, p["seat"]) for p in view["players"]]
    moves = _moves(kinds)
    targets = _target_mask(scene, wanted[you])
    hits = [c for c in moves if targets >> c & 1]
    if hits:
        return moves[rng.choice(hits)]
    pushes, rotates = kinds.get("push", []), kinds.get("rotate", [])
    now = _value(view, scene, wanted)
    options: list[tuple[float, Action]] = []
    pushed = [(_value(view, s, wanted), a, s) for a in pushes for s in [_pushed(scene, a)]]
    options += [(v, a) for v, a, _ in pushed]
    useful = _useful_rotations(view, scene, rotates)
    options += [(_value(view, _rotated(scene, a), wanted), a) for a in useful]
    if moves and max((v for v, _ in options), default=-FAR) < HIT - 1:
        # Chains of two spells that reach a treasure: start with the first of them.
        pushed.sort(key=lambda item: item[0], reverse=True)
        for _, push, after in pushed[:CHAINED_PUSHES] if rotates else []:
            for rotate in _useful_rotations(view, after, rotates):
                options.append((_value(view, _rotated(after, rotate), wanted) - 0.5, push))
        for rotate in useful if pushes else []:
            turned = _rotated(scene, rotate)
            for push in pushes:
                options.append((_value(view, _pushed(turned, push), wanted) - 0.5, rotate))
    if options and max(v for v, _ in options) > now + 0.5:
        return best_of(options, rng)
    if moves:
        walk = _walk(view, scene, moves, rng)
        if walk is not None:
            return walk
    return kinds["end"][0] if "end" in kinds else fallback(legal, rng)


__all__ = ["choose_easy", "choose_hard", "choose_medium"]
