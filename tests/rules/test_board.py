"""The sliding board of common.md: tiles, rotation, coordinates, slots, pushes, paths."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.rules.board import (
    BASE_OPENING,
    FIXED_CELLS,
    FIXED_OPENINGS,
    FREE_CELLS,
    FULL,
    SLOTS,
    Board,
    E,
    N,
    S,
    Slot,
    TileInfo,
    W,
    carried,
    cell_name,
    cell_of,
    cells_of,
    make_catalogue,
    open_str,
    parse_cell,
    parse_open,
    pos_of,
    rotate,
    row_col,
    shape_of,
)

from .helpers import set_opens

MOVABLE = [TileInfo("I")] * 13 + [TileInfo("L")] * 15 + [TileInfo("T")] * 6
CATALOGUE = make_catalogue({}, MOVABLE)


def dealt(seed: int = 1) -> Board:
    return Board.deal(CATALOGUE, random.Random(seed))


# --- tiles and rotation ---------------------------------------------------------------


def test_rotation_is_clockwise_quarter_turns() -> None:
    assert open_str(rotate(parse_open("ES"))) == "SW"
    assert open_str(rotate(N)) == "E" and open_str(rotate(W)) == "N"
    assert rotate(parse_open("ESW"), 2) == parse_open("NEW")
    assert all(rotate(m, 4) == m and rotate(m, 0) == m for m in range(16))


def test_openings_are_written_in_nesw_order() -> None:
    assert open_str(N | E | S | W) == "NESW"
    assert open_str(parse_open("WN")) == "NW"
    for bad in ("X", "NN", "n"):
        with pytest.raises(ValueError):
            parse_open(bad)


def test_shapes() -> None:
    assert [shape_of(rotate(BASE_OPENING["I"], k)) for k in range(4)] == ["I"] * 4
    assert [shape_of(rotate(BASE_OPENING["L"], k)) for k in range(4)] == ["L"] * 4
    assert [shape_of(rotate(BASE_OPENING["T"], k)) for k in range(4)] == ["T"] * 4
    with pytest.raises(ValueError):
        shape_of(N)


def test_the_sixteen_fixed_tiles_of_common_md() -> None:
    assert len(FIXED_CELLS) == 16
    assert all(r % 2 == 0 and c % 2 == 0 for r, c in map(row_col, FIXED_CELLS))
    table = {
        "a1": "ES", "c1": "ESW", "e1": "ESW", "g1": "SW",
        "a3": "NES", "c3": "NES", "e3": "ESW", "g3": "NSW",
        "a5": "NES", "c5": "NEW", "e5": "NSW", "g5": "NSW",
        "a7": "NE", "c7": "NEW", "e7": "NEW", "g7": "NW",
    }  # fmt: skip
    assert {cell_name(c): open_str(m) for c, m in FIXED_OPENINGS.items()} == table
    assert len(FREE_CELLS) == 33


def test_catalogue_checks_the_movable_counts() -> None:
    assert Counter(t.shape for t in CATALOGUE[16:]) == {"I": 13, "L": 15, "T": 6}
    with pytest.raises(ValueError):
        make_catalogue({}, [*MOVABLE[:-1], TileInfo("I")])


def test_deal_lays_every_tile_once_and_is_deterministic() -> None:
    board = dealt(7)
    assert sorted([*board.tiles, board.spare]) == list(range(50))
    for cell in FIXED_CELLS:
        assert board.info(cell).fixed and board.opens[cell] == FIXED_OPENINGS[cell]
    for cell in FREE_CELLS:
        assert not board.info(cell).fixed
        assert shape_of(board.opens[cell]) == board.info(cell).shape
    assert shape_of(board.spare_open) == board.catalogue[board.spare].shape
    again = dealt(7)
    assert (again.tiles, again.opens, again.spare) == (board.tiles, board.opens, board.spare)
    assert dealt(8).tiles != board.tiles


# --- coordinates and slots --------------------------------------------------------------


def test_coordinates() -> None:
    assert cell_name(cell_of(0, 0)) == "a1"
    assert cell_name(cell_of(6, 6)) == "g7"
    assert cell_name(cell_of(3, 3)) == "d4"
    assert cell_name(cell_of(2, 1)) == "b3"
    assert pos_of(parse_cell("c3")) == [2, 2]
    assert all(parse_cell(cell_name(c)) == c for c in range(49))
    for bad in ("h1", "a0", "a8", "A1", "a", "a10"):
        with pytest.raises(ValueError):
            parse_cell(bad)
    with pytest.raises(ValueError):
        cell_of(7, 0)


def test_slot_notation() -> None:
    assert str(Slot("N", 1)) == "Nb"
    assert str(Slot("W", 3)) == "W4"
    assert str(Slot("S", 5)) == "Sf"
    assert str(Slot("E", 1)) == "E2"
    assert [str(s) for s in SLOTS] == [
        "Nb", "Nd", "Nf", "E2", "E4", "E6", "Sb", "Sd", "Sf", "W2", "W4", "W6",
    ]  # fmt: skip
    assert all(Slot.parse(str(s)) == s for s in SLOTS)
    for bad in ("Na", "Nc", "E3", "W7", "X2", "N", "Nbb", "nb"):
        with pytest.raises(ValueError):
            Slot.parse(bad)
    with pytest.raises(ValueError):
        Slot("N", 2)


def test_slot_opposite_is_the_other_end_of_the_line() -> None:
    assert Slot.parse("Nb").opposite == Slot.parse("Sb")
    assert Slot.parse("E4").opposite == Slot.parse("W4")
    assert all(s.opposite.opposite == s for s in SLOTS)
    assert all(s.opposite.line == tuple(reversed(s.line)) for s in SLOTS)


# --- pushing ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slot", "line"),
    [
        ("Nb", ["b1", "b2", "b3", "b4", "b5", "b6", "b7"]),
        ("Sd", ["d7", "d6", "d5", "d4", "d3", "d2", "d1"]),
        ("W6", ["a6", "b6", "c6", "d6", "e6", "f6", "g6"]),
        ("E2", ["g2", "f2", "e2", "d2", "c2", "b2", "a2"]),
    ],
)
def test_push_from_each_side_shifts_the_line(slot: str, line: list[str]) -> None:
    board = dealt(3)
    cells = [parse_cell(n) for n in line]
    assert Slot.parse(slot).line == tuple(cells)
    before = [(board.tiles[c], board.opens[c]) for c in cells]
    spare, spare_open = board.spare, board.spare_open
    others = [(c, board.tiles[c], board.opens[c]) for c in range(49) if c not in cells]

    result = board.push(Slot.parse(slot), 1)

    assert (board.tiles[cells[0]], board.opens[cells[0]]) == (spare, rotate(spare_open, 1))
    assert [(board.tiles[c], board.opens[c]) for c in cells[1:]] == before[:-1]
    assert (board.spare, board.spare_open) == before[-1]  # keeps its orientation
    assert result.ejected_tile == before[-1][0]
    assert (result.inserted_cell, result.ejected_cell) == (cells[0], cells[-1])
    assert result.ejected_slot == Slot.parse(slot).opposite
    assert [(c, board.tiles[c], board.opens[c]) for c in range(49) if c not in cells] == others


def test_inserted_spare_keeps_the_chosen_rotation() -> None:
    for rotation in range(4):
        board = dealt(4)
        spare_open = board.spare_open
        board.push(Slot.parse("W4"), rotation)
        assert board.opens[parse_cell("a4")] == rotate(spare_open, rotation)


def test_push_then_opposite_push_restores_the_line() -> None:
    board = dealt(5)
    tiles, opens = board.tiles.copy(), board.opens.copy()
    board.push(Slot.parse("Nd"))
    board.push(Slot.parse("Sd"))
    assert (board.tiles, board.opens) == (tiles, opens)


def test_carried_pieces() -> None:
    nb = Slot.parse("Nb")
    # the piece on the ejected tile goes onto the inserted tile, at the other end
    assert carried(nb, parse_cell("b7")) == parse_cell("b1")
    # pieces on the other tiles of the line move with their tiles
    assert carried(nb, parse_cell("b1")) == parse_cell("b2")
    assert carried(nb, parse_cell("b4")) == parse_cell("b5")
    e4 = Slot.parse("E4")
    assert carried(e4, parse_cell("a4")) == parse_cell("g4")
    assert carried(e4, parse_cell("c4")) == parse_cell("b4")
    # pieces elsewhere, fixed tiles above all, never move
    for slot in SLOTS:
        assert all(carried(slot, c) == c for c in FIXED_CELLS)
        assert all(carried(slot, c) == c for c in range(49) if c not in slot.line)


def test_carried_follows_the_tile() -> None:
    board = dealt(6)
    for slot in SLOTS:
        before = board.tiles.copy()
        board.push(slot, 2)
        for cell in slot.line[:-1]:
            assert board.tiles[carried(slot, cell)] == before[cell]


# --- paths --------------------------------------------------------------------------------


def test_connection_needs_openings_on_both_sides() -> None:
    board = dealt(2)
    a1, b1, a2 = parse_cell("a1"), parse_cell("b1"), parse_cell("a2")
    set_opens(board, {"b1": E | W, "a2": E | W})  # a1 opens E and S
    assert board.linked(a1, b1) and board.linked(b1, a1)
    assert not board.linked(a1, a2)  # a1 opens south, a2 not north
    set_opens(board, {"b1": N | S, "a2": N | S})
    assert not board.linked(a1, b1)  # b1 not open west
    assert board.linked(a1, a2)
    assert not board.linked(a1, parse_cell("b2"))  # not adjacent
    assert not board.linked(parse_cell("g1"), parse_cell("a2"))  # no wrap across rows


def test_reachable_walks_any_distance_and_includes_staying() -> None:
    board = dealt(2)
    # a corridor a1 -> b1 -> c1 (fixed ESW) -> c2 with d1 shut toward c1
    set_opens(board, {"b1": E | W, "c2": N | S, "d1": N | S, "b2": E | W, "a2": E | W})
    reach = board.reachable(parse_cell("a1"))
    assert {parse_cell(n) for n in ("a1", "b1", "c1", "c2")} <= reach
    assert parse_cell("d1") not in reach and parse_cell("a2") not in reach
    assert board.connected(parse_cell("a1"), parse_cell("c2"))
    assert not board.connected(parse_cell("a1"), parse_cell("d1"))
    # a shut-in cell reaches only itself
    set_opens(board, {"b1": N | S, "a2": E | W})
    assert board.reachable(parse_cell("a1")) == {parse_cell("a1")}


def test_reachable_agrees_with_a_plain_search() -> None:
    for seed in range(20):
        board = dealt(seed)
        start = random.Random(seed).randrange(49)
        seen, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for there in range(49):
                if there not in seen and board.linked(here, there):
                    seen.add(there)
                    todo.append(there)
        assert board.reachable(start) == seen


def test_reach_with_one_wall_crossing() -> None:
    board = dealt(2)
    # a1 shut in; beyond the wall east, b1 -> c1 -> d1 is open
    set_opens(board, {"b1": E | W, "a2": E | W, "d1": E | W})
    set_opens(board, {"b1": E | S})  # b1 does not open west: a wall between a1 and b1
    start = parse_cell("a1")
    assert board.reach_mask(start) == 1 << start
    with_wall = set(cells_of(board.reach_mask_with_wall(start)))
    assert {parse_cell(n) for n in ("b1", "c1", "d1", "a2")} <= with_wall
    # exactly one crossing: every cell is reachable, or one step from a reachable one,
    # then walking on
    plain = board.reachable(start)
    neighbours = {n for c in plain for n in range(49) if _adjacent(c, n)}
    expected: set[int] = set()
    for n in neighbours | plain:
        expected |= board.reachable(n)
    assert with_wall == expected


def _adjacent(a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = row_col(a), row_col(b)
    return abs(ra - rb) + abs(ca - cb) == 1


def test_reach_after_push_matches_pushing() -> None:
    board = dealt(9)
    for cell in (0, 8, 24, 48, 13):
        for slot in SLOTS:
            for rotation in range(4):
                copy = board.clone()
                copy.push(slot, rotation)
                expected = copy.reach_mask(carried(slot, cell))
                assert board.reach_after_push(slot, rotation, cell) == expected
    assert board.tiles == dealt(9).tiles  # untouched


def test_clone_is_independent() -> None:
    board = dealt(1)
    copy = board.clone()
    copy.push(Slot.parse("Nb"))
    assert board.tiles == dealt(1).tiles
    assert copy.tiles != board.tiles


def test_drawing() -> None:
    board = dealt(1)
    text = board.draw({parse_cell("a1"): "R"})
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefg")
    assert len(lines) == 1 + 21 + 1
    assert lines[2][4] == "R"  # the centre of a1
    assert lines[1][3:6] == "+#+"  # a1 is fixed and shut to the north
    assert str(board).startswith(lines[0])
    assert "spare" in lines[-1]


def test_set_open_keeps_paths_as_a_full_refresh_would() -> None:
    """The cheap update of one tile's openings (searches turn thousands of tiles) leaves
    the board's paths exactly as rebuilding every mask does."""
    rng = random.Random(7)
    board = Board.deal(CATALOGUE, rng)
    for _ in range(200):
        cell = rng.randrange(49)
        board.set_open(cell, rng.choice([N | S, E | W, N | E, E | S | W, N | E | S]))
        rebuilt = board.clone()
        rebuilt.refresh()
        start = rng.randrange(49)
        assert board.reach_mask(start) == rebuilt.reach_mask(start)
        assert board.stepping_mask(board.reach_mask(start), FULL) == rebuilt.stepping_mask(
            rebuilt.reach_mask(start), FULL
        )
