"""Master: a coin or a double turn left unused, judged where the choice was made.

The hand-made positions are a dealt game whose board, pawn, tokens and hand are set by
hand; the oracle is the engine itself (apply the double turn, the push, the move, and
look for its `took` event), never the analysis code.
"""

from __future__ import annotations

import random
from typing import Any

from app.analysis import analyse
from app.analysis.master import unused_coin, unused_double
from app.analysis.turns import Decision
from app.bots import choose
from app.rules import Game
from app.rules.board import CELL_COUNT, E, N, S, W, cell_of
from app.rules.master import Turn

Action = dict[str, Any]
OPEN = "open"  # every row a corridor, the first column joining them
WALLED = "walled"  # every tile a north-south line: a pawn walks only along its column


def _position(board: str, pawn: int, token: int, hand: list[int], phase: str) -> Game:
    """Seat 0 of a two-player game at `phase`, on a hand-laid board (real tile shapes,
    every tile turned by hand), the lowest token (a 1) on `token`, a 2 elsewhere."""
    game = Game.new("master", ["Ann", "Bob"], seed="hand-made")
    state = game.state
    if board == OPEN:
        opens = [N | E | S if cell % 7 == 0 else E | S | W for cell in range(CELL_COUNT)]
        spare = E | S | W
    else:
        opens, spare = [N | S] * CELL_COUNT, N | S
    state.board.opens = opens
    state.board.spare_open = spare
    state.board.refresh()
    state.players[0].pos = pawn
    state.players[0].hand = hand
    state.tokens = [(token, 1), (cell_of(6, 6), 2)]
    state.forbidden = None
    state.turn = Turn(0, phase=phase, taken=3 if phase == "coin" else None)
    return game


def _decision(game: Game, action: Action) -> Decision:
    return Decision(
        seq=game.seq + 1,
        seat=0,
        action=action,
        view=game.view(0),
        legal=game.legal_actions(0),
        state=game.state.clone(),
    )


def _takes(game: Game, line: list[Action]) -> list[int]:
    """The values the engine says seat 0 takes playing `line` from `game`'s position."""
    trial = game.clone()
    events = [e for action in line for e in trial.apply(0, action)]
    return [e["value"] for e in events if e["type"] == "took"]


def test_ending_a_turn_when_a_double_turn_would_take_a_token_is_marked() -> None:
    game = _position(OPEN, pawn=cell_of(0, 1), token=cell_of(5, 5), hand=[9, 11], phase="double")
    mark = unused_double(game, _decision(game, {"type": "end_turn"}))
    assert mark is not None
    assert mark["kind"] == "unused_double" and mark["card"] == 9 and mark["value"] == 1
    assert mark["seq"] == game.seq + 1
    move = {"type": "move", "to": mark["path"][-1]}
    assert _takes(game, [{"type": "double_turn", "card": 9}, mark["best"], move]) == [1]
    # the frame shows the position after the double turn's push, hands and all
    assert mark["frame"]["turn"]["bonus"] is True and "hand" in mark["frame"]["players"][1]


def test_ending_a_turn_when_no_bonus_push_reaches_a_token_is_not_marked() -> None:
    # One push moves the pawn or the token by one column at most: never into one column.
    game = _position(WALLED, pawn=cell_of(0, 1), token=cell_of(6, 5), hand=[9], phase="double")
    for push in [a for a in game.legal_actions(0) if a["type"] == "double_turn"][:1]:
        bonus = game.clone()
        bonus.apply(0, push)
        for p in bonus.legal_actions(0):
            after = bonus.clone()
            after.apply(0, p)
            assert {"type": "move", "to": [6, 5]} not in after.legal_actions(0)
    assert unused_double(game, _decision(game, {"type": "end_turn"})) is None


def test_a_double_turn_played_is_not_marked() -> None:
    game = _position(OPEN, pawn=cell_of(0, 1), token=cell_of(5, 5), hand=[9], phase="double")
    assert unused_double(game, _decision(game, {"type": "double_turn", "card": 9})) is None


def test_a_coin_left_with_the_matching_card_in_hand_is_marked() -> None:
    game = _position(OPEN, pawn=cell_of(0, 1), token=cell_of(5, 5), hand=[3, 9], phase="coin")
    assert {"type": "coin"} in game.legal_actions(0)
    mark = unused_coin(_decision(game, {"type": "no_coin"}))
    assert mark == {"kind": "unused_coin", "seq": game.seq + 1, "card": 3, "points": 5}
    assert unused_coin(_decision(game, {"type": "coin"})) is None


def test_no_coin_without_the_matching_card_is_not_marked() -> None:
    # A low card of another value: the coin phase is offered (hands' halves are public),
    # the coin itself is not.
    game = _position(OPEN, pawn=cell_of(0, 1), token=cell_of(5, 5), hand=[2, 9], phase="coin")
    assert {"type": "coin"} not in game.legal_actions(0)
    assert unused_coin(_decision(game, {"type": "no_coin"})) is None


def _beginners(seed: str) -> dict[str, Any]:
    game = Game.new("master", ["Ann", "Bob", "Cy"], seed=seed)
    rng = random.Random(seed)
    while game.to_move is not None:
        seat = game.to_move
        game.apply(seat, choose("master", "easy", game.view(seat), game.legal_actions(seat), rng))
    return game.record()


def _bonus_takes(game: Game, seat: int) -> bool:
    """The engine's word: after a double turn, some push lets `seat` walk onto a
    lowest-value token (from another cell, never the lair)."""
    card = next(a for a in game.legal_actions(seat) if a["type"] == "double_turn")
    bonus = game.clone()
    bonus.apply(seat, card)
    for push in bonus.legal_actions(seat):
        after = bonus.clone()
        after.apply(seat, push)
        view = after.view(seat)
        here = view["players"][seat]["pos"]
        for token in view["tokens"]:
            if token["value"] != view["lowest"] or token["pos"] in (here, view["lair"]):
                continue
            if {"type": "move", "to": token["pos"]} in after.legal_actions(seat):
                return True
    return False


def test_every_choice_of_a_game_is_judged_as_the_engine_would() -> None:
    """Over a whole game of beginners: each `no_coin` with the coin legal, and only
    those, is marked; each `end_turn` whose bonus turn could have taken, and only those."""
    record = _beginners("unused-0")
    analysis = analyse(record)
    marked = {
        (m["kind"], m["seq"]): m
        for t in analysis["turns"]
        for m in t["marks"]
        if m["kind"] in ("unused_coin", "unused_double")
    }
    expected = set()
    game = Game.new("master", record["players"], record["seed"])
    for entry in record["actions"]:
        seat, action = entry["seat"], entry["action"]
        legal = game.legal_actions(seat)
        if action["type"] == "no_coin" and {"type": "coin"} in legal:
            expected.add(("unused_coin", entry["seq"]))
        if action["type"] == "end_turn" and _bonus_takes(game, seat):
            expected.add(("unused_double", entry["seq"]))
        game.apply(seat, action)
    assert {k for k, _ in expected} == {"unused_coin", "unused_double"}  # both happen
    assert set(marked) == expected
    for player in analysis["players"]:
        own = [m for t in analysis["turns"] if t["seat"] == player["seat"] for m in t["marks"]]
        for kind in ("unused_coin", "unused_double"):
            assert player["marks"].get(kind, 0) == sum(1 for m in own if m["kind"] == kind)
