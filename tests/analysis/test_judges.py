"""The judges against positions found by the engine itself.

Each position is found by asking the engine (clone, apply, `legal_actions`), never the
analysis code, whether a goal can be reached: the oracle and the judge share nothing but
the rules.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from app.analysis import analyse
from app.bots import choose
from app.rules import Game
from tests.server.helpers import greedy_record

Action = dict[str, Any]


def _target_cell(game: Game, seat: int) -> list[int] | None:
    """Where the seat's target lies on the board now (None: on the spare, or going home)."""
    view = game.view(seat)
    target = view["players"][seat]["target"]
    if target is None:
        return view["players"][seat]["home"]
    for r, row in enumerate(view["board"]["tiles"]):
        for c, tile in enumerate(row):
            if tile["treasure"] == target:
                return [r, c]
    return None


def _reaching(game: Game, seat: int) -> list[Action]:
    """The seat's pushes after which a move onto its goal is legal (the engine's word)."""
    found = []
    for push in game.legal_actions(seat):
        trial = game.clone()
        trial.apply(seat, push)
        goal = _target_cell(trial, seat)
        if goal is not None and {"type": "move", "to": goal} in trial.legal_actions(seat):
            found.append(push)
    return found


def _stay(game: Game, seat: int) -> Action:
    return {"type": "move", "to": game.view(seat)["players"][seat]["pos"]}


def _record_with(game: Game) -> dict[str, Any]:
    """The record so far: the judges need no finished game, only a record to re-play."""
    return game.record()


def _first_turn_with(seed_prefix: str, want_reach: bool) -> Game:
    for n in range(400):
        game = Game.new("classic", ["Ann", "Bob"], seed=f"{seed_prefix}{n}")
        if bool(_reaching(game, 0)) == want_reach:
            return game
    raise AssertionError("no such position in 400 seeds")


def _turn_marks(record: dict[str, Any], seat: int, index: int = 0) -> list[dict[str, Any]]:
    turns = [t for t in analyse(record)["turns"] if t["seat"] == seat]
    return turns[index]["marks"]


def test_a_turn_that_could_reach_its_target_and_did_not_is_marked_missed() -> None:
    game = _first_turn_with("miss", want_reach=True)
    reaching = _reaching(game, 0)
    other = next(p for p in game.legal_actions(0) if p not in reaching)
    game.apply(0, other)
    game.apply(0, _stay(game, 0))
    marks = [m for m in _turn_marks(_record_with(game), 0) if m["kind"] == "missed"]
    assert len(marks) == 1
    assert marks[0]["best"] in reaching
    path = marks[0]["path"]
    trial = Game.new("classic", ["Ann", "Bob"], seed=game.seed)
    trial.apply(0, marks[0]["best"])
    assert path[0] == trial.view(0)["players"][0]["pos"]
    assert path[-1] == _target_cell(trial, 0)
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in itertools.pairwise(path))


def test_a_turn_that_reached_its_target_is_not_marked() -> None:
    game = _first_turn_with("hit", want_reach=True)
    push = _reaching(game, 0)[0]
    game.apply(0, push)
    game.apply(0, {"type": "move", "to": _target_cell(game, 0)})
    assert not [m for m in _turn_marks(_record_with(game), 0) if m["kind"] == "missed"]


def test_a_turn_that_could_not_reach_is_not_marked_missed() -> None:
    game = _first_turn_with("none", want_reach=False)
    game.apply(0, game.legal_actions(0)[0])
    game.apply(0, _stay(game, 0))
    assert not [m for m in _turn_marks(_record_with(game), 0) if m["kind"] == "missed"]


def test_a_push_that_opens_the_next_players_target_when_another_would_not_is_a_gift() -> None:
    for n in range(400):
        game = Game.new("classic", ["Ann", "Bob"], seed=f"gift{n}")
        if _reaching(game, 0):
            continue  # keep the mover's own goal out of it: any push is as good for them
        gives, keeps = [], []
        for push in game.legal_actions(0):
            trial = game.clone()
            trial.apply(0, push)
            trial.apply(0, _stay(trial, 0))
            (gives if _reaching(trial, 1) else keeps).append(push)
        if gives and keeps:
            break
    else:
        raise AssertionError("no gift position in 400 seeds")
    given = game.clone()
    given.apply(0, gives[0])
    given.apply(0, _stay(given, 0))
    given.apply(1, given.legal_actions(1)[0])
    gifts = [m for m in _turn_marks(_record_with(given), 0) if m["kind"] == "gift"]
    assert len(gifts) == 1 and gifts[0]["to"] == 1 and gifts[0]["instead"] in keeps
    assert gifts[0]["goal"] == "target"  # Bob still hunts: "home" is said of a way home
    kept = game.clone()
    kept.apply(0, keeps[0])
    kept.apply(0, _stay(kept, 0))
    kept.apply(1, kept.legal_actions(1)[0])
    assert not [m for m in _turn_marks(_record_with(kept), 0) if m["kind"] == "gift"]


def _played(variant: str, players: int, level: str, seed: str) -> dict[str, Any]:
    game = Game.new(variant, [f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    while game.to_move is not None:
        seat = game.to_move
        game.apply(seat, choose(variant, level, game.view(seat), game.legal_actions(seat), rng))  # type: ignore[arg-type]
    return game.record()


def test_cards_counts_the_biggest_take_against_the_take_made() -> None:
    record = _played("cards", 3, "easy", "cards-judge")
    analysis = analyse(record)
    game = Game.new("cards", record["players"], record["seed"])
    turns = {t["seq"]: t for t in analysis["turns"]}
    assert turns and all(t["could"] >= t["got"] for t in turns.values())
    marked = 0
    for entry in record["actions"]:
        turn = turns.get(entry["seq"])
        if turn is not None:
            # the oracle: every placement tried on the engine, its largest take counted
            best = 0
            for place in game.legal_actions(entry["seat"]):
                if place["type"] != "place":
                    continue
                trial = game.clone()
                trial.apply(entry["seat"], place)
                if (
                    trial.to_move == entry["seat"]
                    and trial.legal_actions(entry["seat"])[0]["type"] == "take"
                ):
                    best = max(best, len(trial.legal_actions(entry["seat"])[0]["cards"]))
            assert turn["could"] == best
            assert bool(turn["marks"]) == (turn["got"] < best)
            for mark in turn["marks"]:  # the page names the better placement's card
                hand = game.view(entry["seat"])["players"][entry["seat"]]["hand"]
                assert mark["motif"] == hand[mark["best"]["card"]]["motif"]
                marked += 1
        game.apply(entry["seat"], entry["action"])
    assert marked > 0, "the easy player missed no take: no mark was checked"


def test_hard_players_miss_nothing_and_easy_ones_do() -> None:
    """The marks agree with the computer levels: the hard classic player takes every
    reachable target; a beginner does not."""
    hard = analyse(_played("classic", 2, "hard", "levels"))
    easy = analyse(_played("classic", 2, "easy", "levels"))
    assert all(p["missed"] == 0 and p["accuracy"] == 1.0 for p in hard["players"])
    assert sum(p["missed"] for p in easy["players"]) > 0


def test_master_marks_a_reachable_lowest_token_left_and_the_summary_adds_up() -> None:
    analysis = analyse(_played("master", 2, "easy", "master-judge"))
    for player in analysis["players"]:
        own = [t for t in analysis["turns"] if t["seat"] == player["seat"]]
        assert player["turns"] == len(own)
        missed = [t for t in own if any(m["kind"] == "missed" for m in t["marks"])]
        assert player["missed"] == len(missed)
    marks = [m for t in analysis["turns"] for m in t["marks"] if m["kind"] == "missed"]
    assert marks and all(m["goal"] == "token" and m["path"] for m in marks)


def test_team_marks_have_a_walk_to_a_wanted_treasure() -> None:
    record = _played("team", 2, "easy", "team-judge")
    analysis = analyse(record)
    assert [p["turns"] for p in analysis["players"]] == [
        sum(1 for t in analysis["turns"] if t["seat"] == s) for s in range(2)
    ]
    for turn in analysis["turns"]:
        for mark in turn["marks"]:
            assert mark["kind"] == "missed" and len(mark["path"]) >= 2


def _duels(game: Game, seat: int, move: Action, rolls: int = 60) -> int:
    """How many of `rolls` random dragon dice make `seat` a duellist after `move` (the
    engine's own die and threat, not the judge's)."""
    hits = 0
    for k in range(rolls):
        state, rng = game.state.clone(), random.Random(k)
        events = game.engine.apply(state, seat, move, rng)
        if not any(e["type"] == "threat" for e in events):  # a take asks about a coin first
            events = game.engine.apply(state, seat, {"type": "no_coin"}, rng)
        threat = next(e for e in events if e["type"] == "threat")
        hits += seat in threat["duellists"]
    return hits


def test_master_marks_a_risked_duel_when_a_safe_move_took_the_same() -> None:
    for n in range(60):
        record = _played("master", 3, "easy", f"risk{n}")
        risky = [
            (t, m) for t in analyse(record)["turns"] for m in t["marks"] if m["kind"] == "risk"
        ]
        if risky:
            break
    else:
        raise AssertionError("no risked duel in 60 games of beginners")
    for turn, mark in risky[:3]:
        game = Game.from_record(record, upto=turn["seq"])  # the push made, the move to come
        seat = turn["seat"]
        chosen = record["actions"][turn["seq"]]["action"]
        assert chosen["type"] == "move"
        assert _duels(game, seat, chosen) > 0
        assert _duels(game, seat, {"type": "move", "to": mark["safe"]}) == 0
        assert 0 < mark["chance"] <= 1


def test_turns_the_server_played_for_a_person_are_not_theirs() -> None:
    """A turn begun by `computer:left` (or away, timeout) counts as `played_for`; a
    computer seat's own turns (`computer:seat`) are its player's like any."""
    record = greedy_record(players=2, seed="played-for", events=False)
    plain = analyse(record)
    starts = {seat: [t["seq"] for t in plain["turns"] if t["seat"] == seat] for seat in (0, 1)}
    handed = starts[0][len(starts[0]) // 2 :]  # Ann left halfway
    bys = {seq: "computer:left" for seq in handed} | {seq: "computer:seat" for seq in starts[1]}
    judged = analyse(record, bys)
    assert judged["turns"] == plain["turns"]  # every turn is still marked
    ann, bob = judged["players"]
    assert ann["played_for"] == len(handed) > 0
    assert ann["turns"] == len(starts[0]) - len(handed)
    mine = [t for t in plain["turns"] if t["seat"] == 0 and t["seq"] not in handed]
    assert ann["missed"] == sum(any(m["kind"] == "missed" for m in t["marks"]) for t in mine)
    assert bob == plain["players"][1]  # a computer seat is judged on its own turns
