"""What each viewer may see (classic.md, docs/protocol.md): secrets leave only by view()."""

from __future__ import annotations

import json
from typing import Any

from app.rules import Game
from app.rules.classic import ENGINE

from .helpers import arm_event, new_game, place, play, put_tile, set_pile

JSON = dict[str, Any]
PLAYER_KEYS = {"seat", "name", "color", "pos", "home", "found", "remaining"}


def test_view_shape() -> None:
    game = new_game(3, events=True)
    view = game.view(1)
    assert set(view) == {
        "variant", "seq", "status", "options", "you", "turn", "board", "players", "result",
    }  # fmt: skip
    assert view["variant"] == "classic" and view["you"] == 1 and view["result"] is None
    assert view["options"] == {"events": True, "return_home": True}
    assert set(view["board"]) == {"tiles", "spare", "forbidden", "last_push"}
    assert len(view["board"]["tiles"]) == 7 and all(len(r) == 7 for r in view["board"]["tiles"])
    assert set(view["board"]["spare"]) == {"open", "treasure", "fixed", "event"}
    json.dumps(view)


def test_only_the_owner_sees_the_target() -> None:
    game = new_game(3)
    targets = [p.pile[0] for p in game.state.players]
    for viewer in (None, 0, 1, 2):
        for seat, player in enumerate(game.view(viewer)["players"]):
            if seat == viewer:
                assert set(player) == PLAYER_KEYS | {"target"}
                assert player["target"] == targets[seat]
            else:
                assert set(player) == PLAYER_KEYS
    assert game.view(None)["you"] is None


def test_found_cards_and_counts_are_public() -> None:
    game = new_game()
    set_pile(game, 0, ["crown", "keys"])
    place(game, 0, "c3")
    play(game, "Sf", "c3")
    for viewer in (None, 0, 1):
        me = game.view(viewer)["players"][0]
        assert me["found"] == ["crown"] and me["remaining"] == 1


def test_finished_game_reveals_everything() -> None:
    game = new_game(3, events=True, return_home=False)
    set_pile(game, 0, ["crown"])
    place(game, 0, "c3")
    play(game, "Sf", "c3")
    for viewer in (None, 0, 2):
        view = game.view(viewer)
        assert view["status"] == "finished" and view["turn"] is None
        for seat, player in enumerate(view["players"]):
            assert player["pile"] == game.state.players[seat].pile
            assert player["target"] == (game.state.players[seat].pile or [None])[0]
        tiles = [t for row in view["board"]["tiles"] for t in row] + [view["board"]["spare"]]
        assert sum(1 for t in tiles if t["event"]) == 12


def test_redact_action_hides_a_picked_card_until_the_end() -> None:
    game = new_game(events=True)
    pick = {"type": "pick", "treasure": "crown"}
    state = game.state
    assert ENGINE.redact_action(state, 0, pick, 0) == pick
    assert ENGINE.redact_action(state, 0, pick, 1) == {"type": "pick"}
    assert ENGINE.redact_action(state, 0, pick, None) == {"type": "pick"}
    move = {"type": "move", "to": [0, 0]}
    assert ENGINE.redact_action(state, 0, move, None) == move
    state.result = {"winners": [0], "reason": "home"}
    assert ENGINE.redact_action(state, 0, pick, None) == pick


def test_redact_events_target_and_picked() -> None:
    game = new_game(events=True)
    arm_event(game, "peek", "Sf")
    pile = game.state.players[0].pile.copy()
    play(game, "Sf")
    picked = game.apply(0, {"type": "pick", "treasure": pile[1]})
    assert ENGINE.redact_events(game.state, picked, 0) == picked
    assert ENGINE.redact_events(game.state, picked, 1) == [{"type": "picked", "seat": 0}]
    assert ENGINE.redact_events(game.state, picked, None) == [{"type": "picked", "seat": 0}]
    set_pile(game, 0, ["crown", *pile[2:]])
    place(game, 0, "c3")
    moved = play(game, "c3")
    target = {"type": "target", "seat": 0, "treasure": pile[2]}
    assert target in moved
    assert target in ENGINE.redact_events(game.state, moved, 0)
    for viewer in (None, 1):
        shown = ENGINE.redact_events(game.state, moved, viewer)
        assert [e for e in shown if e["type"] == "target"] == []
        assert {"type": "found", "seat": 0, "treasure": "crown"} in shown
    game.state.result = {"winners": [1], "reason": "home"}
    assert ENGINE.redact_events(game.state, moved, None) == moved


def test_views_do_not_share_state() -> None:
    game = new_game()
    view = game.view(0)
    view["players"][0]["found"].append("crown")
    view["options"]["events"] = True
    assert game.state.players[0].found == [] and game.state.options["events"] is False


def test_reveal_shows_every_secret_while_views_keep_them() -> None:
    """Replay frames come from `reveal`: every pile and every hidden event, mid-game."""
    game = new_game(3, events=True)
    frame = game.engine.reveal(game.state)
    assert frame["status"] == "playing"
    assert all(len(p["pile"]) == 8 and p["target"] == p["pile"][0] for p in frame["players"])
    tiles = [t for row in frame["board"]["tiles"] for t in row] + [frame["board"]["spare"]]
    assert sum(1 for t in tiles if t.get("event")) == 12
    spectator = game.view(None)
    assert all("pile" not in p and "target" not in p for p in spectator["players"])
    assert not any(t.get("event") for row in spectator["board"]["tiles"] for t in row)


def fresh_grid(game: Game) -> list[list[JSON]]:
    """The grid drawn anew, from no memo."""
    twin = game.clone()
    twin.state.grid_memo = None
    return twin.view(None)["board"]["tiles"]


def test_a_move_reuses_the_grid_its_push_drew_even_after_other_boards() -> None:
    """The grid is remembered with the state: a room's move, sent after other rooms drew
    theirs, still finds the grid of its push (the board did not change), and every grid
    handed out equals one drawn from nothing."""
    game, other = new_game(seed="one"), new_game(seed="two")
    game.apply(0, game.legal_actions(0)[0])
    pushed = game.view(0)["board"]["tiles"]
    other.apply(0, other.legal_actions(0)[0])
    assert other.view(None)["board"]["tiles"] != pushed  # another board drawn in between
    moved = game.clone()
    moved.apply(0, moved.legal_actions(0)[-1])
    assert moved.seq == game.seq + 1
    assert moved.view(1)["board"]["tiles"] is pushed
    assert pushed == fresh_grid(moved)


def test_a_board_changed_in_place_is_drawn_again() -> None:
    game = new_game(events=True)
    before = game.view(None)["board"]["tiles"]
    board = game.state.board
    put_tile(board, board.spare, 1)
    after = game.view(None)["board"]["tiles"]
    assert after is not before and after != before
    assert after == fresh_grid(game)
    game.state.revealed.add(board.tiles[1])
    shown = game.view(None)["board"]["tiles"]
    assert shown is not after and shown == fresh_grid(game)
