"""Computer players for Labyrinth Team Edition (all modes), from their own view and `legal`.

The team wins only by collecting all 24 treasures before the 24 cards of the Book of
Daedalus run out: one a turn on average, two at most (the first gives a bonus move). So
every level plans its turn's collections (`_plan`: the spells it knows, its moves and the
bonus move) and plays the plan's first step; they differ in what they plan with and in
what they know (`Style`):

- `easy`: one spell at a time (a push, or a rotate/switch), never its move spell; when
  nothing is in reach it sometimes (a tenth of those decisions) plays at random.
- `medium`: chains two spells (push then rotate, rotate then push) and uses its move
  spell, but sees only the table now: no memory of tiles turned face down before this
  turn's card, and it gets nearer its own treasures thinking of itself alone.
- `hard`: medium's plan, plus a memory of what it saw on tiles now face down (the main
  difference: without one, treasures flipped by Daedalus are lost to guessing) and
  getting nearer without pushing its team-mates away from theirs.

Before, easy and medium did not plan: easy walked onto a treasure only when one was
already in reach and otherwise ended its turn; medium tried a push alone and never its
second spell. Neither collected the ~1 treasure a turn the game needs (easy ~1, medium
~13 of 24 a game) and no table of them ever won.

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
from app.rules.classic import TREASURES
from app.rules.team import MOVE_SPELLS, destinations, orientations

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


def _just_flipped(view: dict[str, Any], down: frozenset[int]) -> dict[int, str]:
    """What is under the tiles this turn's Daedalus flip card just turned face down, as
    every player at the table saw (the card names them; the effect says where): no
    memory needed while no push or switch of this turn has moved them since."""
    daedalus = view.get("daedalus") or {}
    card, effect = daedalus.get("card") or {}, daedalus.get("effect") or {}
    if card.get("kind") != "flip" or effect.get("kind") != "flip":
        return {}
    if {"push", "switch"} & set(view["turn"]["used"]):
        return {}
    cells = [cell_of(*c) for c in effect.get("cells", [])]
    names = [str(n) for n in card.get("tiles", [])]
    if len(cells) < len(names):  # a named tile was down already or the spare
        shown = {t.get("treasure") for row in view["board"]["tiles"] for t in row}
        shown |= {t.get("symbol") for row in view["board"]["tiles"] for t in row}
        spare = view["board"]["spare"]
        shown |= {spare.get("treasure"), spare.get("symbol")}
        names = [n for n in names if n not in shown and n not in view.get("collected", [])]
    if len(cells) != len(names):
        return {}
    return {
        cell: name if name in TREASURES else ""
        for cell, name in zip(cells, names, strict=True)
        if cell in down
    }


def _scene(view: dict[str, Any], memory: TeamMemory | None = None) -> Scene:
    """The board of the view; tile ids are the view's cells (the spare 49). What is
    under the face-down tiles: this turn's flip (the card on the table), and with a
    memory, what this seat saw face up before."""
    board = board_from_view(view)
    down = frozenset(cells_of(face_down_mask(view)))
    known: dict[int, str] = _just_flipped(view, down)
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


# -- a turn's plan (every level plans; they differ in what with) -------------------------


@dataclass(frozen=True, slots=True)
class Style:
    """What a level plays a turn with. Every level looks for this turn's collections (the
    team needs about one a turn: 24 treasures, 24 Daedalus cards), and that search is
    what wins; the levels differ in which spells it combines, how it lays a tile it
    turned up, what it does when nothing is to be taken, and what it remembers (only
    hard gets a memory: `app.bots.REMEMBERING`)."""

    chains: bool  # plans two spells together (push then rotate, rotate then push, ...)
    modifier: bool  # plans its move spell (traverse, teleport, escape) after a board spell
    team: float  # how much a team-mate's step lost counts when only getting nearer
    orient: bool  # lays a turned-up tile toward its treasures (else any way)
    slip: float  # with nothing to take, how often it potters about at random instead


# easy: one spell at a time, a tenth of its idle decisions wasted at random
EASY = Style(chains=False, modifier=False, team=0.0, orient=True, slip=0.1)
# medium: chains push and rotate/switch, but forgets what it no longer sees
MEDIUM = Style(chains=True, modifier=True, team=0.0, orient=True, slip=0.0)
HARD = Style(chains=True, modifier=True, team=TEAM_WEIGHT, orient=True, slip=0.0)


def _wanted_from(view: dict[str, Any], boards: list[list[str]], seat: int) -> set[str]:
    """`_wanted` for boards changed by collections planned this turn."""
    expert = view["options"].get("mode") == "expert"
    own = boards[seat]
    if own:
        return set(own[:1] if expert else own)
    if view.get("treasure_deck"):
        return set()
    return {t for s, b in enumerate(boards) if s != seat for t in (b[:1] if expert else b)}


def _near(view: dict[str, Any], scene: Scene, targets: int) -> int:
    """Cells between this seat's reach and a treasure's paths: the only tiles whose
    turning or swapping can join them."""
    down = scene.down_mask()
    near_me = _neighbourhood(_reach(scene, scene.positions[view["you"]]))
    near_goal = _neighbourhood(scene.board.flood_blocked(targets, down) | targets)
    return near_me & near_goal


def _rotations_near(view: dict[str, Any], scene: Scene, targets: int) -> list[Action]:
    """The rotate spells worth trying: face-up movable tiles between this seat's reach
    and the paths of a treasure, each in its other orientations."""
    if not targets:
        return []
    down = scene.down_mask()
    board = scene.board
    actions = []
    for cell in cells_of(_near(view, scene, targets) & ~down):
        info = board.catalogue[board.tiles[cell]]
        if info.fixed:
            continue
        for mask in orientations(info.shape):
            if mask != board.opens[cell]:
                actions.append(
                    {"type": "rotate", "at": list(row_col(cell)), "open": open_str(mask)}
                )
    return actions


def _switches_near(
    view: dict[str, Any], scene: Scene, targets: int, switches: list[Action]
) -> list[Action]:
    """The switch spells worth trying: those moving a tile next to this seat's reach or
    a treasure's paths, or a treasure's own tile."""
    if not targets or not switches:
        return []
    keep = _near(view, scene, targets) | targets
    seen: set[tuple[int, int]] = set()
    actions = []
    for action in switches:
        a, b = (cell_of(*c) for c in action["cells"])
        if (b, a) in seen or not (keep >> a & 1 or keep >> b & 1):
            continue
        seen.add((a, b))
        actions.append(action)
    return actions


def _switched(scene: Scene, action: Action) -> Scene:
    a, b = (cell_of(*c) for c in action["cells"])
    board = scene.board.clone()
    board.tiles[a], board.tiles[b] = board.tiles[b], board.tiles[a]
    board.opens[a], board.opens[b] = board.opens[b], board.opens[a]
    board.refresh()
    positions = [b if p == a else a if p == b else p for p in scene.positions]
    return Scene(board, scene.down, positions, scene.known)


def _modifier(view: dict[str, Any]) -> str | None:
    """This seat's unused move spell (traverse, teleport, escape), if any."""
    held = view["players"][view["you"]]["spells"]
    used = view["turn"]["used"]
    for spell in held:
        if spell in MOVE_SPELLS and spell not in used:
            return str(spell)
    return None


def _stops(scene: Scene, seat: int, spell: str | None) -> tuple[int, int]:
    """(where the pawn may stop without its move spell, where only with it)."""
    cell = scene.positions[seat]
    plain = _reach(scene, cell)
    if spell is None:
        return plain, 0
    return plain, destinations(scene.board, scene.down_mask(), cell, spell) & ~plain


@dataclass(slots=True)
class _Plan:
    collected: int = 0
    first: Action | None = None


def _plan(
    view: dict[str, Any], kinds: dict[str, list[Action]], scene: Scene, style: Style = HARD
) -> _Plan:
    """The most treasures this seat can collect this turn with the spells it has left
    and `style` knows (push, rotate or switch, its move spell), its moves and the bonus
    move: a small search whose first step is played now (the next decision searches
    again from what then is)."""
    you = view["you"]
    turn = view["turn"]
    best = _Plan()
    pushes = kinds.get("push", [])
    second = "rotate" if kinds.get("rotate") else "switch" if kinds.get("switch") else ""
    root_plain = root_spelled = 0
    for move in kinds.get("move", []):
        if move.get("spell"):
            root_spelled |= 1 << cell_of(*move["to"])
        else:
            root_plain |= 1 << cell_of(*move["to"])
    if not style.modifier:
        root_spelled = 0

    def seconds(scene: Scene, targets: int) -> list[tuple[Scene, Action]]:
        if second == "rotate":
            return [(_rotated(scene, a), a) for a in _rotations_near(view, scene, targets)]
        if second == "switch":
            near = _switches_near(view, scene, targets, kinds["switch"])
            return [(_switched(scene, a), a) for a in near]
        return []

    def search(
        scene: Scene,
        boards: list[list[str]],
        can_push: bool,
        can_second: bool,
        spell: str | None,
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
        if root:
            plain, spelled = root_plain, root_spelled & ~root_plain
        else:
            plain, spelled = _stops(scene, you, spell if style.modifier else None)
        for cell in cells_of((plain | spelled) & targets):
            tile = scene.board.tiles[cell]
            treasure = scene.known.get(tile, "") if tile in scene.down else None
            treasure = treasure or scene.board.catalogue[tile].treasure
            after = [[t for t in b if t != treasure] for b in boards]
            positions = scene.positions.copy()
            positions[you] = cell
            step = Scene(scene.board, scene.down, positions, scene.known)
            by_spell = not plain >> cell & 1
            move = _move_to(cell, by_spell)
            search(
                step,
                after,
                can_push,
                can_second,
                None if by_spell else spell,
                moves + 1,
                collected + 1,
                first or move,
                False,
            )
        chain: list[tuple[int, Scene, Action, str]] = []

        def reaches(after: Scene) -> tuple[bool, int]:
            plain, spelled = _stops(after, you, spell if style.modifier else None)
            aims = _target_mask(after, wanted)
            return bool((plain | spelled) & aims), _distance(plain, aims)

        if can_push:
            for push in pushes:
                after = _pushed(scene, push)
                hit, d = reaches(after)
                if hit:
                    search(after, boards, False, can_second, spell, moves, collected,
                           first or push, False)  # fmt: skip
                elif can_second and style.chains:
                    chain.append((d, after, push, "push"))
        if can_second:
            for after, action in seconds(scene, targets):
                hit, _ = reaches(after)
                if hit:
                    search(after, boards, can_push, False, spell, moves, collected,
                           first or action, False)  # fmt: skip
                elif can_push and style.chains:
                    chain.append((0, after, action, "second"))
        if best.collected > collected or not style.chains:
            return  # a single spell does it: no chains
        chain.sort(key=lambda item: item[0])
        for _, after, action, kind in chain[:CHAINED_PUSHES]:
            search(
                after,
                boards,
                can_push and kind != "push",
                can_second and kind != "second",
                spell,
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
        bool(second),
        _modifier(view),
        turn["moves"],
        turn["collected"],
        None,
        True,
    )
    return best


def _follow(plan: _Plan, moves: dict[int, Action]) -> Action:
    """The plan's first step as the legal action it is."""
    first = plan.first
    assert first is not None
    if first["type"] == "move":
        cell = cell_of(*first["to"])
        if first.get("spell"):
            return first
        return moves.get(cell, first)
    return first


# -- the three levels -------------------------------------------------------------------


def _idle(
    view: dict[str, Any],
    kinds: dict[str, list[Action]],
    scene: Scene,
    rng: random.Random,
    style: Style,
) -> Action | None:
    """Nothing to collect this turn: the push or rotate that gets this seat nearest its
    treasures (with `style.team`, less what it costs the team-mates), else a walk; None
    to end the turn. Spells are ready again next turn, so nothing is saved by keeping."""
    you = view["you"]
    if style.team:
        wanted = [_wanted(view, p["seat"]) for p in view["players"]]
    else:
        wanted = [_wanted(view, you) if p["seat"] == you else set() for p in view["players"]]
    now = _value(view, scene, wanted)
    options = [(_value(view, _pushed(scene, a), wanted), a) for a in kinds.get("push", [])]
    if style.team:
        useful = _useful_rotations(view, scene, kinds.get("rotate", []))
        options += [(_value(view, _rotated(scene, a), wanted), a) for a in useful]
    if options and max(v for v, _ in options) > now + (0.5 if style.team else 0.0):
        return best_of(options, rng)
    moves = _moves(kinds)
    return _walk(view, scene, moves, rng) if moves else None


def _choose(
    view: dict[str, Any],
    legal: list[Action],
    rng: random.Random,
    style: Style,
    memory: TeamMemory | None = None,
) -> Action:
    """A level's decision: lay a turned-up tile; else the first step of the turn's best
    collection plan; else get nearer (or, for a slip, anything)."""
    kinds = by_type(legal)
    if "orient" in kinds:
        if not style.orient:
            return rng.choice(kinds["orient"])
        return _orient(view, kinds["orient"], rng, memory)
    scene = _scene(view, memory)
    moves = _moves(kinds)
    plan = _plan(view, kinds, scene, style)
    if plan.first is not None and plan.collected > view["turn"]["collected"]:
        return _follow(plan, moves)
    if style.slip and rng.random() < style.slip:
        if "push" in kinds and rng.random() < 0.5:
            return rng.choice(kinds["push"])
        if moves and rng.random() < 0.5:
            return moves[rng.choice(sorted(moves))]
        return kinds["end"][0] if "end" in kinds else fallback(legal, rng)
    idle = _idle(view, kinds, scene, rng, style)
    if idle is not None:
        return idle
    return kinds["end"][0] if "end" in kinds else fallback(legal, rng)


def choose_easy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Plans its collections with one spell at a time (a push, or a rotate or switch,
    never both), now and then potters about when nothing is in reach, and remembers
    nothing: it takes what is plainly there, and a person beside it does the clever
    part."""
    return _choose(view, legal, rng, EASY)


def choose_medium(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Plans this turn's collections with push and rotate (or switch) chained, but only
    from what it sees now: it remembers nothing of tiles turned face down before this
    turn's card, and thinks of itself alone when getting nearer."""
    return _choose(view, legal, rng, MEDIUM)


def choose_hard(
    view: dict[str, Any],
    legal: list[Action],
    rng: random.Random,
    memory: TeamMemory | None = None,
) -> Action:
    """Every spell it holds, chained, its move spell too; getting nearer without pushing
    team-mates away. With a `memory` (what this seat saw face up before, see
    `team_memory`) it also goes for the treasures it remembers under face-down tiles;
    without, it plays from the view alone."""
    return _choose(view, legal, rng, HARD, memory)


def new_memory() -> TeamMemory:
    """A fresh memory for one seat of one game (only the hard player reads it)."""
    return TeamMemory()


__all__ = ["choose_easy", "choose_hard", "choose_medium", "new_memory"]
