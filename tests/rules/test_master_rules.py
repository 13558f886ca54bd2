"""One test (at least) for every rule and decision of `shared/rules/master.md`.

Each test starts from a real game, then carves an exact maze (every wall closed, then the
corridors it needs opened) and places pieces by hand. Dice are scripted by handing the
engine a `Dice` rng, so each test says which faces were rolled.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from app.rules import IllegalAction
from app.rules.board import pos_of
from app.rules.master import (
    ENGINE,
    GUARDIAN_STARTS,
    LAIR,
    PHASE1_CELLS,
    PHASE2_CELLS,
    STARTS_V1,
    Turn,
    parse_action,
)
from tests.rules.master_helpers import (
    Dice,
    act,
    c,
    carve,
    duel_position,
    final_position,
    kinds,
    new_game,
    position,
    take_position,
)

JSON = dict


# --- components and setup -----------------------------------------------------------------


@pytest.mark.parametrize(("players", "each"), [(2, 6), (3, 4), (4, 3)])
def test_setup_deals_both_piles_evenly(players: int, each: int) -> None:
    st = new_game(players).state
    for player in st.players:
        assert len(player.hand) == 2 * each
        assert sum(1 for v in player.hand if v <= 6) == each
    dealt = Counter(v for p in st.players for v in p.hand)
    assert dealt == Counter({v: 2 for v in range(1, 13)})


def test_setup_places_pieces_tokens_and_dragon() -> None:
    st = new_game(4).state
    assert [p.pos for p in st.players] == list(STARTS_V1)
    assert [pos_of(s) for s in STARTS_V1] == [[2, 2], [2, 4], [4, 2], [4, 4]]
    assert st.guardians == GUARDIAN_STARTS == {"white": c("d3"), "black": c("d5")}
    assert sorted(cell for cell, _ in st.tokens) == sorted(PHASE1_CELLS)
    assert Counter(v for _, v in st.tokens) == Counter({v: 2 for v in range(1, 7)})
    assert sorted(st.reserve) == sorted(v for v in range(7, 13) for _ in range(2))
    assert st.facing in "NESW"
    assert all(info.treasure is None for info in st.board.catalogue)
    assert ENGINE.to_move(st) == 0 and st.turn is not None and st.turn.phase == "push"


def test_setup_is_deterministic_and_faces_vary() -> None:
    assert new_game(seed="x").view(0) == new_game(seed="x").view(0)
    facings = {new_game(seed=f"s{i}").state.facing for i in range(40)}
    assert facings == set("NESW")


def test_options_are_empty() -> None:
    assert ENGINE.parse_options(None) == {} == ENGINE.parse_options({})
    with pytest.raises(ValueError):
        ENGINE.parse_options({"events": True})


# --- push ---------------------------------------------------------------------------------


def test_tiles_slide_under_the_fixed_lair_carrying_pieces() -> None:
    game = new_game()
    st = game.state
    st.players[0].pos = c("d3")
    st.tokens = [(c("d2"), 1), (c("d7"), 2)]
    tile_d3 = st.board.tiles[c("d3")]
    events = act(game, 0, "Nd")
    assert st.board.tiles[c("d4")] == tile_d3  # the d3 tile is now under the lair
    assert st.guardians["white"] == LAIR  # the guardian travelled with its tile
    assert st.players[0].pos == LAIR  # pushing may carry an adventurer into the lair
    assert (c("d3"), 1) in st.tokens
    # the black guardian stood on d5 and went to d6; d7's token was ejected onto d1
    assert st.guardians["black"] == c("d6")
    assert (c("d1"), 2) in st.tokens
    carried = next(e for e in events if e["type"] == "carried")
    assert carried == {"type": "carried", "seats": [], "guardians": [], "tokens": [2],
                       "to": [0, 3]}  # fmt: skip


def test_ejected_guardian_and_adventurer_go_onto_the_inserted_tile() -> None:
    game = new_game()
    st = game.state
    st.guardians["black"] = c("g4")
    st.players[1].pos = c("g4")
    events = act(game, 0, "W4")
    assert st.guardians["black"] == c("a4") and st.players[1].pos == c("a4")
    assert events[1]["seats"] == [1] and events[1]["guardians"] == ["black"]


def test_no_reverse_rule() -> None:
    game = new_game()
    act(game, 0, "Nb")
    game.state.turn = Turn(1)
    with pytest.raises(IllegalAction, match="no-reverse"):
        act(game, 1, "Sb")
    assert {"type": "push", "side": "S", "index": 1, "rotation": 0} not in game.legal_actions(1)


# --- move: the lair is in no path ----------------------------------------------------------


def test_the_lair_tile_is_in_no_path() -> None:
    game = position(p0="d2")
    st = game.state
    carve(st, "d2", "d3", "d4", "d5", "d6")  # a straight corridor through the lair
    assert st.board.reach_mask_blocked(c("d2"), 1 << LAIR) == (1 << c("d2")) | (1 << c("d3"))
    legal = [a["to"] for a in game.legal_actions(0)]
    assert sorted(legal) == [[1, 3], [2, 3]]
    with pytest.raises(IllegalAction, match="unreachable"):
        act(game, 0, "d4")
    with pytest.raises(IllegalAction, match="unreachable"):
        act(game, 0, "d6")  # not through the lair either


def test_an_adventurer_under_the_lair_can_only_stay() -> None:
    game = position(p0="d4")
    carve(game.state, "d3", "d4", "d5")
    assert game.legal_actions(0) == [{"type": "move", "to": [3, 3]}]


def test_board_reach_without_block_is_unchanged() -> None:
    game = position()
    st = game.state
    carve(st, "d3", "d4", "d5")
    assert st.board.reachable(c("d3")) == {c("d3"), c("d4"), c("d5")}
    assert st.board.reach_mask_blocked(c("d3"), 0) == st.board.reach_mask(c("d3"))


# --- taking -------------------------------------------------------------------------------


def test_walking_onto_the_lowest_token_takes_it() -> None:
    game = position(p0="a1")
    st = game.state
    carve(st, "a1", "b1", "c1")
    st.tokens = [(c("c1"), 1), (c("g7"), 1), (c("b1"), 2)]
    st.players[0].hand = []
    events = act(game, 0, "c1", Dice(4))  # dragon die: white guardian, nobody near
    assert kinds(events)[:2] == ["moved", "took"]
    assert st.players[0].treasures == [1]
    assert st.tokens == [(c("g7"), 1), (c("b1"), 2)]


def test_only_the_lowest_value_can_be_taken() -> None:
    game = position(p0="a1")
    st = game.state
    carve(st, "a1", "b1")
    st.tokens = [(c("b1"), 2), (c("g7"), 1)]
    events = act(game, 0, "b1")
    assert "took" not in kinds(events) and st.players[0].treasures == []


def test_staying_on_a_token_takes_nothing() -> None:
    game = position(p0="b1")
    st = game.state
    st.tokens = [(c("b1"), 1)]
    events = act(game, 0, "b1")
    assert "took" not in kinds(events) and st.tokens == [(c("b1"), 1)]


def test_a_pushed_adventurer_may_not_take() -> None:
    game = new_game()
    st = game.state
    st.players[0].pos = c("b1")
    st.tokens = [(c("b1"), 1)]
    act(game, 0, "Nb")  # the tile under both slides b1 -> b2: pushed, not walked
    assert st.players[0].pos == c("b2") and (c("b2"), 1) in st.tokens
    events = act(game, 0, "b2")  # staying
    assert "took" not in kinds(events) and st.players[0].treasures == []


def test_a_token_under_the_lair_cannot_be_taken_and_blocks_higher_ones() -> None:
    game = position(p0="a1")
    st = game.state
    carve(st, "a1", "b1")
    st.tokens = [(LAIR, 1), (c("b1"), 2)]
    assert st.lowest() == 1
    events = act(game, 0, "b1")
    assert "took" not in kinds(events)
    assert {"pos": [3, 3], "value": 1} in game.view(None)["tokens"]


def test_the_other_token_of_the_lowest_value_can_be_taken_beside_the_lair() -> None:
    game = position(p0="a1")
    st = game.state
    carve(st, "a1", "b1")
    st.tokens = [(LAIR, 1), (c("b1"), 1)]
    st.players[0].hand = []
    events = act(game, 0, "b1", Dice(5))
    assert "took" in kinds(events) and st.tokens == [(LAIR, 1)]


# --- the coin -------------------------------------------------------------------------------


def test_a_matching_card_may_be_played_for_a_coin() -> None:
    game = take_position([3, 5, 9])
    st = game.state
    events = act(game, 0, "b1")
    assert kinds(events) == ["moved", "took"] and st.turn.phase == "coin"
    assert game.legal_actions(0) == [{"type": "coin"}, {"type": "no_coin"}]
    events = act(game, 0, "coin", Dice(4))
    assert events[0] == {"type": "coin", "seat": 0, "card": 3}
    assert st.players[0].coins == 1 and st.players[0].hand == [5, 9]
    assert st.played == [{"seat": 0, "card": 3, "use": "coin"}]
    assert events[1]["type"] == "dragon_die"


def test_declining_the_coin_keeps_the_card() -> None:
    game = take_position([3, 9])
    act(game, 0, "b1")
    events = act(game, 0, "no_coin", Dice(4))
    assert game.state.players[0].hand == [3, 9] and game.state.players[0].coins == 0
    assert kinds(events)[0] == "dragon_die"


def test_coin_phase_without_the_matching_card_offers_only_no_coin() -> None:
    """Decision: the phase depends only on holding a card of the token's half (public)."""
    game = take_position([5, 9])
    act(game, 0, "b1")
    assert game.legal_actions(0) == [{"type": "no_coin"}]
    with pytest.raises(IllegalAction, match="coin"):
        act(game, 0, "coin")


def test_no_coin_phase_without_a_card_of_that_half() -> None:
    game = take_position([9, 10])
    events = act(game, 0, "b1", Dice(4))
    assert "dragon_die" in kinds(events) and game.state.turn.phase == "double"


# --- the dragon die ---------------------------------------------------------------------------


def test_arrows_turn_the_dragon_clockwise() -> None:
    for face, expected in [(0, "E"), (1, "S"), (2, "W"), (3, "N")]:
        game = take_position([])
        game.state.facing = "N"
        events = act(game, 0, "b1", Dice(face))
        die = events[2]
        assert die["face"] == str(face + 1) and die["facing"] == expected
        assert game.state.facing == expected


def test_a_guardian_face_does_not_turn_the_dragon() -> None:
    game = take_position([])
    game.state.facing = "W"
    events = act(game, 0, "b1", Dice(5))
    assert events[2] == {"type": "dragon_die", "seat": 0, "face": "black"}
    assert game.state.facing == "W" and events[3]["source"] == "black"


def test_a_guardian_under_the_lair_does_nothing() -> None:
    game = take_position([])
    st = game.state
    st.guardians["white"] = LAIR
    st.players[1].pos = c("d3")
    st.players[1].treasures = [2]
    carve(st, "d3", "d4")
    events = act(game, 0, "b1", Dice(4))
    threat = events[3]
    assert threat["cells"] == [] and threat["duellists"] == []
    assert st.players[1].treasures == [2]


# --- duels --------------------------------------------------------------------------------------


def test_the_nearest_adventurer_duels_and_loses_on_1_to_3() -> None:
    game = duel_position()
    st = game.state
    st.players[1].pos, st.players[1].treasures = c("e1"), [4, 7]
    st.players[2].pos, st.players[2].treasures = c("c1"), [5]
    events = act(game, 0, "b1", Dice(5, 2))
    threat = next(e for e in events if e["type"] == "threat")
    assert threat["nearest"] == [1] and threat["duellists"] == [1]
    assert {"type": "duel_roll", "seat": 1, "roll": 2} in events
    assert {"type": "lost", "seat": 1, "value": 4, "reason": "duel"} in events
    assert st.players[1].treasures == [7] and st.lost == [4]
    assert st.players[2].treasures == [5]


def test_a_duel_roll_of_4_to_6_loses_nothing() -> None:
    game = duel_position()
    st = game.state
    st.players[1].pos, st.players[1].treasures = c("f1"), [4]
    events = act(game, 0, "b1", Dice(5, 4))
    assert {"type": "duel_won", "seat": 1} in events and st.players[1].treasures == [4]


def test_a_duel_tie_makes_each_duel_in_seat_order_from_the_current_player() -> None:
    game = duel_position(4)
    st = game.state
    st.turn = Turn(2, phase="move")
    st.players[2].pos = c("a1")
    st.players[2].hand = []
    st.players[0].pos = c("e1")
    st.players[3].pos = c("g1")
    st.players[0].treasures = [3]
    st.players[3].treasures = [6]
    events = act(game, 2, "b1", Dice(5, 1, 6))
    rolls = [e for e in events if e["type"] == "duel_roll"]
    assert [r["seat"] for r in rolls] == [3, 0]  # from seat 2: 3 before 0
    assert st.players[3].treasures == [] and st.players[0].treasures == [3]


def test_the_current_players_own_adventurer_can_be_threatened() -> None:
    game = position(p0="a1", white="c1")
    st = game.state
    carve(st, "a1", "b1", "c1")
    st.tokens = [(c("b1"), 1)]
    st.players[0].hand = []
    st.players[0].treasures = [6]
    st.players[1].pos = c("g7")
    events = act(game, 0, "b1", Dice(4, 3))
    assert next(e for e in events if e["type"] == "threat")["duellists"] == [0]
    assert st.players[0].treasures == [6]  # lost the lowest: the 1 just taken
    assert st.lost == [1]


def test_no_treasure_no_duel_and_the_duel_is_not_passed_on() -> None:
    game = duel_position()
    st = game.state
    st.players[1].pos, st.players[1].treasures = c("f1"), []
    st.players[2].pos, st.players[2].treasures = c("c1"), [5]
    events = act(game, 0, "b1", Dice(5))
    threat = next(e for e in events if e["type"] == "threat")
    assert threat["nearest"] == [1] and threat["duellists"] == []
    assert "duel_roll" not in kinds(events) and st.players[2].treasures == [5]


def test_dragon_threat_starts_at_distance_one_in_front_of_its_head() -> None:
    game = duel_position()
    st = game.state
    st.facing = "W"  # one arrow turns it to N: front d3
    carve(st, "d1", "d2", "d3")
    st.players[1].pos, st.players[1].treasures = c("d2"), [8]
    st.players[2].pos, st.players[2].treasures = c("d3"), [9]
    events = act(game, 0, "b1", Dice(0, 5))
    threat = next(e for e in events if e["type"] == "threat")
    assert threat["source"] == "dragon" and threat["duellists"] == [2]
    assert [3, 3] not in threat["cells"]


def test_a_failed_roll_may_be_rerolled_with_a_1_to_6_card_by_the_duellist() -> None:
    game = duel_position()
    st = game.state
    st.players[1].pos, st.players[1].treasures = c("f1"), [4]
    st.players[1].hand = [2, 5, 11]
    events = act(game, 0, "b1", Dice(5, 1))
    assert st.turn.phase == "reroll" and ENGINE.to_move(st) == 1 and st.turn.roll == 1
    assert game.legal_actions(0) == []
    assert game.legal_actions(1) == [
        {"type": "reroll", "card": 2}, {"type": "reroll", "card": 5}, {"type": "accept"},
    ]  # fmt: skip
    with pytest.raises(IllegalAction, match="not_your_turn"):
        act(game, 0, "accept")
    events = act(game, 1, "reroll:2", Dice(3))
    assert events[:2] == [
        {"type": "reroll", "seat": 1, "card": 2},
        {"type": "duel_roll", "seat": 1, "roll": 3},
    ]
    assert st.turn.phase == "reroll"  # failed again, still holds a 5
    events = act(game, 1, "reroll:5", Dice(6))
    assert {"type": "duel_won", "seat": 1} in events
    assert st.players[1].treasures == [4] and st.players[1].hand == [11]
    assert st.turn.seat == 1 and st.turn.phase == "push"  # seat 0's turn is over


def test_accepting_a_failed_roll_loses_the_lowest_treasure() -> None:
    game = duel_position()
    st = game.state
    st.players[1].pos, st.players[1].treasures = c("f1"), [4, 9]
    st.players[1].hand = [2]
    act(game, 0, "b1", Dice(5, 1))
    events = act(game, 1, "accept")
    assert events[0] == {"type": "lost", "seat": 1, "value": 4, "reason": "duel"}
    assert st.players[1].hand == [2] and st.players[1].treasures == [9]


def test_coins_are_never_lost() -> None:
    game = duel_position()
    st = game.state
    st.players[1].pos, st.players[1].treasures, st.players[1].coins = c("f1"), [4], 2
    act(game, 0, "b1", Dice(5, 1))
    assert st.players[1].treasures == [] and st.players[1].coins == 2


# --- double turn ----------------------------------------------------------------------------


def test_a_7_to_12_card_gives_one_more_complete_turn_not_two() -> None:
    game = position(p0="a1")
    st = game.state
    st.players[0].hand = [8, 10]
    act(game, 0, "a1")
    assert st.turn.phase == "double"
    assert game.legal_actions(0) == [
        {"type": "double_turn", "card": 8}, {"type": "double_turn", "card": 10},
        {"type": "end_turn"},
    ]  # fmt: skip
    events = act(game, 0, "double_turn:8")
    assert events[-1] == {"type": "turn", "seat": 0, "bonus": True}
    assert st.turn.phase == "push" and st.turn.seat == 0 and st.turn.bonus
    assert st.played[-1] == {"seat": 0, "card": 8, "use": "double_turn"}
    act(game, 0, "Nb")
    events = act(game, 0, "a1")
    assert st.turn.seat == 1 and events[-1] == {"type": "turn", "seat": 1, "bonus": False}


def test_end_turn_passes_to_the_next_seat() -> None:
    game = position(p0="a1")
    game.state.players[0].hand = [8]
    act(game, 0, "a1")
    act(game, 0, "end_turn")
    assert game.state.turn.seat == 1 and game.state.players[0].hand == [8]


def test_without_a_7_to_12_card_the_turn_ends_after_the_move() -> None:
    game = position(p0="a1")
    game.state.players[0].hand = [1, 2]
    events = act(game, 0, "a1")
    assert events[-1] == {"type": "turn", "seat": 1, "bonus": False}


def test_reroll_card_must_be_held_and_low() -> None:
    game = position(p0="a1")
    game.state.players[0].hand = [8]
    act(game, 0, "a1")
    with pytest.raises(IllegalAction, match="card: you hold no 9"):
        act(game, 0, "double_turn:9")
    with pytest.raises(IllegalAction, match=r"card must"):
        ENGINE.apply(game.state, 0, {"type": "double_turn", "card": 3}, Dice())


# --- second phase -------------------------------------------------------------------------


def test_taking_the_last_low_token_places_the_high_ones_with_pieces_staying_put() -> None:
    game = take_position([])
    st = game.state
    st.tokens = [(c("b1"), 6)]
    st.players[1].pos = PHASE2_CELLS[0]
    st.guardians["white"] = PHASE2_CELLS[1]
    events = act(game, 0, "b1", Dice(4))
    second = next(e for e in events if e["type"] == "second_phase")
    assert sorted(cell for cell, _ in st.tokens) == sorted(PHASE2_CELLS)
    assert sorted(v for _, v in st.tokens) == sorted(v for v in range(7, 13) for _ in range(2))
    assert len(second["tokens"]) == 12 and st.reserve == [] and st.second_phase
    assert st.players[1].pos == PHASE2_CELLS[0] and st.guardians["white"] == PHASE2_CELLS[1]
    assert st.players[0].pos == c("b1")
    assert game.view(None)["stage"] == "second"


def test_no_second_phase_while_a_low_token_remains() -> None:
    game = take_position([])
    game.state.tokens = [(c("b1"), 5), (c("g7"), 6)]
    act(game, 0, "b1", Dice(4))
    assert not game.state.second_phase and game.state.reserve


# --- final duel ----------------------------------------------------------------------------


def test_the_final_duel_opens_only_when_the_board_is_empty_after_phase_two() -> None:
    game = final_position()
    st = game.state
    assert st.final_open and game.view(0)["stage"] == "final"
    st.second_phase = False
    assert not st.final_open


def test_the_challenge_is_offered_in_front_of_the_dragons_head() -> None:
    game = final_position()
    act(game, 0, "d3")
    assert game.state.turn.phase == "challenge"
    assert game.legal_actions(0) == [{"type": "challenge"}, {"type": "decline"}]


def test_no_challenge_elsewhere() -> None:
    game = final_position()
    events = act(game, 0, "d2")
    assert events[-1]["type"] == "turn"


def test_final_duel_won_takes_the_dragon_and_ends_the_game() -> None:
    game = final_position([9])
    st = game.state
    act(game, 0, "d3")
    events = act(game, 0, "challenge", Dice(6, 4, 2))
    assert [e["roll"] for e in events if e["type"] == "final_roll"] == [6, 4, 2]
    final = next(e for e in events if e["type"] == "final_duel")
    assert final["total"] == 12 and final["won"]
    assert st.players[0].dragon and st.turn is None
    assert game.result == {"winners": [0], "reason": "dragon", "scores": [2 + 9 + 15, 0]}
    assert game.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="finished"):
        act(game, 0, "Nb")


def test_final_duel_lost_costs_the_lowest_treasure_and_the_next_player_plays() -> None:
    game = final_position([9])
    st = game.state
    act(game, 0, "d3")
    events = act(game, 0, "challenge", Dice(6, 4, 1))
    assert next(e for e in events if e["type"] == "final_duel")["won"] is False
    assert {"type": "lost", "seat": 0, "value": 2, "reason": "final_duel"} in events
    assert st.players[0].treasures == [9] and not st.players[0].dragon
    assert st.turn.seat == 1 and st.turn.phase == "push"  # no double turn offered
    assert st.players[0].hand == [9]


def test_a_reroll_in_the_final_duel_redoes_that_roll() -> None:
    game = final_position([1, 4])
    st = game.state
    act(game, 0, "d3")
    act(game, 0, "challenge", Dice(2))
    assert st.turn.phase == "final" and st.turn.roll == 2 and st.turn.final == []
    act(game, 0, "reroll:1", Dice(6))
    assert st.turn.roll == 6
    act(game, 0, "accept", Dice(5))
    assert st.turn.final == [6] and st.turn.roll == 5
    act(game, 0, "accept", Dice(1))
    assert st.turn.final == [6, 5] and st.turn.roll == 1
    events = act(game, 0, "reroll:4", Dice(2))  # last card: the redone roll counts at once
    final = next(e for e in events if e["type"] == "final_duel")
    assert final["rolls"] == [6, 5, 2] and final["won"]
    assert st.played[-2:] == [
        {"seat": 0, "card": 1, "use": "reroll"}, {"seat": 0, "card": 4, "use": "reroll"},
    ]  # fmt: skip


def test_declining_the_challenge_goes_to_the_double_turn_step() -> None:
    game = final_position([10])
    act(game, 0, "d3")
    act(game, 0, "decline")
    assert game.state.turn.phase == "double"


# --- scoring -----------------------------------------------------------------------------


def test_scoring_counts_treasures_coins_and_the_dragon() -> None:
    game = final_position()
    st = game.state
    st.players[0].treasures, st.players[0].coins = [2, 9], 1
    st.players[1].treasures, st.players[1].coins = [12, 11, 7], 0
    act(game, 0, "d3")
    act(game, 0, "challenge", Dice(4, 4, 4))
    assert game.result["scores"] == [2 + 9 + 5 + 15, 30]
    assert game.result["winners"] == [0]


def test_tie_on_points_goes_to_more_treasures() -> None:
    game = final_position()
    st = game.state
    st.players[0].treasures, st.players[0].coins = [2, 9], 0  # 11 + 15 = 26
    st.players[1].treasures, st.players[1].coins = [3, 4, 9], 2  # 16 + 10 = 26
    act(game, 0, "d3")
    act(game, 0, "challenge", Dice(6, 6, 6))
    assert game.result["scores"] == [26, 26] and game.result["winners"] == [1]


def test_a_full_tie_is_a_shared_win() -> None:
    game = final_position()
    st = game.state
    st.players[0].treasures = [2, 9]  # 26 with the dragon
    st.players[1].treasures, st.players[1].coins = [7, 9], 2  # 26
    act(game, 0, "d3")
    act(game, 0, "challenge", Dice(6, 6, 6))
    assert game.result["winners"] == [0, 1]


# --- refusals and wire parsing --------------------------------------------------------------


def test_refusals_name_their_rule_and_leave_the_state_untouched() -> None:
    game = new_game()
    before = json.dumps(ENGINE.reveal(game.state), sort_keys=True)
    cases = [
        (0, {"type": "move", "to": [0, 0]}, "illegal"),
        (1, {"type": "push", "side": "N", "index": 1, "rotation": 0}, "not_your_turn"),
        (0, {"type": "fly"}, "bad_message"),
        (0, {"type": "coin", "extra": 1}, "bad_message"),
        (0, {"type": "reroll", "card": 8}, "bad_message"),
        (0, {"type": "push", "side": "N", "index": 2, "rotation": 0}, "bad_message"),
        (0, {"type": "coin"}, "illegal"),
        (0, {"type": "challenge"}, "illegal"),
        (0, {"type": "end_turn"}, "illegal"),
    ]
    for seat, action, code in cases:
        with pytest.raises(IllegalAction) as info:
            ENGINE.apply(game.state, seat, action, Dice())
        assert info.value.code == code, action
    assert json.dumps(ENGINE.reveal(game.state), sort_keys=True) == before


@pytest.mark.parametrize(
    "text",
    ["Nb", "W4+1", "c3", "coin", "no_coin", "accept", "challenge", "decline", "end_turn",
     "reroll:3", "double_turn:12"],
)  # fmt: skip
def test_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert ENGINE.notation(action.to_dict()) == text


# --- views ---------------------------------------------------------------------------------


def test_views_have_the_master_fields_and_hide_other_hands() -> None:
    game = new_game(3)
    st = game.state
    for viewer in [None, 0, 1, 2]:
        view = game.view(viewer)
        json.dumps(view)
        assert view["dragon"]["facing"] == st.facing
        assert view["guardians"] == {"white": [2, 3], "black": [4, 3]}
        assert len(view["tokens"]) == 12 and view["lair"] == [3, 3]
        for seat, player in enumerate(view["players"]):
            assert {"treasures", "coins", "hand_count", "pos"} <= set(player)
            assert player["hand_count"] == 8
            assert ("hand" in player) == (seat == viewer)
    assert game.view(1)["players"][1]["hand"] == st.players[1].hand


def test_finished_views_and_reveal_show_every_hand() -> None:
    game = final_position([9])
    revealed = ENGINE.reveal(game.state)
    assert all("hand" in p for p in revealed["players"])
    assert "hand" not in game.view(None)["players"][0]
    act(game, 0, "d3")
    act(game, 0, "challenge", Dice(6, 6, 6))
    assert all("hand" in p for p in game.view(None)["players"])


def test_events_and_actions_are_public() -> None:
    game = take_position([3])
    events = act(game, 0, "b1")
    assert ENGINE.redact_events(game.state, events, None) == events
    action = {"type": "reroll", "card": 2}
    assert ENGINE.redact_action(game.state, 1, action, None) == action
