"""An audit of the engines against `shared/rules/*.md`: the corners the other rules tests
left unpinned, each played through the public engine API under the current rules
(`rules_version` 2), and three rules checked against searches written here from the
reference's words alone (Team's moves with their modifier spells, Master's threat and
duellists, classic's `wall` event), so that the engines' bitboard shortcuts are held to
the text rather than to themselves.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator

import pytest

from app.rules import Game, IllegalAction
from app.rules.board import FIXED_CELLS, E, N, S, W, cell_name, cell_of, parse_cell
from app.rules.classic import parse_action as classic_action
from app.rules.master import FRONT, LAIR
from app.rules.master import Turn as MasterTurn
from app.rules.team import HOMES as TEAM_HOMES
from app.rules.team import Turn as TeamTurn
from tests.rules import team_helpers
from tests.rules.helpers import arm_event, place, put_tile, set_pile, tile_with
from tests.rules.master_helpers import Dice, act, c, carve, final_position, kinds, position

JSON = dict
V2 = {"rules_version": 2}
# (direction bit, row step, column step, the neighbour's facing bit), N E S W
STEPS = ((N, -1, 0, S), (E, 0, 1, W), (S, 1, 0, N), (W, 0, -1, E))


def neighbours(cell: int) -> Iterator[tuple[int, int | None, int]]:
    """(direction bit, the cell that way or None off the board, the facing bit back)."""
    row, col = divmod(cell, 7)
    for bit, dr, dc, back in STEPS:
        r, q = row + dr, col + dc
        yield bit, (r * 7 + q if 0 <= r < 7 and 0 <= q < 7 else None), back


def move_cells(game: Game, seat: int, spell: bool | None = None) -> set[str]:
    """The cells of `seat`'s legal moves (Team: only those with `spell` when given)."""
    return {
        cell_name(cell_of(*a["to"]))
        for a in game.legal_actions(seat)
        if a["type"] == "move" and (spell is None or a["spell"] is spell)
    }


# --- classic -------------------------------------------------------------------------------


def classic(players: int = 2, seed: str = "audit", **options: bool) -> Game:
    return Game.new("classic", [f"P{i}" for i in range(players)], seed, {**options, **V2})


def play(game: Game, *notations: str) -> list[JSON]:
    events: list[JSON] = []
    for text in notations:
        events += game.apply(game.to_move, classic_action(text).to_dict())
    return events


def test_classic_v2_the_bonus_turn_triggers_and_reveals_no_event() -> None:
    """classic.md, double_turn: "No other event triggers during these turns" (version 2,
    where the bonus turn may be declined; version 1 is pinned in test_classic_events)."""
    game = classic(3, events=True)
    arm_event(game, "double_turn", "Nb")
    play(game, "Nb", "a1")
    assert game.view(None)["turn"]["bonus"] is True
    hidden = arm_event(game, "swap", "Nd")
    events = play(game, "Nd")
    assert [e["type"] for e in events] == ["pushed"]
    assert hidden not in game.state.revealed
    assert game.view(0)["turn"]["event"] is None
    assert not any(a["type"] == "swap" for a in game.legal_actions(0))


def test_classic_v2_a_declined_bonus_turn_keeps_the_no_reverse_ban() -> None:
    """common.md: the no-reverse ban "lasts one push"; declining the bonus turn is no push,
    so the next player may still not undo the push before it."""
    game = classic(3, events=True)
    arm_event(game, "double_turn", "Nb")
    play(game, "Nb", "a1", "decline")
    assert game.to_move == 1
    assert game.view(None)["board"]["forbidden"] == {"side": "S", "index": 1}
    with pytest.raises(IllegalAction, match="no-reverse: Sb undoes Nb"):
        play(game, "Sb")
    play(game, "Sd")  # any other slot
    assert game.view(None)["board"]["forbidden"] == {"side": "N", "index": 3}


def test_classic_swapping_onto_the_target_then_staying_finds_it() -> None:
    """classic.md decision: ending the move on the target counts however the pawn got
    there; the swap itself finds nothing, the move (staying) does."""
    game = classic(2, events=True)
    arm_event(game, "swap", "Sf")
    set_pile(game, 0, ["crown", "book"])
    place(game, 1, "c3")  # the crown is printed on c3
    play(game, "Sf")
    events = play(game, "swap:1")
    assert [e["type"] for e in events] == ["swapped"]
    assert game.state.players[0].found == []
    events = play(game, "c3")
    assert {"type": "found", "seat": 0, "treasure": "crown"} in events
    assert game.state.players[0].pile == ["book"]


def test_classic_crossing_a_wall_onto_the_target_finds_it() -> None:
    """classic.md: the `wall` event crosses one wall during this turn's move, and the
    move's end finds the target as any move does."""
    game = classic(2, events=True)
    arm_event(game, "wall", "Sf")  # column f: a1, b1 and a2 stay where they are
    board = game.state.board
    put_tile(board, tile_with(game, "bat"), parse_cell("b1"))
    for cell in range(49):
        if cell not in FIXED_CELLS:
            board.opens[cell] = 0  # every movable tile walled in (a test position)
    board.refresh()
    set_pile(game, 0, ["bat", "book"])
    play(game, "Sf")
    assert move_cells(game, 0) == {"a1", "b1", "a2"}
    events = play(game, "b1")
    assert events[0]["wall"] is True
    assert {"type": "found", "seat": 0, "treasure": "bat"} in events


def test_classic_peek_the_second_card_and_find_it_the_same_turn() -> None:
    """classic.md, peek: choose which of the top two to pursue first; the chosen one is
    the target at once, so this turn's move can find it."""
    game = classic(2, events=True)
    arm_event(game, "peek", "Sf")
    set_pile(game, 0, ["book", "crown", "keys"])
    place(game, 0, "c3")
    play(game, "Sf")
    assert game.view(0)["players"][0]["peek"] == ["book", "crown"]
    assert "peek" not in game.view(1)["players"][0]
    play(game, "pick:crown")
    events = play(game, "c3")
    assert {"type": "found", "seat": 0, "treasure": "crown"} in events
    assert game.state.players[0].pile == ["book", "keys"]


def test_classic_v2_the_bonus_turn_can_find_the_last_card_and_win_younger_children() -> None:
    """classic.md: events combine with the younger-children variant; the game ends as soon
    as a player finds their last card, in a bonus turn too; one card a turn."""
    game = classic(2, events=True, return_home=False)
    arm_event(game, "double_turn", "Sf")
    set_pile(game, 0, ["crown", "chest"])
    place(game, 0, "c3")
    play(game, "Sf")
    events = play(game, "c3")
    assert [e["treasure"] for e in events if e["type"] == "found"] == ["crown"]
    assert events[-1] == {"type": "turn", "seat": 0, "bonus": True}
    play(game, "Sb")
    place(game, 0, "c5")  # the chest is printed on c5
    events = play(game, "c5")
    assert events[-1] == {"type": "won", "seat": 0, "reason": "all_found"}
    assert game.result == {"winners": [0], "reason": "all_found"}
    assert game.to_move is None


def wall_search(opens: list[int], start: int) -> set[int]:
    """classic.md, wall: walk; at most once, one step between two adjacent cells that are
    not connected; walk on."""
    seen = {(start, False)}
    queue = deque(seen)
    while queue:
        cell, crossed = queue.popleft()
        for bit, other, back in neighbours(cell):
            if other is None:
                continue
            joined = opens[cell] & bit and opens[other] & back
            state = (other, crossed) if joined else (other, True) if not crossed else None
            if state is not None and state not in seen:
                seen.add(state)
                queue.append(state)
    return {cell for cell, _ in seen}


@pytest.mark.parametrize("seed", [f"wall-{k}" for k in range(40)])
def test_classic_wall_moves_match_a_search_written_from_the_rule(seed: str) -> None:
    game = classic(2, seed=seed, events=True)
    arm_event(game, "wall", "Sf")
    play(game, "Sf")
    start = game.state.players[0].pos
    expected = {cell_name(x) for x in wall_search(game.state.board.opens, start)}
    assert move_cells(game, 0) == expected


# --- master --------------------------------------------------------------------------------


def test_master_an_adventurer_under_the_lair_is_never_threatened() -> None:
    """master.md: the tile under the lair is part of no path, so an adventurer carried
    into it is in no threatened system (guardian face, or four arrows: a full turn)."""
    for face in (4, 3):  # white guardian; four arrows
        game = position(3, p0="a1", p1="d4", white="d3")
        st = game.state
        st.facing = "N"  # front d3
        carve(st, "a1", "b1")
        carve(st, "d3", "d4", "d5")  # openings toward the lair do not make it a path
        st.tokens = [(c("b1"), 1), (c("g7"), 2)]
        st.players[0].hand = []
        st.players[1].treasures = [5]
        st.players[2].pos, st.players[2].treasures = c("d5"), [6]
        events = act(game, 0, "b1", Dice(face))
        threat = next(e for e in events if e["type"] == "threat")
        assert threat["nearest"] == [] and threat["duellists"] == []
        assert [3, 3] not in threat["cells"] and [4, 3] not in threat["cells"]
        assert st.facing == "N"  # the guardian does not turn it; four arrows go all round
        assert "duel_roll" not in kinds(events)


def test_master_four_arrows_bring_the_dragon_back_and_it_threatens_from_its_head() -> None:
    game = position(2, p0="a1", p1="e4")
    st = game.state
    st.facing = "E"  # front e4
    carve(st, "a1", "b1")
    st.tokens = [(c("b1"), 1), (c("g7"), 2)]
    st.players[0].hand = st.players[1].hand = []
    st.players[1].treasures = [3]
    events = act(game, 0, "b1", Dice(3, 2))
    assert {"type": "dragon_die", "seat": 0, "face": "4", "facing": "E"} in events
    threat = next(e for e in events if e["type"] == "threat")
    assert threat["source"] == "dragon" and threat["duellists"] == [1]
    assert {"type": "lost", "seat": 1, "value": 3, "reason": "duel"} in events


def test_master_a_7_to_12_card_buys_a_coin_for_a_7_to_12_token_once() -> None:
    """master.md: a card is used once, for one purpose; a coin only for the matching
    treasure, which in phase two is a 7-12 card (otherwise a double-turn card)."""
    game = position(2, p0="a1")
    st = game.state
    st.second_phase, st.reserve = True, []
    carve(st, "a1", "b1")
    st.tokens = [(c("b1"), 7), (c("g7"), 8)]
    st.players[0].hand = [7, 9]
    act(game, 0, "b1")
    assert game.legal_actions(0) == [{"type": "coin"}, {"type": "no_coin"}]
    events = act(game, 0, "coin", Dice(0))
    assert events[0] == {"type": "coin", "seat": 0, "card": 7}
    assert "dragon_die" in kinds(events)
    assert st.players[0].coins == 1 and st.players[0].hand == [9]
    assert game.legal_actions(0) == [{"type": "double_turn", "card": 9}, {"type": "end_turn"}]
    with pytest.raises(IllegalAction, match="card: you hold no 7 card"):
        act(game, 0, "double_turn:7")


def test_master_the_final_duel_can_open_in_the_turn_the_last_token_goes() -> None:
    """master.md: the final duel opens when no token is left after phase two; the
    decision offers the challenge at the end of the move step, after the dragon die,
    wherever that leaves the dragon's head."""
    game = position(2, p0="d2")
    st = game.state
    st.second_phase, st.reserve = True, []
    st.facing = "W"  # front c4; one arrow turns it N, front d3
    carve(st, "d2", "d3")
    st.tokens = [(c("d3"), 12)]
    st.players[0].hand = []
    events = act(game, 0, "d3", Dice(0, 5))  # one arrow; the duel roll 5 is won
    assert {"type": "took", "seat": 0, "value": 12, "at": [2, 3]} in events
    assert st.front == c("d3") and st.final_open
    assert {"type": "duel_won", "seat": 0} in events  # threatened at distance 1 first
    assert st.turn.phase == "challenge"
    assert game.legal_actions(0) == [{"type": "challenge"}, {"type": "decline"}]


def test_master_a_lost_final_duel_in_a_bonus_turn_passes_on_and_costs_nothing_unheld() -> None:
    """master.md: lost, the player loses their lowest treasure (none held: nothing) and
    the next player plays, a bonus turn included."""
    game = final_position()
    st = game.state
    st.turn = MasterTurn(0, phase="move", bonus=True)
    st.players[0].treasures = []
    act(game, 0, "d3")
    events = act(game, 0, "challenge", Dice(1, 1, 1))
    final = next(e for e in events if e["type"] == "final_duel")
    assert final == {
        "type": "final_duel", "seat": 0, "rolls": [1, 1, 1], "total": 3, "won": False,
    }  # fmt: skip
    assert "lost" not in kinds(events)
    assert st.turn.seat == 1 and st.turn.phase == "push" and not st.turn.bonus


def test_master_the_dragon_taker_may_still_lose_on_points() -> None:
    """master.md: winning the final duel ends the game; the most points win."""
    game = final_position()
    st = game.state
    st.players[1].treasures = [12, 11, 10]  # 33 against 2 + 9 + 15 = 26
    act(game, 0, "d3")
    act(game, 0, "challenge", Dice(6, 6, 6))
    assert st.players[0].dragon
    assert game.result == {"winners": [1], "reason": "dragon", "scores": [26, 33]}


def threat_search(game: Game, face: str, current: int) -> tuple[list[int], list[int]]:
    """master.md 3.1-3.2 from the words: the threat's distances along paths that avoid the
    lair (a guardian's tile is 0, the cell in front of the dragon's head 1); the nearest
    adventurers in seat order from the current player; those with a treasure duel."""
    st = game.state
    opens = st.board.opens
    if face in ("white", "black"):
        origin, base = st.guardians[face], 0
    else:
        origin, base = st.front, 1
    dist: dict[int, int] = {} if origin == LAIR else {origin: base}
    queue = deque(dist)
    while queue:
        cell = queue.popleft()
        for bit, other, back in neighbours(cell):
            if other is None or other == LAIR or other in dist:
                continue
            if opens[cell] & bit and opens[other] & back:
                dist[other] = dist[cell] + 1
                queue.append(other)
    count = len(st.players)
    order = [(current + k) % count for k in range(count)]
    at = {s: dist[st.players[s].pos] for s in order if st.players[s].pos in dist}
    nearest = [s for s in order if s in at and at[s] == min(at.values())]
    return nearest, [s for s in nearest if st.players[s].treasures]


@pytest.mark.parametrize("k", range(60))
def test_master_threat_and_duellists_match_a_search_written_from_the_rule(k: int) -> None:
    """On real dealt mazes, pieces scattered: the seat that walks onto the lowest token
    rolls the dragon die; the threat and the duellists are the reference's."""
    rnd = random.Random(k)
    players = 2 + k % 3
    game = Game.new("master", [f"P{i}" for i in range(players)], f"threat-{k}", V2)
    st = game.state
    current = rnd.randrange(players)
    few = rnd.sample(range(49), 5)  # few cells, so that equal distances are common
    for player in st.players:
        player.pos = rnd.choice(few)
        player.treasures = [rnd.randint(1, 12)] if rnd.random() < 0.75 else []
        player.hand = []
    st.guardians = {"white": rnd.randrange(49), "black": rnd.randrange(49)}
    me = st.players[current]
    st.turn = MasterTurn(current, phase="move")
    while True:
        me.pos = rnd.choice([x for x in range(49) if x != LAIR])
        dests = sorted(move_cells(game, current) - {cell_name(me.pos)})
        if dests:
            break
    dest = parse_cell(rnd.choice(dests))
    st.tokens = [(dest, 1), (LAIR, 2)]
    face = rnd.randrange(6)
    facing = st.facing
    events = act(game, current, cell_name(dest), Dice(face, 6, 6, 6, 6))
    die = next(e for e in events if e["type"] == "dragon_die")
    if face < 4:
        assert st.facing == "NESW"[("NESW".index(facing) + face + 1) % 4]
    else:
        assert st.facing == facing
    threat = next(e for e in events if e["type"] == "threat")
    nearest, duellists = threat_search(game, die["face"], current)
    assert (threat["nearest"], threat["duellists"]) == (nearest, duellists)
    assert [e["seat"] for e in events if e["type"] == "duel_roll"] == duellists
    assert FRONT[st.facing] == st.front


# --- team --------------------------------------------------------------------------------


def test_team_v2_the_book_lasts_exactly_24_turns() -> None:
    """team.md: the first card is turned at the start of the first turn, one card a turn,
    and the team loses when a turn begins with the book empty: 24 turns, never 25."""
    game = Game.new("team", ["A", "B", "C"], "book", {"mode": "introductory", **V2})
    turned = [game.apply(0, {"type": "daedalus"})]
    turns = 1
    while game.result is None:
        events = game.apply(game.to_move, {"type": "end"})
        turns += sum(1 for e in events if e["type"] == "turn")
        turned.append([e for e in events if e["type"] == "daedalus"])
    assert turns == 24 and sum(len(t) for t in turned) == 24
    assert [e["left"] for t in turned for e in t] == list(range(23, -1, -1))
    assert game.result == {"winners": [], "reason": "daedalus"}
    assert game.view(None)["daedalus"]["left"] == 0


def test_team_spells_outlast_the_bonus_move_then_the_turn_ends_by_itself() -> None:
    """team.md: unused spells may still be used before or after the bonus move; the
    decision ends the turn once no move is left and every board spell is used."""
    game = team_helpers.new(2, mode="standard", spell_red="traverse")
    state = team_helpers.calm(game)
    state.turn = TeamTurn(0)
    team_helpers.carve(state, b1="EW")
    team_helpers.place(state, "bat", "d1", "EW")
    state.players[0].board = ["bat", "crown"]
    events = team_helpers.play(game, "d1")
    assert events[-1]["type"] == "collected" and events[-1]["bonus"] is True
    team_helpers.play(game, "c1")  # the bonus move
    assert game.to_move == 0 and game.view(0)["turn"]["moves"] == 2
    events = team_helpers.play(game, "Nf")  # the push spell after both moves
    assert [e["type"] for e in events][:2] == ["pushed", "ended"]
    assert game.to_move == 1


def team_search(game: Game, start: int, spell: str | None) -> set[int]:
    """team.md's move from the words: walk face-up paths; step onto a face-down tile
    through an opening and stop; Traverse: once pass through a face-down tile whose both
    neighbours open to it; Teleport: once, from a home corner to another; Escape: once,
    out through an edge opening, in through another face-up edge opening, or onto a
    face-down edge tile (and stop)."""
    st = game.state
    opens, down = st.board.opens, set(st.board.tiles.index(t) for t in st.down)

    def exit_off(cell: int) -> bool:
        return cell not in down and any(
            opens[cell] & bit for bit, other, _ in neighbours(cell) if other is None
        )

    edge = {x for x in range(49) if x // 7 in (0, 6) or x % 7 in (0, 6)}
    seen = {(start, False)}
    queue = deque(seen)
    ends: set[int] = set()
    while queue:
        cell, used = queue.popleft()
        ends.add(cell)
        nexts = []
        for bit, other, back in neighbours(cell):
            if other is None or not opens[cell] & bit:
                continue
            if other in down:
                ends.add(other)
                if spell == "traverse" and not used:
                    nexts += [
                        (beyond, True)
                        for _, beyond, back2 in neighbours(other)
                        if beyond is not None and beyond not in down and opens[beyond] & back2
                    ]
            elif opens[other] & back:
                nexts.append((other, used))
        if spell == "teleport" and not used and cell in TEAM_HOMES:
            nexts += [(home, True) for home in TEAM_HOMES]
        if spell == "escape" and not used and exit_off(cell):
            nexts += [(x, True) for x in range(49) if exit_off(x)]
            ends |= edge & down
        for nxt in nexts:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return ends


@pytest.mark.parametrize("k", range(60))
def test_team_moves_match_a_search_written_from_the_rule(k: int) -> None:
    """Real dealt mazes with random face-down tiles: the plain moves are the search's
    without a spell, the spell moves exactly what the spell adds."""
    rnd = random.Random(k)
    spell = ("traverse", "teleport", "escape")[k % 3]
    game = team_helpers.new(2, mode="standard", seed=f"moves-{k}", spell_red=spell)
    state = game.state
    state.turn = TeamTurn(0)
    movable = [x for x in range(49) if x not in FIXED_CELLS]
    state.down = {state.board.tiles[x] for x in rnd.sample(movable, rnd.randrange(15))}
    downs = {state.board.tiles.index(t) for t in state.down}
    state.players[0].pos = rnd.choice([x for x in range(49) if x not in downs])
    start = state.players[0].pos
    plain = team_search(game, start, None)
    assert move_cells(game, 0, spell=False) == {cell_name(x) for x in plain}
    spelled = team_search(game, start, spell) - plain
    assert move_cells(game, 0, spell=True) == {cell_name(x) for x in spelled}


# --- the card game -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, "a"), (5, "b"), (5, "c"), (6, "d"), (6, "e")])
def test_cards_v2_whole_games_deal_end_and_score_by_the_reference(players: int, seed: str) -> None:
    """cards.md with 2 and 5-6 players under version 2 (linking compulsory): 2 cards each,
    a 2 x 2 start, the rest the pile; turns go by seat order, skipping empty hands; the
    game ends when pile and hands are empty; the most cards taken win, ties shared."""
    game = Game.new("cards", [f"P{i}" for i in range(players)], seed, V2)
    state = game.state
    assert [len(p.hand) for p in state.players] == [2] * players
    assert sorted(state.layout.cards) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert len(state.pile) == 48 - 4 - 2 * players
    rnd = random.Random(seed)
    while game.result is None:
        seat = game.to_move
        assert seat is not None
        assert state.players[seat].hand or state.turn.phase == "take"
        if state.pile and state.turn.phase == "place":  # drawn back up to 2 each turn
            assert [len(p.hand) for p in state.players] == [2] * players
        events = game.apply(seat, rnd.choice(game.legal_actions(seat)))
        turn = next((e for e in events if e["type"] == "turn"), None)
        if turn is not None:
            skipped = [(seat + k) % players for k in range(1, players)]
            expected = next(s for s in [*skipped, seat] if state.players[s].hand)
            assert turn["seat"] == expected
    assert not state.pile and not any(p.hand for p in state.players)
    taken = [len(p.taken) for p in state.players]
    cards = len(state.layout.cards) + sum(taken) + len(state.discarded)
    assert cards == 48
    best = max(taken)
    assert game.result == {
        "winners": [s for s, n in enumerate(taken) if n == best],
        "scores": taken,
    }


def test_team_the_book_of_daedalus_is_the_references_deck() -> None:
    """team.md, our edition's deck (decision): 8 push cards, one per slot named; 10 flip
    cards naming the pairs listed; 6 teleport cards, one per pair of colours, to the
    corner listed. Read from a fresh game's revealed book, as replays show it."""
    game = Game.new("team", ["A", "B"], "deck", {"mode": "standard", **V2})
    book = game.engine.reveal(game.state)["daedalus_deck_order"]
    assert len(book) == 24
    pushes = sorted(card["slot"] for card in book if card["kind"] == "push")
    assert pushes == sorted(["Nb", "Nf", "E2", "E6", "Sb", "Sf", "W2", "W6"])
    flips = sorted(tuple(card["tiles"]) for card in book if card["kind"] == "flip")
    assert flips == sorted(
        [
            ("bat", "sun"), ("dragon", "moon"), ("genie", "star"), ("ghost", "comet"),
            ("troll", "rune"), ("sorceress", "eye"), ("lizard", "hourglass"),
            ("moth", "compass"), ("owl", "scarab"), ("rat", "spider"),
        ]
    )  # fmt: skip
    teleports = {
        frozenset(card["pawns"]): card["to"] for card in book if card["kind"] == "teleport"
    }
    assert teleports == {
        frozenset({"red", "yellow"}): "green", frozenset({"red", "green"}): "yellow",
        frozenset({"red", "blue"}): "yellow", frozenset({"yellow", "green"}): "red",
        frozenset({"yellow", "blue"}): "red", frozenset({"green", "blue"}): "red",
    }  # fmt: skip
