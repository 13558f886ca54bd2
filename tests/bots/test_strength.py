"""What each level is for: the hard players take what is there to take."""

from __future__ import annotations

import random

from app.bots import choose
from app.rules import Game
from app.rules.board import cell_of
from tests.bots.helpers import V2, positions


def _target_cell(game: Game, seat: int) -> int | None:
    """Where the seat's target is (engine side: the test knows, the player must find it)."""
    target = game.view(seat)["players"][seat].get("target")
    board = game.state.board
    for cell in range(49):
        if board.treasure_at(cell) == target:
            return cell
    return None


def _pushes_that_reach(game: Game, seat: int) -> list[dict]:
    hits = []
    for push in game.legal_actions(seat):
        trial = game.clone()
        trial.apply(seat, push)
        goal = _target_cell(trial, seat)
        moves = [cell_of(*m["to"]) for m in trial.legal_actions(seat) if m["type"] == "move"]
        if goal is not None and goal in moves:
            hits.append(push)
    return hits


def test_hard_classic_takes_a_reachable_target() -> None:
    """Whenever some push lets the player walk onto its target, the hard player finds the
    card this turn (push, then move), in every such position of several games."""
    found = 0
    for seed in ("reach-1", "reach-2", "reach-3"):
        for k, game in enumerate(positions("classic", V2, seed, players=2, steps=150)):
            seat = game.to_move
            if game.state.turn.phase != "push" or not _pushes_that_reach(game, seat):
                continue
            trial = game.clone()
            before = len(trial.view(seat)["players"][seat]["found"])
            for _ in range(2):  # push, then move
                view = trial.view(seat)
                action = choose(
                    "classic", "hard", view, trial.legal_actions(seat), random.Random(k)
                )
                trial.apply(seat, action)
            assert len(trial.view(seat)["players"][seat]["found"]) == before + 1, (seed, k)
            found += 1
    assert found >= 5


def test_medium_classic_also_takes_a_reachable_target_but_easy_sometimes_does_not() -> None:
    outcomes = {"medium": [], "easy": []}
    for k, game in enumerate(positions("classic", V2, "reach-levels", players=2, steps=300)):
        seat = game.to_move
        if game.state.turn.phase != "push" or not _pushes_that_reach(game, seat):
            continue
        for level, results in outcomes.items():
            trial = game.clone()
            before = len(trial.view(seat)["players"][seat]["found"])
            for _ in range(2):
                legal = trial.legal_actions(seat)
                trial.apply(
                    seat, choose("classic", level, trial.view(seat), legal, random.Random(k))
                )
            results.append(len(trial.view(seat)["players"][seat]["found"]) > before)
    assert len(outcomes["medium"]) >= 5
    assert all(outcomes["medium"])
    assert not all(outcomes["easy"])


def test_hard_cards_takes_the_biggest_take() -> None:
    checked = 0
    for seed in range(12):
        for k, game in enumerate(positions("cards", V2, f"take-{seed}", players=3)):
            seat = game.to_move
            legal = game.legal_actions(seat)
            if legal[0]["type"] != "take":
                continue
            action = choose("cards", "hard", game.view(seat), legal, random.Random(k))
            assert len(action["cards"]) == max(len(a["cards"]) for a in legal)
            checked += 1
    assert checked >= 5


def test_hard_cards_places_where_it_takes_the_most_when_that_is_not_risky() -> None:
    """With cards to take on offer, the hard player's placement takes at least one."""
    offered = taken = 0
    for seed in range(12):
        for k, game in enumerate(positions("cards", V2, f"place-{seed}", players=2)):
            seat = game.to_move
            legal = game.legal_actions(seat)
            if legal[0]["type"] != "place":
                continue
            best = 0
            for place in legal:
                trial = game.clone()
                trial.apply(seat, place)
                after = trial.legal_actions(seat) if trial.to_move == seat else []
                best = max([best, *(len(a.get("cards", [])) for a in after)])
            if best < 2:
                continue
            offered += 1
            trial = game.clone()
            trial.apply(seat, choose("cards", "hard", game.view(seat), legal, random.Random(k)))
            after = trial.legal_actions(seat) if trial.to_move == seat else []
            taken += any(a.get("cards") for a in after)
    assert offered >= 3
    assert taken == offered


def test_hard_master_walks_onto_a_token_it_can_take() -> None:
    checked = 0
    for seed in range(6):
        for k, game in enumerate(positions("master", V2, f"token-{seed}", players=2, steps=200)):
            seat = game.to_move
            view = game.view(seat)
            if view["turn"]["phase"] != "move" or view["stage"] == "final":
                continue
            here = view["players"][seat]["pos"]
            lowest = [t["pos"] for t in view["tokens"] if t["value"] == view["lowest"]]
            legal = game.legal_actions(seat)
            takes = [
                m for m in legal if m["to"] in lowest and m["to"] != here and m["to"] != [3, 3]
            ]
            if not takes:
                continue
            action = choose("master", "hard", view, legal, random.Random(k))
            assert action in takes
            checked += 1
    assert checked >= 3
