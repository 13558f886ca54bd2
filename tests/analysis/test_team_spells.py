"""Team: every combination of the spells a player held is searched for a treasure.

Positions are dealt games whose treasure boards (and, for the secret case, one tile's
side) are set by hand. The oracle is the engine: the line the analysis gives is played
through `apply` and must collect; "nothing could" is checked by playing every line the
engine allows.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.analysis import analyse
from app.analysis.spells import Search
from app.analysis.team import collectable
from app.bots import choose
from app.rules import Game
from app.rules.board import pos_of, rotate

Action = dict[str, Any]


def _dealt(spell: str, seed: str) -> Game:
    """Seat 0 of a standard two-player game holding Push and `spell`, in its first turn
    (the first Daedalus card turned)."""
    options = {"mode": "standard", "spell_red": spell, "rules_version": 2}
    game = Game.new("team", ["Ann", "Bob"], seed=seed, options=options)
    game.apply(0, {"type": "daedalus"})
    assert game.view(0)["players"][0]["spells"] == ["push", spell]
    return game


def _wanting(game: Game, treasure: str, rubble: int = 0) -> Game:
    """The same position, seat 0's treasure board set by hand to `treasure` alone, and
    `rubble` movable tiles (not the treasure's, none under a pawn) turned face down."""
    twin = game.clone()
    state = twin.state
    state.players[0].board = [treasure]
    board = state.board
    pawns = {p.pos for p in state.players}
    free = [
        cell
        for cell in range(49)
        if not board.info(cell).fixed and board.treasure_at(cell) != treasure and cell not in pawns
    ]
    for cell in random.Random(treasure).sample(free, rubble):
        state.down.add(board.tiles[cell])
    return twin


def _search(game: Game) -> Any:
    view = game.view(0)
    return Search(view, collectable(view)).best()


def _collects(game: Game, actions: list[Action]) -> bool:
    trial = game.clone()
    events = [e for action in actions for e in trial.apply(0, action)]
    return any(e["type"] == "collected" for e in events)


def _face_up_treasures(game: Game) -> Iterator[str]:
    for row in game.view(0)["board"]["tiles"]:
        for tile in row:
            if not tile.get("face_down") and tile.get("treasure"):
                yield tile["treasure"]


def _stop_collects(game: Game, spelled: bool = True) -> bool:
    """Whether some legal move (with a move spell too, if `spelled`) now ends on a face-up
    tile showing a wanted treasure (the engine's legal list and its view; a face-down
    tile's face is nobody's to count on)."""
    view = game.view(0)
    wanted = collectable(view)
    for action in game.legal_actions(0):
        if action["type"] != "move" or (action["spell"] and not spelled):
            continue
        r, c = action["to"]
        tile = view["board"]["tiles"][r][c]
        if not tile.get("face_down") and tile.get("treasure") in wanted:
            return True
    return False


def _board_spells(game: Game) -> list[Action]:
    return [a for a in game.legal_actions(0) if a["type"] in ("push", "rotate", "switch")]


def _push_alone_collects(game: Game) -> bool:
    """Whether a plain move, or the push spell then a plain move, collects."""
    if _stop_collects(game, spelled=False):
        return True
    for push in (a for a in _board_spells(game) if a["type"] == "push"):
        after = game.clone()
        after.apply(0, push)
        if _stop_collects(after, spelled=False):
            return True
    return False


def _uses(line: Any, spell: str) -> bool:
    return line.modifier == spell or any(s["type"] == spell for s in line.spells)


@pytest.mark.parametrize("spell", ["rotate", "switch", "traverse", "teleport", "escape"])
def test_a_treasure_only_another_spell_reaches_is_found_and_collects(spell: str) -> None:
    """Push alone (or a plain move) cannot collect it; the line found, with `spell`, does."""
    for n in range(40):
        game = _dealt(spell, f"{spell}{n}")
        for treasure in sorted(set(_face_up_treasures(game))):
            position = _wanting(game, treasure, rubble=12 if spell == "traverse" else 0)
            line = _search(position)
            if line is None or not _uses(line, spell) or _push_alone_collects(position):
                continue
            move = line.to_mark()["move"]
            assert _collects(position, [*line.spells, move])
            mark = line.to_mark()
            assert mark["treasure"] == treasure and mark["to"] == move["to"]
            assert mark["move"]["spell"] == (spell in ("traverse", "teleport", "escape"))
            return
    raise AssertionError(f"no position in 40 deals where only {spell} collects")


def _every_line_fails(game: Game) -> bool:
    """Every line the engine allows with at most two board spells (in either order), then
    every move: none stops on a face-up wanted treasure."""
    if _stop_collects(game):
        return False
    for first in _board_spells(game):
        one = game.clone()
        one.apply(0, first)
        if _stop_collects(one):
            return False
        for second in _board_spells(one):
            two = one.clone()
            two.apply(0, second)
            if _stop_collects(two):
                return False
    return True


def test_a_treasure_no_line_reaches_is_not_marked() -> None:
    for n in range(40):
        game = _dealt("rotate", f"none{n}")
        for treasure in sorted(set(_face_up_treasures(game))):
            position = _wanting(game, treasure)
            if _search(position) is None:
                assert _every_line_fails(position)
                return
    raise AssertionError("no out-of-reach treasure in 40 deals")


def test_a_treasure_on_a_face_down_tile_counts_for_nothing() -> None:
    """Reachable by a plain move, but face down: the player cannot know it is there."""
    for n in range(40):
        game = _dealt("rotate", f"down{n}")
        for treasure in sorted(set(_face_up_treasures(game))):
            position = _wanting(game, treasure)
            line = _search(position)
            if line is None or line.cost != 0 or line.start == line.to:
                continue
            assert _collects(position, [line.to_mark()["move"]])
            state = position.state
            tile = state.board.tiles[line.to]
            state.down.add(tile)  # the same tile, turned face down by hand
            assert _search(position) is None
            return
    raise AssertionError("no plainly reachable treasure in 40 deals")


def test_a_plain_walk_is_preferred_to_spells() -> None:
    for n in range(40):
        game = _dealt("switch", f"plain{n}")
        for treasure in sorted(set(_face_up_treasures(game))):
            position = _wanting(game, treasure)
            if not _stop_collects(position):
                continue
            line = _search(position)
            assert line is not None and line.spells == [] and line.modifier is None
            walk = line.to_mark()["path"]
            assert walk[0] == position.view(0)["players"][0]["pos"] and walk[-1] == pos_of(line.to)
            return
    raise AssertionError("no plainly reachable treasure in 40 deals")


def _team_record(seed: str, level: str) -> dict[str, Any]:
    game = Game.new(
        "team", ["Ann", "Bob", "Cy"], seed=seed, options={"mode": "standard", "rules_version": 2}
    )
    rng = random.Random(seed)
    while game.to_move is not None:
        seat = game.to_move
        game.apply(seat, choose("team", level, game.view(seat), game.legal_actions(seat), rng))
    return game.record()


def test_every_team_mark_of_a_game_collects_when_played() -> None:
    record = _team_record("team-spells", "easy")
    analysis = analyse(record)
    turns = analysis["turns"]
    assert turns[0]["seq"] == 2  # judged once the first Daedalus card is turned
    assert sum(p["turns"] for p in analysis["players"]) == len(turns)
    marks = [(t, m) for t in turns for m in t["marks"]]
    beyond_push = [
        m for _, m in marks if m["modifier"] or any(s["type"] != "push" for s in m["spells"])
    ]
    assert beyond_push, "no mark needed a spell other than the push: pick another seed"
    for turn, mark in marks:
        assert mark["kind"] == "missed" and mark["goal"] == "treasure"
        game = Game.from_record(record, upto=turn["seq"] - 1)
        trial = game.clone()
        events = [e for a in [*mark["spells"], mark["move"]] for e in trial.apply(turn["seat"], a)]
        collected = [e for e in events if e["type"] == "collected"]
        assert collected and collected[0]["treasure"] == mark["treasure"]
        if mark["spells"]:
            assert mark["frame"]["board"]  # the position after the spells, for the board
        if mark["modifier"] is None:
            assert mark["path"][-1] == mark["to"]


def test_the_search_pushes_as_the_engine_allows_at_every_turn_start() -> None:
    """The push spell's choices the search tries, read from the view alone, are the
    engine's legal pushes (one per distinct look of the spare), face-down tiles and
    Daedalus's push included."""
    record = _team_record("team-pushes", "easy")
    game = Game.new("team", record["players"], record["seed"], record["options"])
    checked = 0
    for entry in record["actions"]:
        seat = entry["seat"]
        view = game.view(seat)
        turn = view["turn"]
        if turn and turn["phase"] == "play" and not turn["used"] and not turn["moves"]:
            search = Search(view, collectable(view))
            board = search.start.board
            tried = {(p["side"], p["index"], p["rotation"]) for p in search.pushes(search.start)}
            legal = [a for a in game.legal_actions(seat) if a["type"] == "push"]
            looks: dict[tuple[str, int, int], tuple[str, int, int]] = {}
            for push in sorted(legal, key=lambda p: p["rotation"]):
                look = (push["side"], push["index"], rotate(board.spare_open, push["rotation"]))
                looks.setdefault(look, (push["side"], push["index"], push["rotation"]))
            assert tried == set(looks.values())
            checked += 1
        game.apply(seat, entry["action"])
    assert checked >= 10


def _fewest_spells(game: Game, seat: int) -> int | None:
    """The oracle: the fewest board spells (0 to 2, in any order the engine accepts)
    after which a plain move collects, every line played through the engine."""

    def collects_now(position: Game) -> bool:
        for move in position.legal_actions(seat):
            if move["type"] == "move" and not move["spell"]:
                trial = position.clone()
                if any(e["type"] == "collected" for e in trial.apply(seat, move)):
                    return True
        return False

    def spells(position: Game) -> list[Action]:
        return [a for a in position.legal_actions(seat) if a["type"] in ("push", "switch")]

    if collects_now(game):
        return 0
    fewest = None
    for first in spells(game):
        one = game.clone()
        one.apply(seat, first)
        if collects_now(one):
            return 1
        for second in spells(one) if fewest is None else []:
            two = one.clone()
            two.apply(seat, second)
            if collects_now(two):
                fewest = 2
    return fewest


def test_a_switch_before_the_push_is_judged_where_the_push_leaves_its_tile() -> None:
    """Switch c4 and b4, then push column b down: the switched tile, carried to b5, opens
    the way to the chest. "Near the pawn" was read before the push, where b4 was not, and
    the analysis said nothing could collect (a game of the replay-analysis audit)."""
    options = {"mode": "standard", "spell_red": "switch", "spell_yellow": "rotate"}
    game = Game.new("team", ["P0", "P1"], seed="h4-team-1-easy,easy", options=options)
    view = game.view(0)
    line = Search(view, collectable(view)).best()
    assert line is not None and line.cost == 2 == _fewest_spells(game, 0)
    assert _collects(game, [*line.spells, line.to_mark()["move"]])


def test_the_search_finds_as_few_spells_as_the_engine_at_turn_starts() -> None:
    """Push and Switch held, whole games of random play: at each turn's start the search
    needs as few board spells as the engine's every line does (none when none collects)."""
    checked = collecting = 0
    for n in range(3):
        options = {"mode": "standard", "spell_red": "switch"}
        game = Game.new("team", ["Ann", "Bob"], seed=f"fewest{n}", options=options)
        rng = random.Random(n)
        while game.to_move is not None and checked < 7 * (n + 1):
            seat = game.to_move
            view = game.view(seat)
            turn = view["turn"]
            held = view["players"][seat]["spells"]
            starting = turn and turn["phase"] == "play" and not turn["used"] and not turn["moves"]
            if starting and sorted(held) == ["push", "switch"]:
                line = Search(view, collectable(view)).best()
                fewest = _fewest_spells(game, seat)
                assert (line.cost if line else None) == fewest, (n, turn, line)
                checked += 1
                collecting += fewest is not None
            game.apply(seat, choose("team", "easy", view, game.legal_actions(seat), rng))
    assert checked == 21 and collecting >= 5, (checked, collecting)
