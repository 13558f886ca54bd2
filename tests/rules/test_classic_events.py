"""The event variant (classic.md, option `events`): hiding, revealing, the six events."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.rules import IllegalAction, rng_for
from app.rules.board import E, N, S, W, cell_name, pos_of
from app.rules.classic import CATALOGUE, EVENTS, PLAIN_I, PLAIN_L, parse_action

from .helpers import arm_event, cell, new_game, place, play, set_opens, set_pile


def event_fields(view: dict) -> list:
    tiles = [t for row in view["board"]["tiles"] for t in row] + [view["board"]["spare"]]
    return [t["event"] for t in tiles]


def viewers(game) -> list:  # type: ignore[no-untyped-def]
    return [None, *range(len(game.state.players))]


# --- hiding and revealing ---------------------------------------------------------------


def test_twelve_event_tiles_one_i_and_one_plain_l_per_event() -> None:
    for seed in ("a", "b", "c"):
        game = new_game(seed=seed, events=True)
        events = game.state.tile_events
        assert len(events) == 12
        assert Counter(events.values()) == {e: 2 for e in EVENTS}
        for name in EVENTS:
            tiles = [t for t, e in events.items() if e == name]
            assert {CATALOGUE[t].shape for t in tiles} == {"I", "L"}
            assert all(t in PLAIN_I or t in PLAIN_L for t in tiles)
    assert new_game(seed="a", events=True).state.tile_events != game.state.tile_events
    assert new_game().state.tile_events == {}


def test_events_are_secret_until_ejected() -> None:
    game = new_game(events=True)
    for viewer in viewers(game):
        assert set(event_fields(game.view(viewer))) == {None}


def test_same_seed_same_board_with_or_without_events() -> None:
    plain, evented = new_game(seed="z"), new_game(seed="z", events=True)
    assert plain.state.board.tiles == evented.state.board.tiles
    assert [p.pile for p in plain.state.players] == [p.pile for p in evented.state.players]


def test_ejecting_an_event_tile_reveals_it_to_everyone_for_good() -> None:
    game = new_game(events=True)
    tile = arm_event(game, "swap", "Nb")
    events = play(game, "Nb")
    assert events[-1] == {"type": "event", "name": "swap"}
    assert events[0]["ejected_to_spare"]["event"] == "swap"
    assert tile in game.state.revealed
    for viewer in viewers(game):
        view = game.view(viewer)
        assert view["board"]["spare"]["event"] == "swap"
        assert event_fields(view).count("swap") == 1
        assert view["turn"]["event"] == {"name": "swap", "used": False, "opened": False}
    play(game, "a1", "E4")  # seat 1 pushes the tile back in, at g4
    for viewer in viewers(game):
        assert game.view(viewer)["board"]["tiles"][3][6]["event"] == "swap"


def test_an_event_may_be_ignored_and_a_tile_triggers_each_time_it_is_ejected() -> None:
    game = new_game(events=True)
    arm_event(game, "swap", "Nb")
    play(game, "Nb", "a1")  # seat 0 ignores the swap
    play(game, "E4", "g1")  # seat 1 pushes the tile in at g4, ejecting something else
    assert game.view(None)["turn"]["event"] is None
    play(game, "Nf", "a1")  # seat 0
    events = play(game, "W4")  # seat 1 ejects it again from g4
    assert {"type": "event", "name": "swap"} in events
    assert game.view(None)["turn"] == {
        "seat": 1,
        "phase": "move",
        "event": {"name": "swap", "used": False, "opened": False},
        "bonus": False,
    }


def test_an_event_only_lasts_its_turn() -> None:
    game = new_game(events=True)
    arm_event(game, "swap", "Nb")
    play(game, "Nb", "a1")
    assert all(a["type"] == "push" for a in game.legal_actions(1))
    play(game, "Sd")
    assert not any(a["type"] == "swap" for a in game.legal_actions(1))


# --- extra_push --------------------------------------------------------------------------


def test_extra_push() -> None:
    game = new_game(events=True)
    arm_event(game, "extra_push", "Nb")
    play(game, "Nb")
    legal = game.legal_actions(0)
    pushes = [a for a in legal if a["type"] == "push"]
    assert len(pushes) == 44 and {"type": "move", "to": [0, 0]} in legal
    with pytest.raises(IllegalAction, match="no-reverse: Sb undoes Nb"):
        play(game, "Sb")
    second = arm_event(game, "double_turn", "Nd")
    events = play(game, "Nd+1")
    assert [e["type"] for e in events] == ["pushed"]  # the second ejection triggers nothing
    assert second not in game.state.revealed  # ... and is not revealed
    assert game.view(None)["board"]["spare"]["event"] is None
    view = game.view(0)
    assert view["turn"]["event"] == {"name": "extra_push", "used": True, "opened": False}
    assert view["turn"]["phase"] == "move"
    assert view["board"]["forbidden"] == {"side": "S", "index": 3}
    assert all(a["type"] == "move" for a in game.legal_actions(0))
    with pytest.raises(IllegalAction, match="one-push"):
        play(game, "Nf")
    play(game, "a1")
    assert game.to_move == 1 and game.view(None)["turn"]["event"] is None


def test_extra_push_no_reverse_is_relative_to_the_push_just_made() -> None:
    game = new_game(events=True)
    play(game, "Nf", "a1")  # seat 0: Sf banned for the next push only
    arm_event(game, "extra_push", "Nb")
    play(game, "Nb")  # seat 1
    play(game, "Sf")  # allowed now: the ban lasted one push
    assert game.view(None)["board"]["forbidden"] == {"side": "N", "index": 5}


def test_moving_first_forfeits_the_extra_push() -> None:
    game = new_game(events=True)
    arm_event(game, "extra_push", "Nb")
    play(game, "Nb", "a1")
    assert game.to_move == 1
    with pytest.raises(IllegalAction, match="not_your_turn"):
        play_as(game, 0, "Nd")


def play_as(game, seat: int, text: str) -> None:  # type: ignore[no-untyped-def]
    game.apply(seat, parse_action(text).to_dict())


# --- double_turn -------------------------------------------------------------------------


def test_double_turn() -> None:
    game = new_game(3, events=True)
    arm_event(game, "double_turn", "Nb")
    assert {"type": "event", "name": "double_turn"} in play(game, "Nb")
    events = play(game, "a1")
    assert events[-1] == {"type": "turn", "seat": 0, "bonus": True}
    assert game.view(None)["turn"] == {"seat": 0, "phase": "push", "event": None, "bonus": True}
    # no event triggers during the bonus turn, and the ejected tile stays secret
    hidden = arm_event(game, "swap", "Nd")
    events = play(game, "Nd")
    assert [e["type"] for e in events] == ["pushed"]
    assert hidden not in game.state.revealed
    assert game.view(None)["turn"]["event"] is None
    assert play(game, "a1")[-1] == {"type": "turn", "seat": 1, "bonus": False}


def test_double_turn_ends_with_the_game() -> None:
    game = new_game(events=True, return_home=False)
    arm_event(game, "double_turn", "Sf")
    set_pile(game, 0, ["crown"])
    place(game, 0, "c3")
    play(game, "Sf")
    events = play(game, "c3")
    assert events[-1]["type"] == "won"
    assert game.to_move is None and game.view(None)["turn"] is None


# --- swap ----------------------------------------------------------------------------------


def test_swap_then_move_from_the_new_cell() -> None:
    game = new_game(3, events=True)
    arm_event(game, "swap", "Sf")
    place(game, 2, "c3")
    play(game, "Sf")
    swaps = [a for a in game.legal_actions(0) if a["type"] == "swap"]
    assert swaps == [{"type": "swap", "with": 1}, {"type": "swap", "with": 2}]
    with pytest.raises(IllegalAction, match="swap: swap places with another pawn"):
        play(game, "swap:0")
    assert play(game, "swap:2") == [{"type": "swapped", "seat": 0, "with": 2}]
    assert cell_name(game.state.players[0].pos) == "c3"
    assert cell_name(game.state.players[2].pos) == "a1"
    assert game.view(None)["turn"]["event"] == {"name": "swap", "used": True, "opened": False}
    moves = {tuple(a["to"]) for a in game.legal_actions(0)}
    assert moves == {tuple(pos_of(c)) for c in game.state.board.reachable(cell("c3"))}
    with pytest.raises(IllegalAction, match="swap: only an unused swap event"):
        play(game, "swap:1")
    play(game, "c3")
    assert game.to_move == 1


def test_swap_needs_the_event_and_a_real_seat() -> None:
    game = new_game(2, events=True)
    with pytest.raises(IllegalAction, match="push-first"):
        play(game, "swap:1")
    play(game, "Sf")
    with pytest.raises(IllegalAction, match="swap: only an unused swap event"):
        play(game, "swap:1")
    with pytest.raises(IllegalAction) as err:
        play(game, "swap:3")
    assert err.value.code == "bad_message"


# --- peek ----------------------------------------------------------------------------------


def test_peek_choose_the_second_card() -> None:
    game = new_game(events=True)
    arm_event(game, "peek", "Sf")
    pile = game.state.players[0].pile.copy()
    play(game, "Sf")
    assert game.view(0)["players"][0]["peek"] == pile[:2]
    for viewer in (None, 1):
        assert "peek" not in game.view(viewer)["players"][0]
    picks = [a["treasure"] for a in game.legal_actions(0) if a["type"] == "pick"]
    assert picks == pile[:2]
    with pytest.raises(IllegalAction, match=f"peek: {pile[2]} is not of the top two cards"):
        play(game, f"pick:{pile[2]}")
    events = play(game, f"pick:{pile[1]}")
    assert events == [{"type": "picked", "seat": 0, "treasure": pile[1]}]
    assert game.state.players[0].pile == [pile[1], pile[0], *pile[2:]]
    view = game.view(0)["players"][0]
    assert view["target"] == pile[1] and "peek" not in view
    assert not any(a["type"] == "pick" for a in game.legal_actions(0))


def test_peek_choose_the_top_card_keeps_the_order() -> None:
    game = new_game(events=True)
    arm_event(game, "peek", "Sf")
    pile = game.state.players[0].pile.copy()
    play(game, "Sf", f"pick:{pile[0]}")
    assert game.state.players[0].pile == pile


def test_peek_with_one_card_and_with_none() -> None:
    game = new_game(events=True)
    arm_event(game, "peek", "Sf")
    set_pile(game, 0, ["crown"])
    play(game, "Sf")
    assert game.view(0)["players"][0]["peek"] == ["crown"]
    assert [a for a in game.legal_actions(0) if a["type"] == "pick"] == [
        {"type": "pick", "treasure": "crown"}
    ]
    game = new_game(events=True)
    arm_event(game, "peek", "Sf")
    set_pile(game, 0, [])
    play(game, "Sf")
    assert "peek" not in game.view(0)["players"][0]
    assert not any(a["type"] == "pick" for a in game.legal_actions(0))
    with pytest.raises(IllegalAction, match="peek"):
        play(game, "pick:crown")


# --- exchange ------------------------------------------------------------------------------


def test_exchange_any_card_on_top_then_the_rest_reshuffled() -> None:
    game = new_game(events=True)
    arm_event(game, "exchange", "Sf")
    pile = game.state.players[0].pile.copy()
    play(game, "Sf")
    assert game.view(0)["players"][0]["pile"] == pile
    for viewer in (None, 1):
        assert "pile" not in game.view(viewer)["players"][0]
    picks = [a["treasure"] for a in game.legal_actions(0) if a["type"] == "pick"]
    assert picks == pile
    chosen = pile[-1]
    seq = game.seq + 1
    play(game, f"pick:{chosen}")
    rest = pile[:-1]
    random_rest = rest.copy()
    rng_for("test-seed", seq).shuffle(random_rest)
    assert game.state.players[0].pile == [chosen, *random_rest]
    assert random_rest != rest  # reshuffled indeed, for this seed
    assert "pile" not in game.view(0)["players"][0]
    assert game.view(0)["turn"]["event"] == {"name": "exchange", "used": True, "opened": False}
    with pytest.raises(IllegalAction, match="pick: only an unused peek or exchange"):
        play(game, f"pick:{chosen}")


def test_pick_without_an_event_is_illegal() -> None:
    game = new_game(events=True)
    top = game.state.players[0].pile[0]
    with pytest.raises(IllegalAction, match="push-first"):
        play(game, f"pick:{top}")
    play(game, "Sf")
    with pytest.raises(IllegalAction, match="pick: only an unused peek or exchange"):
        play(game, f"pick:{top}")


# --- wall ----------------------------------------------------------------------------------


def shut_in_a1(game) -> None:  # type: ignore[no-untyped-def]
    """a1 walled off; b1 leads to b2; a2 isolated; b2 shut from c2 and b3."""
    set_opens(game.state.board, {"b1": N | S, "b2": N | S, "a2": E | W, "b3": E | W, "c2": E | W})


def test_wall_lets_the_move_cross_one_wall_once() -> None:
    game = new_game(events=True)
    arm_event(game, "wall", "Sf")
    play(game, "Sf")
    shut_in_a1(game)
    assert game.state.board.reachable(cell("a1")) == {cell("a1")}
    moves = {cell_name(a["to"][0] * 7 + a["to"][1]) for a in game.legal_actions(0)}
    assert moves == {"a1", "b1", "b2", "a2"}
    with pytest.raises(IllegalAction, match="unreachable: c2 is not connected to a1 even across"):
        play(game, "c2")  # would need two crossings
    events = play(game, "b2")
    assert events[0] == {"type": "moved", "seat": 0, "from": [0, 0], "to": [1, 1], "wall": True}


def test_wall_unneeded_says_so_and_is_spent() -> None:
    game = new_game(events=True)
    arm_event(game, "wall", "Sf")
    play(game, "Sf")
    shut_in_a1(game)
    events = play(game, "a1")
    assert events[0]["wall"] is False
    assert game.to_move == 1


def test_without_wall_walls_hold() -> None:
    game = new_game(events=True)
    play(game, "Sf")
    shut_in_a1(game)
    assert game.legal_actions(0) == [{"type": "move", "to": [0, 0]}]
    with pytest.raises(IllegalAction, match=r"unreachable: b1 is not connected to a1$"):
        play(game, "b1")


# --- combined -------------------------------------------------------------------------------


def test_events_combine_with_the_younger_children_variant() -> None:
    game = new_game(events=True, return_home=False)
    assert game.view(None)["options"] == {"events": True, "return_home": False}
    arm_event(game, "peek", "Sf")
    set_pile(game, 0, ["keys", "crown"])
    place(game, 0, "c3")
    play(game, "Sf", "pick:crown")
    assert play(game, "c3")[1:3] == [
        {"type": "found", "seat": 0, "treasure": "crown"},
        {"type": "target", "seat": 0, "treasure": "keys"},
    ]
    play(game, "Sb", "g1")  # seat 1
    place(game, 0, "e3")
    play(game, "Nd")
    assert play(game, "e3")[-1] == {"type": "won", "seat": 0, "reason": "all_found"}


def test_every_event_can_arise_from_random_play() -> None:
    seen = set()
    for seed in range(6):
        game = new_game(4, seed=str(seed), events=True)
        rng = random.Random(seed)
        while game.seq < 300 and game.to_move is not None:
            event = game.view(None)["turn"]["event"]
            if event:
                seen.add(event["name"])
            game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    assert seen == set(EVENTS)
