"""The sliding 7 x 7 board shared by classic, master and team (see `shared/rules/common.md`).

A tile's openings are a 4-bit mask, N=1 E=2 S=4 W=8, so rotating clockwise is a 4-bit
rotate-left. A cell is a flat index `row * 7 + col` (0..48): `[0,0]` is 0 (`a1`), `[3,3]`
is 24 (`d4`), `[6,6]` is 48 (`g7`). Tiles have an identity (an id into a catalogue of
`TileInfo`) separate from their current orientation, because things printed on a tile
(treasures, a hidden event) travel with it while its openings turn.

Pieces (pawns, tokens, guardians) are not stored on the board: each game keeps their cells
and moves them with `carried`, so the board stays the same for every sliding game.

Speed: besides the flat lists, the board keeps one 49-bit mask per direction (bit
`row*7+col` set when the tile there opens that way). A cell connects east when it opens
east and its neighbour opens west (`openE & openW >> 1`, never across the last column),
south likewise; a reachable set is then a flood fill with shifts, and a push only rewrites
the seven bits of its line in each mask. This keeps "every legal push, then where can I
go" well under a millisecond in CPython, which bots and hints need.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

N, E, S, W = 1, 2, 4, 8
DIRECTIONS = "NESW"
SIZE = 7
CELL_COUNT = SIZE * SIZE
FULL = (1 << CELL_COUNT) - 1
_FIRST_COL = sum(1 << (row * SIZE) for row in range(SIZE))
NOT_FIRST_COL = FULL & ~_FIRST_COL
NOT_LAST_COL = FULL & ~(_FIRST_COL << (SIZE - 1))
COLUMN_LETTERS = "abcdefg"

SHAPES = ("I", "L", "T")
BASE_OPENING = {"I": N | S, "L": N | E, "T": E | S | W}
MOVABLE_SHAPES = {"I": 13, "L": 15, "T": 6}


# --- openings -----------------------------------------------------------------------


def rotate(mask: int, quarter_turns: int = 1) -> int:
    """`mask` turned clockwise by `quarter_turns` (N -> E -> S -> W -> N)."""
    k = quarter_turns % 4
    return ((mask << k) | (mask >> (4 - k))) & 15


def open_str(mask: int) -> str:
    """The openings in the fixed order N E S W, e.g. `"ES"`; a table, since every view
    spells out 50 of them."""
    return _OPEN_STR[mask & 15]


_OPEN_STR = tuple("".join(d for i, d in enumerate(DIRECTIONS) if m >> i & 1) for m in range(16))


def parse_open(text: str) -> int:
    """The mask of `"ES"`-style openings; any order is accepted, duplicates are not."""
    mask = 0
    for ch in text:
        bit = 1 << DIRECTIONS.index(ch) if ch in DIRECTIONS else 0
        if not bit or mask & bit:
            raise ValueError(f"bad openings {text!r}")
        mask |= bit
    return mask


def shape_of(mask: int) -> str:
    """`I`, `L` or `T` for a tile's openings (in any orientation)."""
    count = bin(mask).count("1")
    if count == 3:
        return "T"
    if count == 2:
        return "I" if mask in (N | S, E | W) else "L"
    raise ValueError(f"no tile has openings {open_str(mask)!r}")


# --- cells ----------------------------------------------------------------------------


def cell_of(row: int, col: int) -> int:
    """The flat index of `[row, col]`; raises ValueError off the board."""
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"[{row}, {col}] is off the board")
    return row * SIZE + col


def row_col(cell: int) -> tuple[int, int]:
    return divmod(cell, SIZE)


def pos_of(cell: int) -> list[int]:
    """The wire form `[row, col]` of a cell."""
    return list(divmod(cell, SIZE))


def cell_name(cell: int) -> str:
    """Human notation: column letter west to east, row number north to south (`c3`)."""
    row, col = divmod(cell, SIZE)
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def parse_cell(name: str) -> int:
    """The cell of a name like `c3`; raises ValueError for anything else."""
    if len(name) != 2 or name[0] not in COLUMN_LETTERS or name[1] not in "1234567":
        raise ValueError(f"bad cell {name!r}")
    return cell_of(int(name[1]) - 1, COLUMN_LETTERS.index(name[0]))


def cells_of(mask: int) -> list[int]:
    """The cells of a bitmask, in increasing order."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def mask_of(cells: Iterable[int]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


# --- the printed board ----------------------------------------------------------------

FIXED_OPENINGS: dict[int, int] = {
    cell_of(0, 0): E | S, cell_of(0, 2): E | S | W, cell_of(0, 4): E | S | W, cell_of(0, 6): S | W,
    cell_of(2, 0): N | E | S, cell_of(2, 2): N | E | S, cell_of(2, 4): E | S | W,
    cell_of(2, 6): N | S | W,
    cell_of(4, 0): N | E | S, cell_of(4, 2): N | E | W, cell_of(4, 4): N | S | W,
    cell_of(4, 6): N | S | W,
    cell_of(6, 0): N | E, cell_of(6, 2): N | E | W, cell_of(6, 4): N | E | W, cell_of(6, 6): N | W,
}  # fmt: skip
"""The 16 tiles printed on the board (both coordinates even), as in common.md."""

FIXED_CELLS: tuple[int, ...] = tuple(sorted(FIXED_OPENINGS))
FREE_CELLS: tuple[int, ...] = tuple(c for c in range(CELL_COUNT) if c not in FIXED_OPENINGS)


@dataclass(frozen=True, slots=True)
class TileInfo:
    """What is printed on a tile and never changes: its shape and what it shows."""

    shape: str
    fixed: bool = False
    treasure: str | None = None


def make_catalogue(
    fixed_treasures: Mapping[int, str], movable: Sequence[TileInfo]
) -> tuple[TileInfo, ...]:
    """Tile id -> TileInfo: ids 0-15 are the fixed tiles in `FIXED_CELLS` order, then the
    34 movable ones in the order given (13 I, 15 L, 6 T, checked here so that no variant
    can deal a board with the wrong tiles)."""
    counts = {shape: sum(1 for t in movable if t.shape == shape) for shape in SHAPES}
    if counts != MOVABLE_SHAPES or len(movable) != 34 or any(t.fixed for t in movable):
        raise ValueError(f"the movable tiles must be 13 I, 15 L and 6 T, got {counts}")
    fixed = tuple(
        TileInfo(shape_of(FIXED_OPENINGS[c]), True, fixed_treasures.get(c)) for c in FIXED_CELLS
    )
    return fixed + tuple(movable)


# --- slots ----------------------------------------------------------------------------

_OPPOSITE_SIDE = {"N": "S", "S": "N", "E": "W", "W": "E"}


@dataclass(frozen=True, slots=True)
class Slot:
    """An insertion slot: the edge the spare comes in from, and the line it pushes
    (a column for N/S, a row for E/W; 1, 3 or 5)."""

    side: str
    index: int

    def __post_init__(self) -> None:
        if self.side not in _OPPOSITE_SIDE or self.index not in (1, 3, 5):
            raise ValueError(f"no slot ({self.side!r}, {self.index!r})")

    @classmethod
    def parse(cls, text: str) -> Slot:
        """`Nb`, `W4`, `Sf`, `E2`: side letter, then column letter (N/S) or row number (E/W)."""
        if len(text) == 2 and text[0] in "NS" and text[1] in "bdf":
            return cls(text[0], COLUMN_LETTERS.index(text[1]))
        if len(text) == 2 and text[0] in "EW" and text[1] in "246":
            return cls(text[0], int(text[1]) - 1)
        raise ValueError(f"bad slot {text!r}")

    def __str__(self) -> str:
        if self.side in "NS":
            return f"{self.side}{COLUMN_LETTERS[self.index]}"
        return f"{self.side}{self.index + 1}"

    @property
    def opposite(self) -> Slot:
        """The slot at the other end of the line: where this push ejects, and the one the
        no-reverse rule forbids next."""
        return Slot(_OPPOSITE_SIDE[self.side], self.index)

    @property
    def line(self) -> tuple[int, ...]:
        """The seven cells of the line, from the insertion end to the ejecting end."""
        return _GEOMETRY[self].line

    def to_dict(self) -> dict[str, str | int]:
        return {"side": self.side, "index": self.index}


SLOTS: tuple[Slot, ...] = tuple(Slot(side, i) for side in "NESW" for i in (1, 3, 5))


@dataclass(frozen=True, slots=True)
class _Geometry:
    line: tuple[int, ...]
    line_mask: int
    shift: int  # how far bits move along the line: +1/+7 toward higher cells, -1/-7 back
    carry: tuple[int, ...]  # cell -> its cell after the push


def _geometry(slot: Slot) -> _Geometry:
    i = slot.index
    line = {
        "N": tuple(cell_of(r, i) for r in range(SIZE)),
        "S": tuple(cell_of(r, i) for r in reversed(range(SIZE))),
        "W": tuple(cell_of(i, c) for c in range(SIZE)),
        "E": tuple(cell_of(i, c) for c in reversed(range(SIZE))),
    }[slot.side]
    carry = list(range(CELL_COUNT))
    for k, cell in enumerate(line):
        carry[cell] = line[(k + 1) % SIZE]
    return _Geometry(line, mask_of(line), line[1] - line[0], tuple(carry))


_GEOMETRY: dict[Slot, _Geometry] = {slot: _geometry(slot) for slot in SLOTS}


def carried(slot: Slot, cell: int) -> int:
    """Where a piece on `cell` stands after a push at `slot`: one step along the line, and
    from the ejected tile onto the inserted one at the other end; elsewhere it stays."""
    return _GEOMETRY[slot].carry[cell]


@dataclass(frozen=True, slots=True)
class PushResult:
    slot: Slot
    rotation: int
    inserted_cell: int
    ejected_cell: int
    ejected_tile: int

    @property
    def ejected_slot(self) -> Slot:
        """The slot the tile left by, which the no-reverse rule closes for the next push."""
        return self.slot.opposite


# --- flood fill -------------------------------------------------------------------------


def _flood(seed: int, con_e: int, con_s: int) -> int:
    """Every cell joined to `seed` by connected steps (a fixpoint of one-step growth)."""
    con_w = con_e << 1
    con_n = con_s << 7
    reach = seed
    while True:
        grown = (
            reach
            | ((reach & con_e) << 1)
            | ((reach & con_w) >> 1)
            | ((reach & con_s) << 7)
            | ((reach & con_n) >> 7)
        )
        if grown == reach:
            return reach
        reach = grown


def _neighbours(mask: int) -> int:
    """Every on-board cell orthogonally next to a cell of `mask`, walls or not."""
    return (
        ((mask << 1) & NOT_FIRST_COL)
        | ((mask >> 1) & NOT_LAST_COL)
        | ((mask << 7) & FULL)
        | (mask >> 7)
    )


def _shift_line(mask: int, geo: _Geometry, bit_in: int) -> int:
    """`mask` with its line's bits moved one step along the line and `bit_in` entered."""
    line = mask & geo.line_mask
    moved = line << geo.shift if geo.shift > 0 else line >> -geo.shift
    return (mask & ~geo.line_mask) | (moved & geo.line_mask) | bit_in


# --- the board --------------------------------------------------------------------------


class Board:
    """The 49 cells and the spare. `tiles[cell]` is a tile id into `catalogue`,
    `opens[cell]` its current openings. After editing those lists by hand (tests, spells
    that turn or swap tiles), call `refresh()` to rebuild the masks."""

    __slots__ = ("_con_e", "_con_s", "_e", "_n", "_s", "_w", "catalogue", "opens", "spare",
                 "spare_open", "tiles")  # fmt: skip

    def __init__(
        self,
        catalogue: tuple[TileInfo, ...],
        tiles: list[int],
        opens: list[int],
        spare: int,
        spare_open: int,
    ) -> None:
        if len(tiles) != CELL_COUNT or len(opens) != CELL_COUNT:
            raise ValueError("a board has 49 cells")
        self.catalogue = catalogue
        self.tiles = tiles
        self.opens = opens
        self.spare = spare
        self.spare_open = spare_open
        self.refresh()

    @classmethod
    def deal(cls, catalogue: tuple[TileInfo, ...], rng: random.Random) -> Board:
        """Setup per common.md: the fixed tiles in place; the movable ones shuffled, each
        turned at random, laid row by row on the free cells; the last one is the spare."""
        movable = list(range(len(FIXED_CELLS), len(catalogue)))
        rng.shuffle(movable)
        oriented = [
            (t, rotate(BASE_OPENING[catalogue[t].shape], rng.randrange(4))) for t in movable
        ]
        tiles = [0] * CELL_COUNT
        opens = [0] * CELL_COUNT
        for tile_id, cell in enumerate(FIXED_CELLS):
            tiles[cell], opens[cell] = tile_id, FIXED_OPENINGS[cell]
        for cell, (tile_id, mask) in zip(FREE_CELLS, oriented, strict=False):
            tiles[cell], opens[cell] = tile_id, mask
        spare, spare_open = oriented[-1]
        return cls(catalogue, tiles, opens, spare, spare_open)

    def refresh(self) -> None:
        """Rebuild the direction masks from `opens`."""
        masks = [0, 0, 0, 0]
        for cell, mask in enumerate(self.opens):
            for d in range(4):
                if mask >> d & 1:
                    masks[d] |= 1 << cell
        self._n, self._e, self._s, self._w = masks
        self._connect()

    def set_open(self, cell: int, mask: int) -> None:
        """Give the tile on `cell` the openings `mask` (a tile turned in place), keeping
        the direction masks up to date without the full `refresh()`: searches that try
        every turn of every tile call this thousands of times."""
        self.opens[cell] = mask
        bit = 1 << cell
        keep = ~bit
        self._n = (self._n & keep) | (bit if mask & N else 0)
        self._e = (self._e & keep) | (bit if mask & E else 0)
        self._s = (self._s & keep) | (bit if mask & S else 0)
        self._w = (self._w & keep) | (bit if mask & W else 0)
        self._connect()

    def _connect(self) -> None:
        self._con_e = self._e & (self._w >> 1) & NOT_LAST_COL
        self._con_s = self._s & (self._n >> 7)

    def clone(self) -> Board:
        twin = Board.__new__(Board)
        twin.catalogue = self.catalogue
        twin.tiles = self.tiles.copy()
        twin.opens = self.opens.copy()
        twin.spare, twin.spare_open = self.spare, self.spare_open
        twin._n, twin._e, twin._s, twin._w = self._n, self._e, self._s, self._w
        twin._con_e, twin._con_s = self._con_e, self._con_s
        return twin

    # -- reading ------------------------------------------------------------------------

    def info(self, cell: int) -> TileInfo:
        return self.catalogue[self.tiles[cell]]

    def treasure_at(self, cell: int) -> str | None:
        return self.catalogue[self.tiles[cell]].treasure

    def cell_of_tile(self, tile_id: int) -> int | None:
        """The cell holding tile `tile_id`, or None when it is the spare."""
        return None if tile_id == self.spare else self.tiles.index(tile_id)

    def linked(self, a: int, b: int) -> bool:
        """Whether two orthogonally adjacent cells are connected (each opens to the other)."""
        lo, hi = min(a, b), max(a, b)
        if hi - lo == 1 and lo % SIZE != SIZE - 1:
            return bool(self._con_e >> lo & 1)
        if hi - lo == SIZE:
            return bool(self._con_s >> lo & 1)
        return False

    def reach_mask(self, cell: int) -> int:
        """Bitmask of the cells a pawn on `cell` can walk to, its own cell included."""
        return _flood(1 << cell, self._con_e, self._con_s)

    def reachable(self, cell: int) -> set[int]:
        return set(cells_of(self.reach_mask(cell)))

    def connected(self, a: int, b: int) -> bool:
        return bool(self.reach_mask(a) >> b & 1)

    def _open_links(self, blocked: int) -> tuple[int, int]:
        """The east and south connection masks with every link touching a `blocked` cell
        removed, so a blocked cell is part of no path."""
        con_e = self._con_e & ~blocked & ~(blocked >> 1)
        con_s = self._con_s & ~blocked & ~(blocked >> SIZE)
        return con_e, con_s

    def reach_mask_blocked(self, cell: int, blocked: int) -> int:
        """`reach_mask` when the cells of `blocked` are in no path (master: the lair):
        nobody walks into, through or out of them; from a blocked cell only staying."""
        con_e, con_s = self._open_links(blocked)
        return _flood(1 << cell, con_e, con_s)

    def distance_layers(self, cell: int, blocked: int = 0) -> list[int]:
        """Breadth-first rings around `cell` along paths avoiding `blocked`: element k is
        the mask of the cells exactly k steps away (element 0 is `cell` itself)."""
        con_e, con_s = self._open_links(blocked)
        con_w, con_n = con_e << 1, con_s << SIZE
        seen = frontier = 1 << cell
        layers = [frontier]
        while True:
            grown = (
                ((frontier & con_e) << 1)
                | ((frontier & con_w) >> 1)
                | ((frontier & con_s) << SIZE)
                | ((frontier & con_n) >> SIZE)
            ) & ~seen
            if not grown:
                return layers
            layers.append(grown)
            seen |= grown
            frontier = grown

    def reach_mask_with_wall(self, cell: int) -> int:
        """Cells reachable when one step, once, may cross a wall (the `wall` event): walk,
        step to any neighbour of what was reached, walk on from there."""
        plain = self.reach_mask(cell)
        return _flood(plain | _neighbours(plain), self._con_e, self._con_s)

    def reach_after_push(self, slot: Slot, rotation: int, cell: int) -> int:
        """What `reach_mask` would give after `push(slot, rotation)` for the piece now on
        `cell` (carried along if its tile moves), without changing the board. It is the
        inner loop of enumerating a turn's choices, so it only recomputes masks."""
        geo = _GEOMETRY[slot]
        spare = rotate(self.spare_open, rotation)
        head = 1 << geo.line[0]
        n = _shift_line(self._n, geo, head if spare & N else 0)
        e = _shift_line(self._e, geo, head if spare & E else 0)
        s = _shift_line(self._s, geo, head if spare & S else 0)
        w = _shift_line(self._w, geo, head if spare & W else 0)
        return _flood(1 << geo.carry[cell], e & (w >> 1) & NOT_LAST_COL, s & (n >> 7))

    # -- face-down tiles (team) ---------------------------------------------------------

    def flood_blocked(self, seeds: int, blocked: int) -> int:
        """Every cell joined to a cell of `seeds` by connected steps that never touch a
        cell of `blocked` (team: face-down tiles, whose openings are secret and so must
        not matter); blocked seeds are dropped."""
        con_e = self._con_e & ~blocked & ~(blocked >> 1)
        con_s = self._con_s & ~blocked & ~(blocked >> SIZE)
        return _flood(seeds & ~blocked & FULL, con_e, con_s)

    def stepping_mask(self, reach: int, targets: int) -> int:
        """Cells of `targets` next to a cell of `reach` that opens toward them, whatever
        the target's own openings (team: stepping onto a face-down tile)."""
        r = reach
        steps = (
            (((r & self._e) << 1) & NOT_FIRST_COL)
            | (((r & self._w) >> 1) & NOT_LAST_COL)
            | (((r & self._s) << SIZE) & FULL)
            | ((r & self._n) >> SIZE)
        )
        return steps & targets

    def openers_toward(self, targets: int) -> int:
        """Cells next to a cell of `targets` whose own opening leads to it (team: the far
        side of a face-down tile crossed by the Traverse spell)."""
        return (
            (((targets >> 1) & NOT_LAST_COL) & self._e)
            | (((targets << 1) & NOT_FIRST_COL) & self._w)
            | ((targets >> SIZE) & self._s)
            | (((targets << SIZE) & FULL) & self._n)
        )

    def edge_exits(self, mask: int) -> int:
        """Cells of `mask` on the board's edge with an opening that leads off the board
        (team: the Escape spell)."""
        top, bottom = (1 << SIZE) - 1, ((1 << SIZE) - 1) << (SIZE * (SIZE - 1))
        left, right = _FIRST_COL, _FIRST_COL << (SIZE - 1)
        off = (self._n & top) | (self._s & bottom) | (self._w & left) | (self._e & right)
        return mask & off

    # -- pushing ------------------------------------------------------------------------

    def push(self, slot: Slot, rotation: int = 0) -> PushResult:
        """Turn the spare `rotation` quarter turns clockwise, insert it at `slot`, shift the
        line; the far tile becomes the spare keeping its orientation. Legality (the
        no-reverse rule) is the game's business, not the board's."""
        geo = _GEOMETRY[slot]
        line = geo.line
        inserted_open = rotate(self.spare_open, rotation)
        ejected_tile, ejected_open = self.tiles[line[-1]], self.opens[line[-1]]
        tiles, opens = self.tiles, self.opens
        for k in range(SIZE - 1, 0, -1):
            tiles[line[k]] = tiles[line[k - 1]]
            opens[line[k]] = opens[line[k - 1]]
        tiles[line[0]], opens[line[0]] = self.spare, inserted_open
        self.spare, self.spare_open = ejected_tile, ejected_open
        head = 1 << line[0]
        self._n = _shift_line(self._n, geo, head if inserted_open & N else 0)
        self._e = _shift_line(self._e, geo, head if inserted_open & E else 0)
        self._s = _shift_line(self._s, geo, head if inserted_open & S else 0)
        self._w = _shift_line(self._w, geo, head if inserted_open & W else 0)
        self._connect()
        return PushResult(slot, rotation, line[0], line[-1], ejected_tile)

    # -- drawing ------------------------------------------------------------------------

    def draw(self, marks: Mapping[int, str] | None = None) -> str:
        """A 7 x 7 ASCII maze, 3 x 3 characters a tile: `#` walls, blanks for openings,
        `+` corners on fixed tiles; `marks` puts a character at a cell's centre (pawns)."""
        marks = marks or {}
        lines = ["   " + "".join(f" {c} " for c in COLUMN_LETTERS)]
        for row in range(SIZE):
            bands = ["", "", ""]
            for col in range(SIZE):
                cell = row * SIZE + col
                mask, corner = self.opens[cell], "+" if self.info(cell).fixed else "#"
                centre = marks.get(cell, "." if self.treasure_at(cell) else " ")[:1]
                bands[0] += corner + (" " if mask & N else "#") + corner
                bands[1] += (" " if mask & W else "#") + centre + (" " if mask & E else "#")
                bands[2] += corner + (" " if mask & S else "#") + corner
            label = str(row + 1)
            lines += ["   " + bands[0], f" {label} " + bands[1], "   " + bands[2]]
        lines.append(f"spare: {open_str(self.spare_open)} ({self.catalogue[self.spare].shape})")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.draw()
