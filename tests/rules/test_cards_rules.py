"""One test (or a few) for every rule and decision of `shared/rules/cards.md`."""

from __future__ import annotations

from collections import Counter

import pytest

from app.rules import Game, IllegalAction
from app.rules.board import open_str, shape_of
from app.rules.cards import DECK, ENGINE, MOTIFS, START_CELLS, Take, parse_action
from tests.rules.cards_helpers import card, lay, new_game, play, set_hand, state, types


def refused(game: Game, text: str, code: str = "illegal") -> str:
    """Apply `text` expecting a refusal with `code`; the state must stay unchanged."""
    snapshot = (repr(game.state), game.seq, ENGINE.reveal(game.state))
    with pytest.raises(IllegalAction) as info:
        game.apply(game.to_move, parse_action(text).to_dict())
    assert info.value.code == code
    assert (repr(game.state), game.seq, ENGINE.reveal(game.state)) == snapshot
    return info.value.message


# --- components and setup -------------------------------------------------------------


def test_the_deck_is_48_cards_each_motif_on_one_i_two_l_one_t() -> None:
    assert len(DECK) == 48 and len(MOTIFS) == 12
    for motif in MOTIFS:
        shapes = Counter(c.shape for c in DECK if c.motif == motif)
        assert shapes == {"I": 1, "L": 2, "T": 1}
    assert {shape_of(c.opens) for c in DECK} == {"I", "L", "T"}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_two_each_lays_a_2x2_start_and_piles_the_rest(players: int) -> None:
    game = new_game(players)
    st = state(game)
    assert all(len(p.hand) == 2 for p in st.players)
    assert set(st.layout.cards) == set(START_CELLS)
    assert len(st.pile) == 48 - 2 * players - 4
    every = [*st.pile, *(c for c, _ in st.layout.cards.values())]
    every += [c for p in st.players for c in p.hand]
    assert sorted(every) == list(range(48))
    assert game.to_move == 0 and st.turn is not None and st.turn.phase == "place"


def test_start_cards_keep_their_shape_in_a_random_orientation() -> None:
    orientations = set()
    for seed in range(12):
        st = state(new_game(2, seed=f"s{seed}"))
        for card_id, opens in st.layout.cards.values():
            assert shape_of(opens) == DECK[card_id].shape
            orientations.add(opens != DECK[card_id].opens)
    assert orientations == {True, False}


def test_setup_is_deterministic_given_the_seed() -> None:
    assert new_game(4, "x").view(None) == new_game(4, "x").view(None)
    assert ENGINE.reveal(new_game(4, "x").state) != ENGINE.reveal(new_game(4, "y").state)


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    assert ENGINE.min_players == 2 and ENGINE.max_players == 6
    with pytest.raises(ValueError):
        new_game(players)


def test_the_game_has_no_options() -> None:
    from app.rules import InvalidOptions

    assert ENGINE.parse_options(None) == {} and ENGINE.parse_options({}) == {}
    with pytest.raises(InvalidOptions):
        ENGINE.parse_options({"events": True})
    with pytest.raises(InvalidOptions):
        ENGINE.parse_options([])  # type: ignore[arg-type]


# --- placing --------------------------------------------------------------------------


def single_card_game() -> Game:
    """One ghost `I` laid north-south at 0,0; seat 0 holds an owl `I` and a chest `L`."""
    game = new_game()
    lay(game, {(0, 0): ("ghost", "I", "NS")})
    set_hand(game, 0, [("owl", "I"), ("chest", "L")])
    return game


def test_placement_needs_an_opening_meeting_an_opening() -> None:
    game = single_card_game()
    message = refused(game, "h0@1,0+1")  # east of a card closed to the east
    assert message.startswith("meeting-opening")
    assert refused(game, "h0@0,1+1").startswith("meeting-opening")  # EW under a S opening
    play(game, "h0@0,1")  # NS under the S opening: the openings meet
    assert state(game).layout.opens((0, 1)) == 5


def test_placement_in_any_of_four_orientations() -> None:
    game = single_card_game()
    listed = [a for a in game.legal_actions(0) if a["card"] == 1 and a["pos"] == [0, -1]]
    # an L (printed NE) meets the N opening of 0,0 when it opens S: ES (+1) or SW (+2)
    assert [a["rotation"] for a in listed] == [1, 2]
    play(game, "h1@0,-1+2")
    assert open_str(state(game).layout.opens((0, -1))) == "SW"


def test_placement_only_next_to_the_layout_and_on_an_empty_cell() -> None:
    game = single_card_game()
    assert refused(game, "h0@1,1").startswith("adjacent")  # corner contact only
    assert refused(game, "h0@0,3").startswith("adjacent")
    assert refused(game, "h0@0,0").startswith("empty-cell")
    assert refused(game, "h1@5,5", "illegal")
    set_hand(game, 0, [("owl", "I")])
    assert refused(game, "h1@0,1").startswith("no-card")


def test_one_meeting_opening_is_enough_even_against_walls() -> None:
    game = new_game()
    lay(game, {(0, 0): ("ghost", "I", "EW"), (1, 1): ("owl", "I", "EW")})
    set_hand(game, 0, [("chest", "I")])
    # at 1,0: W meets 0,0's E; its S faces 1,1's wall (no N there): still legal
    play(game, "h0@1,0+1")
    assert (1, 0) in state(game).layout.cards


def test_legal_placements_are_exactly_the_accepted_ones() -> None:
    game = single_card_game()
    listed = game.legal_actions(0)
    assert listed and all(a["type"] == "place" for a in listed)
    assert {tuple(a["pos"]) for a in listed} == {(0, -1), (0, 1)}
    for action in listed:
        game.clone().apply(0, action)


# --- taking ---------------------------------------------------------------------------


def test_a_path_over_other_motifs_joins_and_the_card_may_be_taken() -> None:
    game = new_game()
    lay(game, {
        (0, 0): ("ghost", "L", "ES"),
        (1, 0): ("owl", "I", "EW"),
        (2, 0): ("chest", "I", "EW"),
    })  # fmt: skip
    set_hand(game, 0, [("ghost", "T"), ("map", "I")])
    events = play(game, "h0@3,0")
    assert types(events) == ["placed", "can_take"]
    turn = game.view(0)["turn"]
    assert turn["phase"] == "take" and turn["placed"] == [3, 0]
    assert turn["takeable"] == [{"pos": [0, 0], "path": [[3, 0], [2, 0], [1, 0], [0, 0]]}]
    assert game.legal_actions(0) == [Take.of([(0, 0)]).to_dict(), {"type": "take", "cards": []}]
    events = play(game, "take:0,0")
    assert events[0] == {"type": "took", "seat": 0, "cards": [{"pos": [0, 0], "motif": "ghost"}]}
    assert [DECK[c].motif for c in state(game).players[0].taken] == ["ghost"]
    assert (3, 0) in state(game).layout.cards  # the placed card stays
    assert game.to_move == 1


def test_a_wall_between_same_motifs_does_not_join() -> None:
    game = new_game()
    lay(game, {(0, 0): ("ghost", "L", "SW"), (1, 0): ("owl", "I", "EW")})
    set_hand(game, 0, [("ghost", "T"), ("map", "I")])
    events = play(game, "h0@2,0")
    assert "can_take" not in types(events)
    assert game.to_move == 1


def test_taking_several_cards_at_once_largest_choice_first() -> None:
    game = new_game()
    lay(game, {
        (0, 0): ("ghost", "L", "ES"),
        (1, 0): ("owl", "T", "ESW"),
        (2, 0): ("ghost", "L", "SW"),
    })  # fmt: skip
    set_hand(game, 0, [("ghost", "I"), ("map", "I")])
    play(game, "h0@1,1")
    assert [a["cards"] for a in game.legal_actions(0)] == [
        [[0, 0], [2, 0]], [[0, 0]], [[2, 0]], []
    ]  # fmt: skip
    events = play(game, "take:0,0/2,0")
    assert [c["pos"] for c in events[0]["cards"]] == [[0, 0], [2, 0]]
    assert len(state(game).players[0].taken) == 2
    assert set(state(game).layout.cards) == {(1, 0), (1, 1)}


def test_a_take_that_would_split_the_layout_is_refused() -> None:
    game = new_game()
    lay(game, {
        (0, 0): ("ghost", "L", "ES"),
        (1, 0): ("owl", "I", "EW"),
        (2, 0): ("ghost", "I", "EW"),
        (3, 0): ("chest", "I", "EW"),
    })  # fmt: skip
    set_hand(game, 0, [("ghost", "T"), ("map", "I")])
    play(game, "h0@4,0")
    assert game.view(0)["turn"]["phase"] == "take"
    assert refused(game, "take:2,0").startswith("one-layout")
    assert refused(game, "take:0,0/2,0").startswith("one-layout")
    assert [a["cards"] for a in game.legal_actions(0)] == [[[0, 0]], []]


def test_corner_contact_does_not_keep_the_layout_joined() -> None:
    game = new_game()
    lay(game, {
        (0, 0): ("owl", "I", "NS"),
        (1, 0): ("ghost", "L", "EW"),
        (1, 1): ("chest", "I", "NS"),
        (3, 0): ("ghost", "L", "EW"),
    })  # fmt: skip
    # 3,0 touches nothing yet; placing at 2,0 joins both ghosts to the placed one
    set_hand(game, 0, [("ghost", "I"), ("map", "I")])
    play(game, "h0@2,0+1")
    # taking 1,0 would leave 0,0 touching 1,1 by a corner only
    assert refused(game, "take:1,0").startswith("one-layout")
    assert [a["cards"] for a in game.legal_actions(0)] == [[[3, 0]], []]
    assert not state(game).layout.joined_by_edges(frozenset({(1, 0)}))


@pytest.mark.parametrize("version", [1, 2])
def test_no_take_phase_when_only_taking_nothing_is_valid(version: int) -> None:
    """The ghost it joins would take the owl's link to the table with it: the turn passes
    with nothing taken. From version 2 the events say why (`no_take`); a game of version
    1 re-plays with the events it was played with."""
    game = Game.new("cards", ["P0", "P1"], "cards-seed", {"rules_version": version})
    lay(game, {
        (0, 0): ("owl", "I", "EW"),
        (1, 0): ("ghost", "I", "EW"),
        (2, 0): ("chest", "I", "EW"),
    })  # fmt: skip
    set_hand(game, 0, [("ghost", "T"), ("map", "I")])
    events = play(game, "h0@3,0")
    assert "can_take" not in types(events) and game.to_move == 1
    no_take = [e for e in events if e["type"] == "no_take"]
    expected = [{"type": "no_take", "seat": 0, "cards": [[1, 0]]}] if version >= 2 else []
    assert no_take == expected


def test_a_placement_joined_to_no_card_of_its_motif_has_no_no_take() -> None:
    game = Game.new("cards", ["P0", "P1"], "cards-seed", {"rules_version": 2})
    lay(game, {(0, 0): ("owl", "I", "EW"), (1, 0): ("chest", "I", "EW")})
    set_hand(game, 0, [("ghost", "T"), ("map", "I")])
    events = play(game, "h0@2,0")
    assert "no_take" not in types(events) and "can_take" not in types(events)


def test_taking_nothing_is_a_choice() -> None:
    game = new_game()
    lay(game, {(0, 0): ("ghost", "L", "ES"), (1, 0): ("owl", "I", "EW")})
    set_hand(game, 0, [("ghost", "T"), ("map", "I")])
    play(game, "h0@2,0", "take:-")
    assert state(game).players[0].taken == [] and (0, 0) in state(game).layout.cards
    assert game.to_move == 1


def test_only_joined_cards_of_the_placed_motif_may_be_taken() -> None:
    game = new_game()
    lay(game, {(0, 0): ("ghost", "L", "ES"), (1, 0): ("owl", "I", "EW")})
    set_hand(game, 0, [("ghost", "T"), ("map", "I")])
    play(game, "h0@2,0")
    assert refused(game, "take:1,0").startswith("same-motif-joined")
    assert refused(game, "take:2,0").startswith("same-motif-joined")  # not the placed card
    assert refused(game, "h1@3,0").startswith("take-first")
    assert refused(game, "discard:h0").startswith("take-first")


def test_nothing_is_taken_before_placing() -> None:
    game = single_card_game()
    assert refused(game, "take:0,0").startswith("place-first")


# --- the discard ----------------------------------------------------------------------


def closed_square(game: Game) -> None:
    """Four L cards whose openings all face each other: nothing can be placed."""
    lay(game, {
        (0, 0): ("owl", "L", "ES"), (1, 0): ("chest", "L", "SW"),
        (0, 1): ("map", "L", "NE"), (1, 1): ("ring", "L", "NW"),
    })  # fmt: skip


def test_the_discard_when_neither_hand_card_can_be_placed() -> None:
    game = new_game()
    closed_square(game)
    set_hand(game, 0, [("ghost", "T"), ("dragon", "I")])
    assert game.legal_actions(0) == [
        {"type": "discard", "card": 0}, {"type": "discard", "card": 1}
    ]  # fmt: skip
    pile_before = len(state(game).pile)
    events = play(game, "discard:h1")
    assert events[0] == {
        "type": "discarded", "seat": 0, "hand": 1, "card": {"open": "NS", "motif": "dragon"}
    }  # fmt: skip
    assert state(game).discarded == [card("dragon", "I")]
    assert game.view(1)["discarded"] == [{"open": "NS", "motif": "dragon"}]
    assert len(state(game).players[0].hand) == 2 and len(state(game).pile) == pile_before - 1
    assert game.to_move == 1


def test_no_discard_while_a_card_can_be_placed() -> None:
    game = single_card_game()
    assert refused(game, "discard:h0").startswith("discard")


# --- drawing, turns and the end -------------------------------------------------------


def test_draw_back_to_two_while_the_pile_lasts() -> None:
    game = single_card_game()
    st = state(game)
    st.pile = st.pile[:1]
    top = st.pile[0]
    events = play(game, "h0@0,1")
    assert events[-2] == {"type": "drew", "seat": 0, "count": 1,
                          "cards": [DECK[top].to_dict()]}  # fmt: skip
    assert st.players[0].hand[-1] == top and st.pile == []
    set_hand(game, 1, [("owl", "L"), ("ring", "T")])
    play(game, "h1@0,-1")
    assert len(st.players[1].hand) == 1 and game.to_move == 0


def test_a_player_with_an_empty_hand_is_skipped() -> None:
    game = new_game(3)
    lay(game, {(0, 0): ("ghost", "I", "NS")})
    st = state(game)
    st.pile = []
    set_hand(game, 0, [("owl", "I")])
    st.players[1].hand = []
    set_hand(game, 2, [("map", "I")])
    events = play(game, "h0@0,1")
    assert events[-1] == {"type": "turn", "seat": 2}


def test_the_end_when_pile_and_hands_are_empty_most_cards_wins() -> None:
    game = new_game(3)
    lay(game, {(0, 0): ("ghost", "I", "NS")})
    st = state(game)
    st.pile = []
    set_hand(game, 0, [("owl", "I")])
    st.players[1].hand, st.players[2].hand = [], []
    st.players[1].taken = [card("crown", "I")]
    events = play(game, "h0@0,1")
    assert events[-1] == {"type": "finished", "winners": [1], "scores": [0, 1, 0]}
    assert game.result == {"winners": [1], "scores": [0, 1, 0]}
    assert game.to_move is None and game.legal_actions(0) == []
    with pytest.raises(IllegalAction) as info:
        game.apply(0, {"type": "discard", "card": 0})
    assert info.value.code == "finished"


def test_a_tie_is_a_shared_win() -> None:
    game = new_game(3)
    lay(game, {(0, 0): ("ghost", "L", "ES"), (1, 0): ("owl", "I", "EW")})
    st = state(game)
    st.pile = []
    set_hand(game, 0, [("ghost", "T")])
    st.players[1].hand, st.players[2].hand = [], []
    st.players[2].taken = [card("crown", "I")]
    play(game, "h0@2,0")
    assert game.result is None  # the take is still to choose
    events = play(game, "take:0,0")
    assert types(events) == ["took", "finished"]
    assert game.result == {"winners": [0, 2], "scores": [1, 0, 1]}
    assert game.view(None)["status"] == "finished"


def test_not_your_turn_and_seat_order() -> None:
    game = single_card_game()
    with pytest.raises(IllegalAction) as info:
        game.apply(1, {"type": "place", "card": 0, "pos": [0, 1], "rotation": 0})
    assert info.value.code == "not_your_turn"
    play(game, "h0@0,1")
    assert game.to_move == 1
