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

Face-down tiles are walls to the view, which never shows their faces. The hard player
keeps a memory (`team_memory`, fed only the seat's own views and events): a tile it saw
face up before it was turned down keeps its treasure there, which it fetches by stepping
onto the back and turning it up; it turns unknown backs up before remembered plain ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
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
from app.bots.team_memory import TeamMemory
from app.rules.board import (
    FULL,
    NOT_FIRST_COL,
    NOT_LAST_COL,
    SIZE,
    Board,
    carried,
    cell_of,
    cells_of,
    open_str,
    parse_open,
    row_col,
)
from app.rules.team import orientations

VARIANT = "team"
HIT = 100.0
TEAM_WEIGHT = 0.2  # a team-mate's step lost counts a fifth of one's own
CHAINED_PUSHES = 12
REVEAL = 3.0  # a face-down tile in step, when a wanted treasure is under one


@dataclass(slots=True)
class Scene:
    """A board as this seat sees it, with what stands where, and what it remembers."""

    board: Board
    down: frozenset[int]  # tile ids face down
    positions: list[int]
    # tile id -> the treasure this seat saw on that face-down tile ("" none): its memory
    known: dict[int, str] = field(default_factory=dict)

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


def _scene(view: dict[str, Any], memory: TeamMemory | None = None) -> Scene:
    """The board of the view; tile ids are the view's cells (the spare 49). With a
    memory, the treasures remembered under the face-down tiles."""
    board = board_from_view(view)
    down = frozenset(cells_of(face_down_mask(view)))
    known: dict[int, str] = {}
    if memory is not None:
        for tile in down:
            treasure = memory.under(tile)
            if treasure is not None:
                known[tile] = treasure
    return Scene(board, down, [cell_of(*p["pos"]) for p in view["players"]], known)


def _target_mask(scene: Scene, wanted: set[str]) -> int:
    """Cells where this seat collects on stopping: face-up tiles showing a wanted
    treasure, and face-down tiles it remembers one under (turned up on stepping there)."""
    mask = 0
    for cell, tile in enumerate(scene.board.tiles):
        if tile in scene.down:
            if scene.known.get(tile) in wanted:
                mask |= 1 << cell
        elif scene.board.catalogue[tile].treasure in wanted:
            mask |= 1 << cell
    return mask


def _reach(scene: Scene, cell: int) -> int:
    """Where the pawn on `cell` may stop: along open paths, and onto a face-down tile
    next to them (it stops there and turns it up)."""
    down = scene.down_mask()
    reach = scene.board.flood_blocked(1 << cell, down)
    return reach | scene.board.stepping_mask(reach, down)


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
    reach = _reach(scene, scene.positions[you])
    own = _distance(reach, mine)
    value = HIT if own == 0 else -float(own)
    if own and _hidden(scene, wanted[you]):
        down = scene.down_mask()
        if scene.board.stepping_mask(reach, down):
            value += REVEAL
    for seat, theirs in enumerate(wanted):
        if seat == you or not theirs:
            continue
        targets = _target_mask(scene, theirs)
        if targets:
            value -= TEAM_WEIGHT * _distance(_reach(scene, scene.positions[seat]), targets)
    return value


def _hidden(scene: Scene, wanted: set[str]) -> set[str]:
    """The wanted treasures shown nowhere (face up in the maze or on the spare): they are
    under face-down tiles, so turning those up is the way to them."""
    if not wanted:
        return set()
    board = scene.board
    shown = {board.catalogue[board.spare].treasure}
    shown |= {board.catalogue[t].treasure for t in board.tiles if t not in scene.down}
    shown |= set(scene.known.values())  # remembered under a face-down tile
    return wanted - shown


def _pushed(scene: Scene, action: Action) -> Scene:
    slot = slot_of(action)
    board = scene.board.clone()
    board.push(slot, action["rotation"])
    return Scene(board, scene.down, [carried(slot, p) for p in scene.positions], scene.known)


def _rotated(scene: Scene, action: Action) -> Scene:
    board = scene.board.clone()
    board.opens[cell_of(*action["at"])] = parse_open(action["open"])
    board.refresh()
    return Scene(board, scene.down, scene.positions, scene.known)


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
    near_goal = _neighbourhood(scene.board.flood_blocked(targets, down) | targets)
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


def _orient(
    view: dict[str, Any],
    orients: list[Action],
    rng: random.Random,
    memory: TeamMemory | None = None,
) -> Action:
    """Turn the tile just stepped on so that its paths open toward this seat's treasures
    (or at least as widely as possible)."""
    scene = _scene(view, memory)
    at = cell_of(*view["turn"]["orient_at"])
    wanted = [_wanted(view, p["seat"]) for p in view["players"]]
    scene = Scene(scene.board, scene.down - {scene.board.tiles[at]}, scene.positions, scene.known)
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
    down = scene.down_mask()
    flips = [c for c in moves if down >> c & 1]
    unknown = [c for c in flips if scene.board.tiles[c] not in scene.known]
    flips = unknown or flips
    hidden = _hidden(scene, _wanted(view, you))
    team_hidden = set().union(*(_hidden(scene, _wanted(view, p["seat"])) for p in view["players"]))
    if flips and (hidden or (team_hidden and not targets) or not targets):
        # Turn a tile up: one this turn's Daedalus card just flipped over a wanted
        # treasure if there is one (the card is public), else any.
        card = (view.get("daedalus") or {}).get("card") or {}
        effect = (view.get("daedalus") or {}).get("effect") or {}
        named = (hidden or team_hidden) & set(card.get("tiles", []))
        if named and not view["turn"]["used"]:
            cells = {cell_of(*c) for c in effect.get("cells", [])}
            if any(c in cells for c in flips):
                flips = [c for c in flips if c in cells]
        return moves[rng.choice(flips)]
    if targets:
        best = min(_distance(1 << c, targets) for c in moves)
        if best >= _distance(1 << here, targets):
            return None
        return moves[rng.choice([c for c in moves if _distance(1 << c, targets) == best])]
    return None


# -- hard: a turn's plan ----------------------------------------------------------------


def _wanted_from(view: dict[str, Any], boards: list[list[str]], seat: int) -> set[str]:
    """`_wanted` for boards changed by collections planned this turn."""
    expert = view["options"].get("mode") == "expert"
    own = boards[seat]
    if own:
        return set(own[:1] if expert else own)
    if view.get("treasure_deck"):
        return set()
    return {t for s, b in enumerate(boards) if s != seat for t in (b[:1] if expert else b)}


def _rotations_near(view: dict[str, Any], scene: Scene, targets: int) -> list[Action]:
    """The rotate spells worth trying: face-up movable tiles between this seat's reach
    and the paths of a treasure, each in its other orientations."""
    if not targets:
        return []
    down = scene.down_mask()
    near_me = _neighbourhood(_reach(scene, scene.positions[view["you"]]))
    near_goal = _neighbourhood(scene.board.flood_blocked(targets, down) | targets)
    board = scene.board
    actions = []
    for cell in cells_of(near_me & near_goal & ~down):
        info = board.catalogue[board.tiles[cell]]
        if info.fixed:
            continue
        for mask in orientations(info.shape):
            if mask != board.opens[cell]:
                actions.append(
                    {"type": "rotate", "at": list(row_col(cell)), "open": open_str(mask)}
                )
    return actions


@dataclass(slots=True)
class _Plan:
    collected: int = 0
    first: Action | None = None


def _plan(view: dict[str, Any], kinds: dict[str, list[Action]], scene: Scene) -> _Plan:
    """The most treasures this seat can collect this turn with the spells it has left
    (push, rotate), its moves and the bonus move: a small search whose first step is
    played now (the next decision searches again from what then is)."""
    you = view["you"]
    turn = view["turn"]
    best = _Plan()
    pushes = kinds.get("push", [])
    root_moves = 0
    for move in kinds.get("move", []):
        root_moves |= 1 << cell_of(*move["to"])

    def search(
        scene: Scene,
        boards: list[list[str]],
        can_push: bool,
        can_rotate: bool,
        moves: int,
        collected: int,
        first: Action | None,
        root: bool,
    ) -> None:
        if collected > best.collected:
            best.collected, best.first = collected, first
        if collected >= 2 or best.collected >= 2 or moves >= 1 + min(collected, 1):
            return
        wanted = _wanted_from(view, boards, you)
        targets = _target_mask(scene, wanted)
        if not targets:
            return
        reach = root_moves if root else _reach(scene, scene.positions[you])
        for cell in cells_of(reach & targets):
            treasure = scene.board.catalogue[scene.board.tiles[cell]].treasure
            after = [[t for t in b if t != treasure] for b in boards]
            positions = scene.positions.copy()
            positions[you] = cell
            step = Scene(scene.board, scene.down, positions, scene.known)
            move = _move_to(cell)
            search(
                step, after, can_push, can_rotate, moves + 1, collected + 1, first or move, False
            )
        chain: list[tuple[int, Scene, Action, str]] = []
        if can_push:
            for push in pushes:
                after = _pushed(scene, push)
                if _reach(after, after.positions[you]) & _target_mask(after, wanted):
                    search(after, boards, False, can_rotate, moves, collected, first or push, False)
                elif can_rotate:
                    d = _distance(_reach(after, after.positions[you]), _target_mask(after, wanted))
                    chain.append((d, after, push, "push"))
        if can_rotate:
            for rotate in _rotations_near(view, scene, targets):
                after = _rotated(scene, rotate)
                if _reach(after, after.positions[you]) & targets:
                    search(after, boards, can_push, False, moves, collected, first or rotate, False)
                elif can_push:
                    chain.append((0, after, rotate, "rotate"))
        if best.collected > collected:
            return  # a single spell does it: no chains
        chain.sort(key=lambda item: item[0])
        for _, after, action, kind in chain[:CHAINED_PUSHES]:
            search(
                after,
                boards,
                can_push and kind != "push",
                can_rotate and kind != "rotate",
                moves,
                collected,
                first or action,
                False,
            )

    boards = [list(p["board"]) for p in view["players"]]
    search(
        scene,
        boards,
        bool(pushes),
        bool(kinds.get("rotate")),
        turn["moves"],
        turn["collected"],
        None,
        True,
    )
    return best


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


def choose_hard(
    view: dict[str, Any],
    legal: list[Action],
    rng: random.Random,
    memory: TeamMemory | None = None,
) -> Action:
    """With a `memory` (what this seat saw face up before, see `team_memory`), it also
    goes for the treasures it remembers under face-down tiles; without, it plays from
    the view alone."""
    kinds = by_type(legal)
    if "orient" in kinds:
        return _orient(view, kinds["orient"], rng, memory)
    scene = _scene(view, memory)
    wanted = [_wanted(view, p["seat"]) for p in view["players"]]
    moves = _moves(kinds)
    plan = _plan(view, kinds, scene)
    if plan.first is not None and plan.collected > view["turn"]["collected"]:
        first = plan.first
        if first["type"] == "move":
            return moves.get(cell_of(*first["to"]), first)
        return first
    pushes, rotates = kinds.get("push", []), kinds.get("rotate", [])
    now = _value(view, scene, wanted)
    options: list[tuple[float, Action]] = []
    pushed = [(_value(view, s, wanted), a, s) for a in pushes for s in [_pushed(scene, a)]]
    options += [(v, a) for v, a, _ in pushed]
    useful = _useful_rotations(view, scene, rotates)
    options += [(_value(view, _rotated(scene, a), wanted), a) for a in useful]
    # Nothing to collect this turn: get nearer (spells are ready again next turn).
    if options and max(v for v, _ in options) > now + 0.5:
        return best_of(options, rng)
    if moves:
        walk = _walk(view, scene, moves, rng)
        if walk is not None:
            return walk
    return kinds["end"][0] if "end" in kinds else fallback(legal, rng)


def new_memory() -> TeamMemory:
    """A fresh memory for one seat of one game (only the hard player reads it)."""
    return TeamMemory()


__all__ = ["choose_easy", "choose_hard", "choose_medium", "new_memory"]
