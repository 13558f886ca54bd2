"""Unit tests of the Team Edition: one test (or a few) per rule and decision of team.md.

Each test starts from a real game and then sets the position it is about: `calm` gives a
fresh turn with no face-down tile and every movable tile walled in (openings 0), so that
`carve` lays exactly the paths a test needs.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import Game, IllegalAction, InvalidOptions
from app.rules.board import Slot, open_str
from app.rules.team import (
    CATALOGUE,
    DAEDALUS_CARDS,
    ENGINE,
    SYMBOL_OF,
    TILE_NAMED,
    TeamState,
    Turn,
    parse_action,
)
from tests.rules.helpers import make_spare
from tests.rules.team_helpers import c, calm, carve, face_down, new, place, play, st

JSON = dict[str, Any]
PUSH_NB, PUSH_SB, PUSH_E2 = 0, 4, 2
FLIP_BAT_SUN, FLIP_OWL_SCARAB = 8, 16
TELE_RED_YELLOW_TO_GREEN, TELE_GREEN_BLUE_TO_RED = 18, 23


def refused(game: Game, text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        play(game, text)
    assert err.value.code == "illegal"
    return err.value.message


def next_card(game: Game, card: int) -> list[JSON]:
    """End the turn with `card` on top of the Book of Daedalus."""
    state = st(game)
    state.daedalus_deck = [card, *[i for i in state.daedalus_deck if i != card]]
    return play(game, "end")


def moves(game: Game, spell: bool = False) -> set[str]:
    return {
        str(parse_action_from(a)).removesuffix("*")
        for a in game.legal_actions(game.to_move)
        if a["type"] == "move" and a["spell"] == spell
    }


def parse_action_from(action: JSON) -> Any:
    from app.rules.team import action_from_dict

    return action_from_dict(action)


# --- options and setup ----------------------------------------------------------------


def test_options_defaults_and_refusals() -> None:
    options = ENGINE.parse_options(None)
    assert options["mode"] == "introductory"
    assert options["spell_red"] == "random"
    with pytest.raises(InvalidOptions):
        ENGINE.parse_options({"mode": "hard"})
    with pytest.raises(InvalidOptions):
        ENGINE.parse_options({"colour": "red"})
    with pytest.raises(InvalidOptions):
        ENGINE.parse_options({"spell_red": "push"})
    with pytest.raises(InvalidOptions, match="exists once"):
        ENGINE.parse_options({"spell_red": "switch", "spell_blue": "switch"})


def test_setup_boards_decks_and_first_daedalus_card() -> None:
    game = new(3)
    state = st(game)
    assert all(len(p.board) == 2 for p in state.players)
    assert len(state.treasure_deck) == 24 - 6
    assert len(state.daedalus_deck) == 23 and state.card is not None
    assert game.to_move == 0 and state.turn is not None and state.turn.seat == 0
    cards = [t for p in state.players for t in p.board] + state.treasure_deck
    assert sorted(cards) == sorted(t.treasure for t in CATALOGUE if t.treasure)
    # Only the first Daedalus card can have turned tiles face down (a push: one; a flip: two).
    assert len(state.down) <= 2


def test_introductory_spells_are_push_and_rotate() -> None:
    game = new(4, mode="introductory")
    assert all(p.spells == ("push", "rotate") for p in st(game).players)


def test_standard_spells_chosen_or_dealt_distinct() -> None:
    game = new(4, spell_red="escape", spell_green="switch")
    spells = [p.spells for p in st(game).players]
    assert spells[0] == ("push", "escape") and spells[2] == ("push", "switch")
    extras = [s[1] for s in spells]
    assert len(set(extras)) == 4 and all(s[0] == "push" for s in spells)
    again = new(4, spell_red="escape", spell_green="switch")
    assert [p.spells for p in st(again).players] == spells  # dealt from the seed


def test_chosen_spell_of_a_seat_not_in_play_is_dealt_again() -> None:
    game = new(2, spell_blue="traverse", spell_red="random", spell_yellow="random")
    assert {p.spells[1] for p in st(game).players} <= {
        "rotate",
        "switch",
        "traverse",
        "teleport",
        "escape",
    }


# --- Daedalus cards -------------------------------------------------------------------------


def test_daedalus_push_inserts_the_spare_face_down_and_sends_the_ejected_pawn_home() -> None:
    game = new(2)
    state = calm(game, seat=1)
    spare = state.board.spare
    state.players[0].pos = c("b7")  # on the tile Nb ejects
    state.players[1].pos = c("b3")
    events = next_card(game, PUSH_NB)
    assert state.board.tiles[c("b1")] == spare and spare in state.down
    assert state.players[0].pos == state.players[0].home  # red goes home
    assert state.players[1].pos == c("b4")  # rides along the line
    daedalus = next(e for e in events if e["type"] == "daedalus")
    assert daedalus["effect"]["sent_home"] == [0]
    assert daedalus["effect"]["spare"]["face_down"] is False
    assert state.turn is not None and state.turn.daedalus_push == Slot("N", 1)
    assert game.view(None)["board"]["tiles"][0][1] == {"face_down": True, "fixed": False}


def test_daedalus_push_turns_an_ejected_face_down_tile_face_up() -> None:
    game = new(2)
    state = calm(game, seat=1)
    face_down(state, "b7")
    ejected = state.board.tiles[c("b7")]
    next_card(game, PUSH_NB)
    assert state.board.spare == ejected and ejected not in state.down
    assert game.view(None)["board"]["spare"]["face_down"] is False
    assert len(state.down) == 1  # only the inserted spare


def test_flip_card_turns_named_tiles_face_down_and_sends_pawns_home() -> None:
    game = new(2)
    state = calm(game, seat=1)
    place(state, "bat", "d2", "ESW")
    place(state, "sun", "f2", "NS")
    state.players[1].pos = c("d2")
    events = next_card(game, FLIP_BAT_SUN)
    assert {TILE_NAMED["bat"], TILE_NAMED["sun"]} <= state.down
    assert state.players[1].pos == state.players[1].home
    effect = next(e for e in events if e["type"] == "daedalus")["effect"]
    assert effect == {"kind": "flip", "cells": [[1, 3], [1, 5]], "sent_home": [1]}


def test_flip_card_leaves_face_down_and_spare_tiles_alone() -> None:
    game = new(2)
    state = calm(game, seat=1)
    place(state, "owl", "d2", "NE")
    face_down(state, "d2")
    make_spare(state.board, TILE_NAMED["scarab"])
    events = next_card(game, FLIP_OWL_SCARAB)
    assert state.down == {TILE_NAMED["owl"]}
    assert TILE_NAMED["scarab"] not in state.down
    assert next(e for e in events if e["type"] == "daedalus")["effect"]["cells"] == []


def test_teleport_card_sends_both_pawns_to_the_named_corner() -> None:
    game = new(2)
    state = calm(game, seat=1)
    state.players[0].pos = c("d2")
    next_card(game, TELE_RED_YELLOW_TO_GREEN)
    assert [p.pos for p in state.players] == [c("a7"), c("a7")]


def test_teleport_card_ignores_pawns_not_in_play() -> None:
    game = new(3)
    state = calm(game, seat=2)
    state.players[2].pos = c("d2")  # green
    events = next_card(game, TELE_GREEN_BLUE_TO_RED)
    assert state.players[2].pos == c("a1")
    effect = next(e for e in events if e["type"] == "daedalus")["effect"]
    assert effect == {"kind": "teleport", "seats": [2], "to": [0, 0]}


def test_team_loses_when_a_turn_begins_with_the_book_empty() -> None:
    game = new(2)
    state = calm(game)
    state.daedalus_deck = []
    events = play(game, "end")
    assert game.result == {"winners": [], "reason": "daedalus"}
    assert events[-1] == {"type": "lost", "reason": "daedalus"}
    assert game.to_move is None and game.legal_actions(0) == game.legal_actions(1) == []
    with pytest.raises(IllegalAction) as err:
        play(game, "end")
    assert err.value.code == "finished"


def test_the_last_card_still_gives_a_full_turn() -> None:
    game = new(2)
    state = calm(game)
    state.daedalus_deck = [TELE_RED_YELLOW_TO_GREEN]
    play(game, "end")
    assert game.result is None and game.to_move == 1 and state.daedalus_deck == []


# --- the push spell ---------------------------------------------------------------------


def test_push_spell_inserts_face_up_and_carries_the_ejected_pawn() -> None:
    game = new(2)
    state = calm(game)
    spare = state.board.spare
    state.players[1].pos = c("b7")
    events = play(game, "Nb")
    assert state.board.tiles[c("b1")] == spare and spare not in state.down
    assert state.players[1].pos == c("b1")
    assert events[0]["carried"] == [1]
    assert "push" in state.turn.used  # type: ignore[union-attr]


def test_push_spell_may_not_eject_a_face_down_tile() -> None:
    game = new(2)
    state = calm(game)
    face_down(state, "b7")
    assert "face-down" in refused(game, "Nb")
    assert not any(a.get("side") == "N" and a.get("index") == 1 for a in game.legal_actions(0))


def test_push_spell_may_not_reverse_this_turns_daedalus_push() -> None:
    game = new(2)
    calm(game, seat=1)
    next_card(game, PUSH_NB)
    assert "no-reverse" in refused(game, "Sb")
    play(game, "Nb")  # the same direction is fine


def test_push_spell_may_reverse_a_players_earlier_push_and_is_once_a_turn() -> None:
    game = new(2)
    calm(game)
    play(game, "Nb")
    assert "push-spell" in refused(game, "Nd")
    next_card(game, TELE_RED_YELLOW_TO_GREEN)
    play(game, "Sb")  # seat 1 undoes seat 0's push


# --- the rotate spell -------------------------------------------------------------------


def test_rotate_spell_turns_a_face_up_tile_and_its_pawn_stays() -> None:
    game = new(2, mode="introductory")
    state = calm(game)
    place(state, "bat", "d2", "ESW")
    state.players[0].pos = c("d2")
    play(game, "rotate:d2=NES")
    assert open_str(state.board.opens[c("d2")]) == "NES" and state.players[0].pos == c("d2")
    assert "rotate-spell" in refused(game, "rotate:d2=ESW")  # once a turn


def test_rotate_spell_refusals_name_no_face_down_shape() -> None:
    game = new(2, mode="introductory")
    state = calm(game)
    place(state, "bat", "d2", "ESW")
    face_down(state, "d2")
    message = refused(game, "rotate:d2=NS")
    assert "face down" in message and "T" not in message.split(":")[1]
    assert "fixed" in refused(game, "rotate:c3=NS")
    place(state, "sun", "f2", "NS")
    assert "another orientation" in refused(game, "rotate:f2=NS")
    assert "does not fit" in refused(game, "rotate:f2=NE")
    rotations = [a for a in game.legal_actions(0) if a["type"] == "rotate"]
    assert {"type": "rotate", "at": [1, 5], "open": "EW"} in rotations
    assert not any(a["at"] == [1, 3] for a in rotations)


# --- the switch spell -------------------------------------------------------------------


def test_switch_spell_swaps_tiles_with_pawns_and_face_down_tiles() -> None:
    game = new(2, spell_red="switch")
    state = calm(game)
    place(state, "bat", "d2", "ESW")
    place(state, "sun", "d3", "NS")
    face_down(state, "d3")
    state.players[0].pos = c("d2")
    play(game, "switch:d2-d3")
    assert state.board.tiles[c("d3")] == TILE_NAMED["bat"]
    assert open_str(state.board.opens[c("d3")]) == "ESW"  # not turned
    assert state.players[0].pos == c("d3")
    assert TILE_NAMED["sun"] in state.down  # still face down, now at d2
    assert game.view(None)["board"]["tiles"][1][3] == {"face_down": True, "fixed": False}


def test_switch_spell_needs_two_adjacent_movable_tiles() -> None:
    game = new(2, spell_red="switch")
    calm(game)
    assert "adjacent movable" in refused(game, "switch:b2-c3")  # c3 is fixed
    assert "adjacent movable" in refused(game, "switch:b2-d2")  # not adjacent
    assert "adjacent movable" in refused(game, "switch:b2-c1")  # diagonal
    play(game, "switch:b2-b3")
    assert "switch-spell" in refused(game, "switch:b2-b3")


# --- moving and face-down tiles ---------------------------------------------------------


def test_face_down_tiles_block_but_may_be_stepped_onto() -> None:
    game = new(2)
    state = calm(game)
    carve(state, b1="EW", d1="EW", f1="EW")
    face_down(state, "d1")
    assert moves(game) == {"a1", "b1", "c1", "d1"}
    carve(state, b2="N")  # b1 has no S opening: no step onto b2 from b1
    face_down(state, "b2")
    assert "b2" not in moves(game)


def test_stepping_onto_a_face_down_tile_turns_it_up_and_orient_comes_first() -> None:
    game = new(2)
    state = calm(game)
    carve(state, b1="EW")
    place(state, "bat", "d1", "NES")
    carve(state, b1="EW")
    face_down(state, "d1")
    state.players[0].board = ["bat", "crown"]
    events = play(game, "d1")
    assert events[-1]["type"] == "turned_up" and events[-1]["tile"]["treasure"] == "bat"
    assert TILE_NAMED["bat"] not in state.down
    assert game.view(0)["turn"]["phase"] == "orient"
    assert "orient-first" in refused(game, "end")
    assert [a["open"] for a in game.legal_actions(0)] == ["ESW", "NSW", "NEW", "NES"]
    assert "not a way" in refused(game, "orient:NS")
    events = play(game, "orient:NSW")
    assert open_str(state.board.opens[c("d1")]) == "NSW"
    assert events[1]["type"] == "collected" and events[1]["treasure"] == "bat"
    assert state.turn.moves_allowed == 2  # type: ignore[union-attr]


def test_orient_without_a_turned_tile_is_refused() -> None:
    game = new(2)
    calm(game)
    assert "no tile" in refused(game, "orient:NS")


def test_traverse_passes_one_face_down_tile_and_leaves_it_face_down() -> None:
    game = new(2, spell_red="traverse")
    state = calm(game)
    carve(state, b1="EW", f1="EW")
    face_down(state, "d1")
    assert moves(game, spell=True) == {"e1", "f1", "g1"}
    assert "move-spell" in refused(game, "b1*")  # reachable without the spell
    play(game, "f1*")
    assert state.players[0].pos == c("f1") and state.board.tiles[c("d1")] in state.down
    assert "traverse" in state.turn.used  # type: ignore[union-attr]


def test_traverse_needs_an_opening_on_both_sides_and_crosses_only_one() -> None:
    game = new(2, spell_red="traverse")
    state = calm(game)
    carve(state, a2="NE", c2="NS", b3="NS", b1="EW", f1="EW")
    face_down(state, "b2", "d1", "f1")
    spelled = moves(game, spell=True)
    assert "b3" in spelled  # b3 opens north toward b2
    assert "c2" not in spelled  # c2 has no west opening toward b2
    assert "e1" in spelled and "g1" not in spelled  # f1 would be a second crossing
    assert "f1" in spelled  # but stepping onto it after the crossing is a stop


def test_teleport_jumps_once_from_a_home_corner_to_another() -> None:
    game = new(2, spell_red="teleport")
    state = calm(game)
    carve(state, f7="EW", b2="")
    state.players[0].pos = c("b1")
    carve(state, b1="EW")
    assert "f7" in moves(game, spell=True) and "f7" not in moves(game)
    play(game, "f7*")
    assert state.players[0].pos == c("f7")


def test_teleport_needs_a_home_corner_on_the_way() -> None:
    game = new(2, spell_red="teleport")
    state = calm(game)
    state.players[0].pos = c("d2")
    assert moves(game, spell=True) == set()
    assert "unreachable" in refused(game, "f7*")


def test_escape_leaves_by_an_edge_opening_and_reenters_elsewhere() -> None:
    game = new(2, spell_red="escape")
    state = calm(game)
    carve(state, b1="NE", f7="NS", f6="NS")
    state.players[0].pos = c("b1")
    spelled = moves(game, spell=True)
    assert {"f7", "f6"} <= spelled
    assert "d2" not in spelled
    play(game, "f6*")
    assert state.players[0].pos == c("f6")


def test_escape_may_reenter_onto_a_face_down_edge_tile_and_stop() -> None:
    game = new(2, spell_red="escape")
    state = calm(game)
    carve(state, b1="NE")
    place(state, "lizard", "d7", "NE")
    face_down(state, "d7")
    state.players[0].pos = c("b1")
    state.players[0].board = ["lizard"]
    assert "d7" in moves(game, spell=True)
    events = play(game, "d7*")
    assert events[-1]["type"] == "turned_up" and game.view(0)["turn"]["phase"] == "orient"
    events = play(game, "orient:NE")
    assert any(e["type"] == "collected" and e["treasure"] == "lizard" for e in events)


def test_escape_needs_an_exit() -> None:
    game = new(2, spell_red="escape")
    state = calm(game)
    state.players[0].pos = c("d2")
    assert moves(game, spell=True) == set()


def test_move_spell_refused_without_a_modifier_spell() -> None:
    game = new(2, mode="introductory")
    calm(game)
    assert "move-spell" in refused(game, "a1*")


# --- collecting, bonus, helping, expert -------------------------------------------------


def corridor_with(game: Game, first: str, second: str) -> TeamState:
    """a1 - b1 - c1 (book) - d1 (first) - e1 (gold) - f1 - g1; `second` at f1."""
    state = calm(game)
    carve(state, b1="EW")
    place(state, first, "d1", "EW")
    place(state, second, "f1", "EW")
    return state


def test_collect_by_stopping_bonus_move_and_at_most_two() -> None:
    game = new(2)
    state = corridor_with(game, "bat", "ghost")
    state.players[0].board = ["bat", "ghost"]
    events = play(game, "f1")  # passes over the bat: not collected
    assert events[-1]["type"] == "collected" and events[-1]["treasure"] == "ghost"
    assert events[-1]["bonus"] is True and state.players[0].board == ["bat"]
    events = play(game, "d1")
    assert events[-1]["treasure"] == "bat" and events[-1]["bonus"] is False
    assert state.portal == ["ghost", "bat"]
    assert "one-move" in refused(game, "c1")


def test_no_bonus_without_a_treasure() -> None:
    game = new(2)
    corridor_with(game, "bat", "ghost")
    play(game, "b1")
    assert "bonus move" in refused(game, "c1")


def test_staying_is_a_stop_and_collects() -> None:
    game = new(2)
    state = corridor_with(game, "bat", "ghost")
    state.players[0].pos = c("d1")
    state.players[0].board = ["bat", "crown"]
    events = play(game, "d1")
    assert events[-1]["type"] == "collected"


def test_turn_ends_by_itself_when_nothing_is_left() -> None:
    game = new(2, mode="introductory")
    state = corridor_with(game, "bat", "ghost")
    state.turn.used += ["push", "rotate"]  # type: ignore[union-attr]
    state.players[0].board = ["crown", "keys"]
    events = play(game, "b1")
    assert events[1]["type"] == "ended" and game.to_move == 1


def test_end_refills_the_board_from_the_deck() -> None:
    game = new(2)
    state = corridor_with(game, "bat", "ghost")
    state.players[0].board = ["bat", "crown"]
    top = state.treasure_deck[0]
    play(game, "d1")
    events = play(game, "end")
    assert events[0] == {"type": "ended", "seat": 0, "drew": [top]}
    assert state.players[0].board == ["crown", top]


def test_other_boards_are_collectable_only_with_deck_and_own_board_empty() -> None:
    game = new(2)
    state = corridor_with(game, "bat", "ghost")
    state.players[0].board = []
    state.players[1].board = ["bat", "keys"]
    play(game, "d1")
    assert state.players[1].board == ["bat", "keys"]  # the deck is not empty
    state = corridor_with(game, "bat", "ghost")
    state.treasure_deck = []
    state.players[0].board = []
    events = play(game, "d1")
    assert events[-1]["from"] == 1 and state.players[1].board == ["keys"]


def test_expert_left_treasure_first_then_the_right_slides_left() -> None:
    game = new(2, mode="expert")
    state = corridor_with(game, "bat", "ghost")
    state.players[0].board = ["bat", "ghost"]
    events = play(game, "f1")
    assert events[-1]["type"] == "moved"  # ghost is the right card: not collected
    state = corridor_with(game, "bat", "ghost")
    state.players[0].board = ["bat", "ghost"]
    play(game, "d1", "f1")
    assert state.portal[-2:] == ["bat", "ghost"]


def test_the_view_says_what_each_player_may_collect_now() -> None:
    """The board shows both cards; in expert only the left one may be collected, and with
    the deck and a player's board empty, the others' (their left ones in expert): the
    view says which, so that a page lights those and not the rest."""
    for mode, left_only in (("standard", False), ("expert", True)):
        game = new(2, mode=mode)
        state = corridor_with(game, "bat", "ghost")
        state.players[0].board = ["bat", "ghost"]
        state.players[1].board = ["crown", "keys"]
        seen = [p["collectable"] for p in game.view(1)["players"]]
        expected = [["bat"], ["crown"]] if left_only else [["bat", "ghost"], ["crown", "keys"]]
        assert seen == expected, mode
        state.players[0].board = []
        state.treasure_deck = []
        helping = ["crown"] if left_only else ["crown", "keys"]
        assert game.view(None)["players"][0]["collectable"] == helping, mode


def test_expert_refill_fills_from_the_left_and_help_is_left_only() -> None:
    game = new(2, mode="expert")
    state = corridor_with(game, "bat", "ghost")
    state.players[0].board = ["bat", "crown"]
    top = state.treasure_deck[0]
    play(game, "d1", "end")
    assert state.players[0].board == ["crown", top]
    state = corridor_with(game, "bat", "ghost")
    state.turn = Turn(1)
    state.players[1].pos = c("a1")
    state.treasure_deck = []
    state.players[1].board = []
    state.players[0].board = ["ghost", "bat"]
    events = play(game, "d1")
    assert events[-1]["type"] == "moved"  # bat is seat 0's right card
    state.turn = Turn(1)
    events = play(game, "f1")
    assert events[-1]["type"] == "collected" and events[-1]["from"] == 0


def test_the_team_wins_at_once_with_the_24th_treasure() -> None:
    game = new(3)
    state = corridor_with(game, "bat", "ghost")
    collected = [t.treasure for t in CATALOGUE if t.treasure and t.treasure != "bat"]
    state.portal = collected
    state.treasure_deck = []
    for player in state.players:
        player.board = []
    state.players[0].board = ["bat"]
    events = play(game, "d1")
    assert events[-1] == {"type": "won", "reason": "all_collected"}
    assert game.result == {"winners": [0, 1, 2], "reason": "all_collected"}
    assert game.view(1)["status"] == "finished"


# --- views, reveal, notation ------------------------------------------------------------


def test_views_hide_face_down_faces_and_deck_orders() -> None:
    game = new(2)
    state = calm(game)
    place(state, "bat", "d2", "ESW")
    face_down(state, "d2")
    for viewer in (None, 0, 1):
        view = game.view(viewer)
        assert view["board"]["tiles"][1][3] == {"face_down": True, "fixed": False}
        assert "treasure_deck_order" not in view and "daedalus_deck_order" not in view
        assert view["treasure_deck"] == len(state.treasure_deck)
        assert view["daedalus"]["left"] == len(state.daedalus_deck)
    shown = game.view(None)["board"]["tiles"][1][2]
    assert set(shown) == {"open", "treasure", "symbol", "fixed", "face_down"}


def test_reveal_shows_every_face_and_both_decks() -> None:
    game = new(2)
    state = calm(game)
    place(state, "sun", "d2", "NS")
    face_down(state, "d2")
    revealed = ENGINE.reveal(state)
    tile = revealed["board"]["tiles"][1][3]
    assert tile == {
        "open": "NS",
        "treasure": None,
        "symbol": "sun",
        "fixed": False,
        "face_down": True,
    }
    assert revealed["treasure_deck_order"] == state.treasure_deck
    assert revealed["daedalus_deck_order"] == [DAEDALUS_CARDS[i] for i in state.daedalus_deck]
    assert SYMBOL_OF[TILE_NAMED["sun"]] == "sun"


def test_finished_views_show_everything() -> None:
    game = new(2)
    state = calm(game)
    face_down(state, "b2")
    state.daedalus_deck = []
    play(game, "end")
    view = game.view(0)
    assert "open" in view["board"]["tiles"][1][1] and "treasure_deck_order" in view


@pytest.mark.parametrize(
    "text", ["Nb", "W4+1", "rotate:c2=ES", "switch:b2-b3", "c3", "c3*", "orient:NEW", "end"]
)
def test_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert ENGINE.notation(action.to_dict()) == text


@pytest.mark.parametrize(
    "action",
    [
        {"type": "fly"},
        {"type": "move", "to": [0, 0]},
        {"type": "move", "to": [0, 7], "spell": False},
        {"type": "move", "to": [0, 0], "spell": 1},
        {"type": "rotate", "at": [1, 1], "open": "N"},
        {"type": "rotate", "at": [1, 1], "open": "NN"},
        {"type": "switch", "cells": [[1, 1]]},
        {"type": "orient", "open": 3},
        {"type": "end", "now": True},
        "end",
    ],
)
def test_malformed_actions_are_bad_messages(action: Any) -> None:
    game = new(2)
    before = game.view(None)
    with pytest.raises(IllegalAction) as err:
        game.apply(0, action)
    assert err.value.code == "bad_message"
    assert game.view(None) == before


def test_not_your_turn() -> None:
    game = new(2)
    with pytest.raises(IllegalAction) as err:
        game.apply(1, {"type": "end"})
    assert err.value.code == "not_your_turn"


def test_legal_actions_only_for_the_seat_to_move() -> None:
    game = new(2)
    assert game.legal_actions(1) == [] and game.legal_actions(None) == []
    assert {"type": "end"} in game.legal_actions(0)


def test_symbols_are_on_plain_tiles() -> None:
    for tile, symbol in SYMBOL_OF.items():
        assert CATALOGUE[tile].treasure is None
        assert CATALOGUE[tile].shape == ("I" if symbol in ("sun", "moon", "star", "comet") else "L")
    assert len(DAEDALUS_CARDS) == 24
