"""The card game's hard player: what a layout offers the next cards, and placements that
leave the next player nothing when they can."""

from __future__ import annotations

import random
from typing import Any

from app.bots import choose
from app.bots.cards import best_take, layout_from_view
from app.bots.cards_outlook import (
    ORIENTATIONS,
    bridges,
    expected_best,
    offers,
    shape_of,
    unseen_kinds,
)
from app.rules import Game
from app.rules.board import parse_open
from app.rules.cards import MOTIFS, Layout

V2 = {"rules_version": 2}
GHOST, OWL = MOTIFS.index("ghost") * 4, MOTIFS.index("owl") * 4
EW, NS = 2 | 8, 1 | 4


def _brute_force(layout: Layout, motif: str, shape: str) -> int:
    """The engine's largest take for one card of this kind, trying every placement."""
    best = 0
    for cell in layout.frontier():
        for opens in ORIENTATIONS[shape]:
            if layout.meets(cell, opens):
                trial = layout.clone()
                trial.cards[cell] = (MOTIFS.index(motif) * 4, opens)
                best = max(best, len(best_take(trial, cell)))
    return best


def test_bridges_are_the_cards_holding_the_layout_together() -> None:
    row = {(0, 0), (1, 0), (2, 0)}
    assert bridges(row) == {(1, 0)}
    assert bridges({(0, 0), (1, 0), (0, 1), (1, 1)}) == set()
    assert bridges({(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)}) == {(1, 0), (1, 1)}


def test_a_card_holding_the_layout_together_is_not_on_offer() -> None:
    """owl - ghost - owl in a row, all open east-west: a ghost laid at either end joins
    the middle ghost, which the rules will not let it take (the row would split); an owl
    laid there takes the far owl only (its neighbour then holds it to the row)."""
    layout = Layout({(0, 0): (OWL, EW), (1, 0): (GHOST, EW), (2, 0): (OWL, EW)})
    found = offers(layout)
    assert found[("ghost", "I")] == _brute_force(layout, "ghost", "I") == 0
    assert found[("owl", "L")] == _brute_force(layout, "owl", "L") == 1
    # The same ghost at the end of the row is free to take.
    layout = Layout({(0, 0): (OWL, EW), (1, 0): (OWL, EW), (2, 0): (GHOST, EW)})
    assert offers(layout)[("ghost", "T")] == _brute_force(layout, "ghost", "T") == 1


def test_offers_match_the_engine_on_start_squares() -> None:
    compared = 0
    for k in range(8):
        view = Game.new("cards", ["A", "B"], seed=f"square-{k}", options=V2).view(0)
        layout = layout_from_view(view)
        found = offers(layout)
        for motif in MOTIFS:
            for shape in ("I", "L", "T"):
                assert found[(motif, shape)] == _brute_force(layout, motif, shape), (k, motif)
                compared += 1
    assert compared == 8 * 36


def test_expected_best_of_a_hand_drawn_from_the_unseen_cards() -> None:
    values = {("ghost", "I"): 3, ("owl", "I"): 0}
    pool = {("ghost", "I"): 1.0, ("owl", "I"): 3.0}
    # P(the ghost is among two of four cards) = 1 - C(3,2)/C(4,2) = 1/2
    assert expected_best(values, pool, 2) == 1.5
    assert expected_best(values, pool, 1) == 0.75
    assert expected_best(values, pool, 0, sure=[2]) == 2
    assert expected_best(values, pool, 1, sure=[2]) == 0.25 * 3 + 0.75 * 2


def test_unseen_cards_leave_out_what_this_seat_has_seen() -> None:
    game = Game.new("cards", ["A", "B"], seed="unseen", options=V2)
    view = game.view(0)
    pool = unseen_kinds(view)
    assert sum(pool.values()) == 48 - 4 - 2  # the layout and one's own hand are seen
    seen: dict[tuple[str, str], int] = {}
    for card in [*view["layout"], *view["players"][0]["hand"]]:
        kind = (card["motif"], shape_of(parse_open(card["open"])))
        seen[kind] = seen.get(kind, 0) + 1
    for (motif, shape), n in seen.items():
        printed = 2 if shape == "L" else 1
        assert pool.get((motif, shape), 0) == printed - n


def _rival_best(view: dict[str, Any], layout: Layout) -> int:
    """The most any card this seat has not seen could take on `layout` (engine)."""
    return max(
        (_brute_force(layout, motif, shape) for (motif, shape), n in unseen_kinds(view).items()),
        default=0,
    )


def test_the_hard_player_does_not_open_a_link_when_a_placement_that_does_not_exists() -> None:
    """Opening positions where no placement takes anything and nothing is on offer yet:
    when some placements leave every unseen card without a take and others open one,
    the hard player picks one of the former (the medium one does not look)."""
    situations = medium_opened = 0
    for k in range(60):
        game = Game.new("cards", ["A", "B"], seed=f"f{k}", options=V2)
        view, legal = game.view(0), game.legal_actions(0)
        if legal[0]["type"] != "place" or _rival_best(view, layout_from_view(view)):
            continue
        safe, takes = [], False
        for place in legal:
            trial = game.clone()
            trial.apply(0, place)
            takes |= trial.to_move == 0
            if not _rival_best(view, layout_from_view(trial.view(0))):
                safe.append(place)
        if takes or not safe or len(safe) == len(legal):
            continue
        situations += 1
        assert choose("cards", "hard", view, legal, random.Random(k)) in safe, k
        medium_opened += choose("cards", "medium", view, legal, random.Random(k)) not in safe
        if situations >= 6:
            break
    assert situations >= 4
    assert medium_opened >= 1
