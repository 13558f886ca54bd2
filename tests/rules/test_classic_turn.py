"""A classic turn (classic.md): setup, push, no-reverse, move, finding, the two ends."""

from __future__ import annotations

from collections import Counter

import pytest

from app.rules import IllegalAction
from app.rules.board import FIXED_CELLS, FREE_CELLS, SLOTS, E, N, S, W, cell_name, pos_of
from app.rules.classic import CATALOGUE, HOMES_V1, PLAIN_I, PLAIN_L, TREASURES

from .helpers import (
    A1,
    cell,
    make_spare,
    new_game,
    place,
    play,
    set_opens,
    set_pile,
    tile_with,
)

# --- setup ----------------------------------------------------------------------------


def test_components() -> None:
    assert len(TREASURES) == len(set(TREASURES)) == 24
    fixed = {cell_name(c): CATALOGUE[i].treasure for i, c in enumerate(FIXED_CELLS)}
    assert fixed == {
        "a1": None, "c1": "book", "e1": "gold", "g1": None,
        "a3": "map", "c3": "crown", "e3": "keys", "g3": "skull",
        "a5": "ring", "c5": "chest", "e5": "emerald", "g5": "sword",
        "a7": None, "c7": "candlestick", "e7": "helmet", "g7": None,
    }  # fmt: skip
    movable = CATALOGUE[16:]
    creatures = {t.shape: set() for t in movable}
    for t in movable:
        if t.treasure:
            creatures[t.shape].add(t.treasure)
    assert creatures["T"] == {"bat", "dragon", "genie", "ghost", "troll", "sorceress"}
    assert creatures["L"] == {"lizard", "moth", "owl", "scarab", "rat", "spider"}
    assert creatures["I"] == set()
    assert Counter(t.shape for t in movable) == {"I": 13, "L": 15, "T": 6}
    assert all(CATALOGUE[i].shape == "I" and not CATALOGUE[i].treasure for i in PLAIN_I)
    assert len(PLAIN_L) == 9
    assert all(CATALOGUE[i].shape == "L" and not CATALOGUE[i].treasure for i in PLAIN_L)


@pytest.mark.parametrize(("players", "each"), [(2, 12), (3, 8), (4, 6)])
def test_setup_deals_all_cards_equally(players: int, each: int) -> None:
    game = new_game(players)
    piles = [p.pile for p in game.state.players]
    assert [len(p) for p in piles] == [each] * players
    assert sorted(t for pile in piles for t in pile) == sorted(TREASURES)
    assert [p.pos for p in game.state.players] == list(HOMES_V1[:players])
    view = game.view(None)
    assert [p["color"] for p in view["players"]] == ["red", "yellow", "green", "blue"][:players]
    assert [p["home"] for p in view["players"]] == [[0, 0], [0, 6], [6, 0], [6, 6]][:players]
    assert view["turn"] == {"seat": 0, "phase": "push", "event": None, "bonus": False}
    assert game.to_move == 0 and game.seq == 0 and game.status == "playing"


def test_setup_is_deterministic_per_seed() -> None:
    a, b, c = new_game(3, "x"), new_game(3, "x"), new_game(3, "y")
    assert a.view(0) == b.view(0)
    assert a.view(None)["board"] != c.view(None)["board"]


def test_wrong_player_count() -> None:
    for count in (1, 5):
        with pytest.raises(ValueError):
            new_game(count)


def test_board_view_matches_the_board() -> None:
    game = new_game()
    board = game.state.board
    tiles = game.view(None)["board"]["tiles"]
    for c in FREE_CELLS + FIXED_CELLS:
        r, col = pos_of(c)
        tile = tiles[r][col]
        assert tile["fixed"] == (c in FIXED_CELLS)
        assert tile["treasure"] == board.treasure_at(c)
        assert "event" not in tile  # only with the events option


def test_board_view_follows_a_board_edited_in_place() -> None:
    """The grid is remembered for the last board drawn (every seat of a room is sent the
    same board in a row); a board turned or moved in place is drawn again, never stale."""
    game, other = new_game(), new_game(seed="other")
    first = game.view(0)["board"]["tiles"]
    assert game.view(1)["board"]["tiles"] is first  # one grid for every viewer
    assert game.view(None)["board"]["tiles"] is first
    cell_ = FREE_CELLS[0]
    r, c = pos_of(cell_)
    before = first[r][c]
    mask = E | W if before["open"] == "NS" else N | S
    set_opens(game.state.board, {cell_name(cell_): mask})
    turned = game.view(0)["board"]["tiles"]
    assert turned is not first
    assert turned[r][c]["open"] != before["open"]
    assert other.view(0)["board"]["tiles"] != turned  # another game's board is its own
    assert game.view(1)["board"]["tiles"] == turned


def test_board_view_of_the_events_variant_follows_reveals() -> None:
    game = new_game(events=True)
    hidden = game.view(0)["board"]["tiles"]
    assert {t.get("event") for row in hidden for t in row} == {None}
    game.state.revealed.update(game.state.tile_events)  # every event face up, in place
    shown = {t.get("event") for row in game.view(0)["board"]["tiles"] for t in row}
    assert shown - {None}


# --- the push -------------------------------------------------------------------------


def test_push_is_mandatory() -> None:
    game = new_game()
    with pytest.raises(IllegalAction) as err:
        play(game, "a1")
    assert err.value.code == "illegal"
    assert err.value.message == "push-first: the push is mandatory before moving"
    assert all(a["type"] == "push" for a in game.legal_actions(0))


def test_push_is_mandatory_even_when_the_target_is_reachable() -> None:
    game = new_game()
    set_pile(game, 0, ["crown", *game.state.players[0].pile[1:]])
    place(game, 0, "c3")
    with pytest.raises(IllegalAction, match="push-first"):
        play(game, "c3")


def test_one_push_per_turn() -> None:
    game = new_game()
    play(game, "Nb")
    with pytest.raises(IllegalAction, match="one-push"):
        play(game, "Nd")


def test_push_events_and_view() -> None:
    game = new_game()
    board = game.state.board
    ejected = board.tiles[cell("b7")]
    events = play(game, "Nb+2")
    assert events[0] == {
        "type": "pushed",
        "slot": "Nb",
        "side": "N",
        "index": 1,
        "rotation": 2,
        "ejected_to_spare": {
            "open": game.view(None)["board"]["spare"]["open"],
            "treasure": CATALOGUE[ejected].treasure,
            "fixed": False,
        },
    }
    assert board.spare == ejected
    view = game.view(None)
    assert view["turn"]["phase"] == "move"
    assert view["board"]["last_push"] == {"side": "N", "index": 1}
    assert view["board"]["forbidden"] == {"side": "S", "index": 1}


def test_all_four_rotations_of_every_open_slot_are_listed() -> None:
    game = new_game()
    pushes = game.legal_actions(0)
    assert len(pushes) == 48
    assert {(a["side"], a["index"], a["rotation"]) for a in pushes} == {
        (s.side, s.index, r) for s in SLOTS for r in range(4)
    }
    play(game, "Nb", "a1")
    pushes = game.legal_actions(1)
    assert len(pushes) == 44
    assert not any(a["side"] == "S" and a["index"] == 1 for a in pushes)


def test_no_reverse_rule_and_it_lasts_one_push() -> None:
    game = new_game()
    play(game, "Nb", "a1")
    with pytest.raises(IllegalAction) as err:
        play(game, "Sb+3")
    assert err.value.code == "illegal"
    assert err.value.message == "no-reverse: Sb undoes Nb"
    play(game, "Nd", "g1")  # seat 1 pushes elsewhere; now Sd is banned, Sb free again
    with pytest.raises(IllegalAction, match="no-reverse: Sd undoes Nd"):
        play(game, "Sd")
    play(game, "Sb")
    assert game.view(None)["board"]["forbidden"] == {"side": "N", "index": 1}


def test_pawns_on_the_ejected_tile_go_to_the_inserted_tile() -> None:
    game = new_game(3)
    place(game, 1, "b7")
    place(game, 2, "b7")
    events = play(game, "Nb")
    assert {"type": "carried", "seats": [1, 2], "to": [0, 1]} in events
    assert game.state.players[1].pos == game.state.players[2].pos == cell("b1")


def test_pawns_on_the_line_move_with_their_tiles_and_fixed_never_move() -> None:
    game = new_game(4)
    place(game, 0, "d2")
    place(game, 1, "a4")  # on the pushed line W4
    place(game, 2, "c3")  # fixed tile next to nothing pushed
    place(game, 3, "g4")  # ejected end
    events = play(game, "W4")
    pos = [cell_name(p.pos) for p in game.state.players]
    assert pos == ["d2", "b4", "c3", "a4"]
    assert {"type": "carried", "seats": [3], "to": [3, 0]} in events
    # pawns on fixed tiles never move, whatever is pushed
    game = new_game(2)
    place(game, 1, "c3")
    play(game, "Nb", "a1", "Sd")
    assert cell_name(game.state.players[1].pos) == "c3"


def test_pushing_carries_the_pawn_without_finding() -> None:
    game = new_game()
    board = game.state.board
    make_spare(board, tile_with(game, "bat"))
    set_pile(game, 0, ["bat", *[t for t in game.state.players[0].pile if t != "bat"]][:12])
    place(game, 0, "b7")
    events = play(game, "Nb")  # the pawn is carried onto the inserted bat tile
    assert game.state.players[0].pos == cell("b1")
    assert not any(e["type"] == "found" for e in events)  # a push is not a move


# --- the move -------------------------------------------------------------------------


def open_corridor(game) -> None:  # type: ignore[no-untyped-def]
    """After the push Sf: a1 -> b1 -> c1 open; b1 shut to the south; a2 shut to the north."""
    set_opens(game.state.board, {"b1": E | W, "a2": E | W, "d1": N | S})


def test_move_to_reachable_cells_including_staying() -> None:
    game = new_game()
    play(game, "Sf")
    open_corridor(game)
    moves = {tuple(a["to"]) for a in game.legal_actions(0) if a["type"] == "move"}
    reach = {tuple(pos_of(c)) for c in game.state.board.reachable(A1)}
    assert moves == reach and (0, 0) in moves and (0, 2) in moves
    events = play(game, "c1")
    assert events[0] == {"type": "moved", "seat": 0, "from": [0, 0], "to": [0, 2], "wall": False}
    assert events[-1] == {"type": "turn", "seat": 1, "bonus": False}
    assert game.view(None)["players"][0]["pos"] == [0, 2]


def test_staying_is_a_move() -> None:
    game = new_game()
    play(game, "Sf")
    events = play(game, "a1")
    assert events[0]["from"] == events[0]["to"] == [0, 0]
    assert game.to_move == 1


def test_unreachable_cell_is_refused_naming_the_rule() -> None:
    game = new_game()
    play(game, "Sf")
    open_corridor(game)
    with pytest.raises(IllegalAction) as err:
        play(game, "d1")
    assert err.value.code == "illegal"
    assert err.value.message == "unreachable: d1 is not connected to a1"


def test_moves_pass_over_and_end_on_other_pawns() -> None:
    game = new_game(3)
    play(game, "Sf")
    open_corridor(game)
    place(game, 1, "b1")
    place(game, 2, "c1")
    play(game, "c1")
    assert game.state.players[0].pos == game.state.players[2].pos == cell("c1")


# --- finding --------------------------------------------------------------------------


def target_crown(game, seat: int = 0) -> None:  # type: ignore[no-untyped-def]
    pile = game.state.players[seat].pile
    set_pile(game, seat, ["crown", *[t for t in pile if t != "crown"]][: len(pile)])


def test_walking_onto_the_target_finds_it() -> None:
    game = new_game()
    target_crown(game)
    place(game, 0, "c2")
    play(game, "Sf")
    set_opens(game.state.board, {"c2": N | S})  # c3 (fixed NES) opens north
    nxt = game.state.players[0].pile[1]
    events = play(game, "c3")
    assert {"type": "found", "seat": 0, "treasure": "crown"} in events
    assert {"type": "target", "seat": 0, "treasure": nxt} in events
    me = game.view(0)["players"][0]
    assert me["found"] == ["crown"] and me["remaining"] == 11 and me["target"] == nxt


def test_staying_on_the_target_finds_it() -> None:
    game = new_game()
    target_crown(game)
    place(game, 0, "c3")
    play(game, "Sf")
    events = play(game, "c3")
    assert any(e["type"] == "found" for e in events)


def test_target_reached_by_being_pushed_earlier_counts_on_the_move() -> None:
    game = new_game()
    make_spare(game.state.board, tile_with(game, "bat"))
    rest = [t for t in game.state.players[0].pile if t != "bat"]
    set_pile(game, 0, ["bat", *rest][:12])
    place(game, 0, "b7")
    play(game, "Nb")  # carried onto the bat tile at b1
    events = play(game, "b1")
    assert {"type": "found", "seat": 0, "treasure": "bat"} in events


def test_only_the_top_card_counts() -> None:
    game = new_game()
    pile = game.state.players[0].pile
    set_pile(game, 0, [*[t for t in pile if t != "crown"][:1], "crown"])
    place(game, 0, "c3")
    play(game, "Sf")
    events = play(game, "c3")
    assert not any(e["type"] == "found" for e in events)


def test_passing_over_the_target_does_not_count() -> None:
    game = new_game()
    target_crown(game)
    place(game, 0, "c2")
    play(game, "Sf")
    set_opens(game.state.board, {"c2": N | S, "c4": N | E})  # c2 -> c3 -> c4 (c3 opens S)
    events = play(game, "c4")
    assert not any(e["type"] == "found" for e in events)


def test_one_card_per_turn() -> None:
    game = new_game()
    target_crown(game)
    place(game, 0, "c3")
    play(game, "Sf")
    events = play(game, "c3")
    assert [e["type"] for e in events].count("found") == 1
    assert game.state.players[0].found == ["crown"]


# --- the end --------------------------------------------------------------------------


def test_all_found_then_home_wins() -> None:
    game = new_game()
    target_crown(game)
    set_pile(game, 0, ["crown"])
    place(game, 0, "c3")
    play(game, "Sf")
    events = play(game, "c3")
    assert {"type": "target", "seat": 0, "treasure": None} in events
    assert not any(e["type"] == "won" for e in events)
    assert game.view(0)["players"][0]["target"] is None
    play(game, "Sb", "g1")  # seat 1
    place(game, 0, "b1")
    play(game, "Nd")
    set_opens(game.state.board, {"b1": E | W})  # a1 opens east
    events = play(game, "a1")
    assert events[-1] == {"type": "won", "seat": 0, "reason": "home"}
    assert game.result == {"winners": [0], "reason": "home"}
    assert game.status == "finished" and game.to_move is None
    assert game.legal_actions(0) == game.legal_actions(1) == []
    view = game.view(None)
    assert view["turn"] is None and view["status"] == "finished"
    assert view["result"] == {"winners": [0], "reason": "home"}


def test_home_does_not_win_before_all_cards_are_found() -> None:
    game = new_game()
    play(game, "Sf")
    events = play(game, "a1")  # at home with cards left
    assert not any(e["type"] == "won" for e in events)
    assert game.result is None


def test_all_found_but_not_home_does_not_win() -> None:
    game = new_game()
    set_pile(game, 0, [])
    place(game, 0, "c3")
    play(game, "Sf")
    assert game.view(0)["players"][0]["target"] is None
    events = play(game, "c3")
    assert not any(e["type"] == "won" for e in events)


def test_younger_children_win_at_the_last_card() -> None:
    game = new_game(return_home=False)
    set_pile(game, 0, ["crown"])
    place(game, 0, "c3")
    play(game, "Sf")
    events = play(game, "c3")
    assert events[-1] == {"type": "won", "seat": 0, "reason": "all_found"}
    assert not any(e["type"] == "turn" for e in events)
    assert game.result == {"winners": [0], "reason": "all_found"}


def test_younger_children_do_not_win_by_going_home() -> None:
    game = new_game(return_home=False)
    set_pile(game, 0, [])
    play(game, "Sf")
    events = play(game, "a1")
    assert not any(e["type"] == "won" for e in events)


def test_after_the_end_every_action_is_refused_as_finished() -> None:
    game = new_game(return_home=False)
    set_pile(game, 0, ["crown"])
    place(game, 0, "c3")
    play(game, "Sf", "c3")
    actions = [
        {"type": "push", "side": "N", "index": 1, "rotation": 0},
        {"type": "move", "to": [0, 0]},
        {"type": "swap", "with": 1},
        {"type": "pick", "treasure": "crown"},
    ]
    for seat in (0, 1):
        for action in actions:
            with pytest.raises(IllegalAction) as err:
                game.apply(seat, action)
            assert err.value.code == "finished"
