"""Audit of team.md and cards.md against the engines, for what the other tests left out.

The random-game secrecy checks of the Team Edition (`test_team_properties`) and the card
game (`test_cards_properties`) play games without `rules_version`, i.e. version 1; every
new room plays version 2 (clockwise seats, the first Daedalus card turned as the first
action, compulsory linking), so the same checks run here on version 2 games. The unit
tests pin rule items of team.md no other test names.
"""

from __future__ import annotations

import random

import pytest

from app.rules import Game, IllegalAction
from app.rules.board import cell_name
from app.rules.cards import ENGINE as CARDS
from app.rules.cards import CardsState
from app.rules.team import DAEDALUS_CARDS, TeamState
from tests.rules import test_team_properties as props
from tests.rules.team_helpers import c, play

V2 = {"rules_version": 2}


# --- Team Edition, version 2 -----------------------------------------------------------------


def _check_team_invariants(game: Game) -> None:
    """The property test's invariants, and before the first card: the book whole and the
    whole board face up (team.md, Setup)."""
    state: TeamState = game.state
    if state.turn is not None and state.turn.card_pending:
        assert len(state.daedalus_deck) == 24 and state.card is None and not state.down
        return
    props.check_invariants(game)


@pytest.mark.parametrize(
    ("mode", "players", "seed"),
    [
        ("introductory", 2, "v2-a"),
        ("introductory", 4, "v2-b"),
        ("standard", 3, "v2-c"),
        ("standard", 4, "v2-d"),
        ("expert", 2, "v2-e"),
        ("expert", 3, "v2-f"),
    ],
)
def test_team_v2_random_games_keep_invariants_and_secrets(
    mode: str, players: int, seed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """team.md, "What each viewer may see", in version 2 games: no view, legal list,
    refusal or event tells a face-down tile's face or either deck's order. Turning the
    first Daedalus card shows that card (a legitimate reveal, like `end`)."""
    first_card = {"type": "daedalus"}
    monkeypatch.setattr(props, "UNIVERSE", [*props.UNIVERSE, first_card])
    plain_reveals = props.reveals
    monkeypatch.setattr(
        props, "reveals", lambda state, action: action == first_card or plain_reveals(state, action)
    )
    game = Game.new("team", [f"p{i}" for i in range(players)], seed, {"mode": mode, **V2})
    rng = random.Random(seed)
    for step in range(props.MAX_ACTIONS):
        _check_team_invariants(game)
        props.check_views(game)
        seat = game.to_move
        if seat is None:
            break
        legal = game.legal_actions(seat)
        props.check_indistinguishable(game, rng)
        if step % 12 == 0:
            props.check_exact_legality(game, legal)
        action = props.choose(game, legal, rng)
        down_before = set(game.state.down)
        events = game.apply(seat, action)
        props.check_messages(game, seat, action, events, down_before)
    else:
        pytest.fail("a game lasts at most 24 turns")
    assert game.result is not None and game.state.seq > 24
    replay = Game.from_record(game.record())
    assert props.ENGINE.reveal(replay.state) == props.ENGINE.reveal(game.state)


def _book_opens_with(game: Game, **match: str) -> None:
    """Put the Daedalus card matching `match` (e.g. slot="Nb") on top of the book."""
    deck = game.state.daedalus_deck
    card = next(i for i in deck if all(DAEDALUS_CARDS[i].get(k) == v for k, v in match.items()))
    deck.remove(card)
    deck.insert(0, card)


def test_team_daedalus_push_sends_each_pawn_on_the_ejected_tile_to_its_own_corner() -> None:
    """team.md: "A pawn on the ejected tile goes to its own home corner" - each pawn to
    its own, two pawns on it going two ways; a pawn elsewhere on the line rides with its
    tile (common.md), and nobody lands on the face-down tile pushed in."""
    game = Game.new("team", ["Ann", "Bob", "Cy"], "push-home", {"mode": "standard", **V2})
    state: TeamState = game.state
    _book_opens_with(game, slot="Nb")
    for player, cell in zip(state.players, ("b7", "b7", "b3"), strict=True):
        player.pos = c(cell)
    events = game.apply(0, {"type": "daedalus"})
    assert events[0]["effect"]["sent_home"] == [0, 1]
    assert [cell_name(p.pos) for p in state.players] == ["a1", "g1", "b4"]
    assert state.board.tiles[c("b1")] in state.down and state.board.spare not in state.down


def test_team_push_spell_may_use_daedalus_slot_but_not_undo_it() -> None:
    """team.md: the push spell "may not reverse ... the push Daedalus made this turn. No
    no-reverse rule otherwise": the slot Daedalus pushed at stays open to the spell; only
    the opposite one is closed."""
    game = Game.new("team", ["Ann", "Bob"], "same-slot", {"mode": "introductory", **V2})
    _book_opens_with(game, slot="Nb")
    game.apply(0, {"type": "daedalus"})
    state: TeamState = game.state
    state.down.discard(state.board.tiles[c("b7")])  # nothing face down at the far end
    slots = {(a["side"], a["index"]) for a in game.legal_actions(0) if a["type"] == "push"}
    assert ("N", 1) in slots and ("S", 1) not in slots
    with pytest.raises(IllegalAction, match="no-reverse"):
        play(game, "Sb")
    events = play(game, "Nb")
    assert events[0]["type"] == "pushed" and events[0]["slot"] == "Nb"


# --- the card game, version 2 ----------------------------------------------------------------


def _others_reshuffled(state: CardsState, viewer: int | None, rng: random.Random) -> CardsState:
    """The same public position with other secrets for `viewer`: the cards in the other
    players' hands and in the pile dealt again among them (hand sizes kept)."""
    twin = state.clone()
    others = [p for seat, p in enumerate(twin.players) if seat != viewer]
    hidden = twin.pile + [card for p in others for card in p.hand]
    rng.shuffle(hidden)
    for player in others:
        size = len(player.hand)
        player.hand, hidden = hidden[:size], hidden[size:]
    twin.pile = hidden
    return twin


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_cards_v2_what_others_see_does_not_depend_on_the_hidden_cards(players: int) -> None:
    """cards.md, "What each viewer may see": hands are secret and the pile face down. For
    every viewer (the player to move too), the view and the legal list are the same
    whatever the others' hands and the pile hold, and no drawn card reaches anyone but
    its drawer before the end."""
    game = Game.new("cards", [f"P{i}" for i in range(players)], f"secret-{players}", V2)
    rng = random.Random(players)
    while game.result is None:
        seat = game.to_move
        assert seat is not None
        for viewer in [None, *range(players)]:
            twin = _others_reshuffled(game.state, viewer, rng)
            assert CARDS.view(twin, viewer) == game.view(viewer)
            assert CARDS.legal_actions(twin, viewer) == game.legal_actions(viewer)
        action = rng.choice(game.legal_actions(seat))
        events = game.apply(seat, action)
        drawn = [e for e in events if e["type"] == "drew"]
        for viewer in [None, *range(players)]:
            if viewer == seat or game.result is not None:
                continue
            assert CARDS.redact_action(game.state, seat, action, viewer) == action
            shown = CARDS.redact_events(game.state, events, viewer)
            assert [e for e in shown if e["type"] == "drew"] == [
                {"type": "drew", "seat": seat, "count": e["count"]} for e in drawn
            ]
