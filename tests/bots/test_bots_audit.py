"""An audit of the computer players without a server: every phase a seat can face mid-turn
gets a legal answer at every level, as itself and as a stand-in (`keep`); games between
computers end within a bound of actions in every game, variant, level and seat count.

The long sweeps behind the bounds (20 seeds per game, variant, level and seat count) are
in the audit's report; this file keeps one game per case, a few seconds in all.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import LEVELS, Level, arena, choose
from app.bots.memory import new_memory, observe_step
from app.rules import Game
from tests.bots.helpers import V2, VARIANTS, Phase, phase_key, variant_id

# The phases each game must show in the positions below, so that the decisions checked
# there cover every kind of mid-turn question a takeover can land on.
EXPECTED: dict[str, set[Phase]] = {
    "classic": {("push", "push"), ("move", "move")},
    "classic-events": {
        ("push", "push"),
        ("move", "move"),
        ("move", "move", "push"),
        ("move", "move", "open_pile"),
        ("move", "pick"),
        ("push", "decline", "push"),
        ("move", "move", "swap"),
        ("move", "move", "pick"),
    },
    "master": {
        ("push", "push"),
        ("move", "move"),
        ("coin", "no_coin"),
        ("coin", "coin", "no_coin"),
        ("double", "double_turn", "end_turn"),
        ("reroll", "accept", "reroll"),
        ("reroll", "accept", "reroll", "other's duel"),
        ("push", "push", "bonus turn"),
        ("challenge", "challenge", "decline"),
        ("final", "accept", "reroll"),
    },
    "team": {
        ("daedalus", "daedalus"),
        ("orient", "orient"),
        ("play", "end", "move", "push", "rotate"),
        ("play", "end", "move", "push", "switch"),
        ("play", "end", "move", "push", "spell"),
        ("play", "end", "switch"),
        ("play", "end", "rotate"),
    },
    "cards": {("place", "place"), ("take", "take")},
}
GAMES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "classic": [("classic", V2)],
    "classic-events": [("classic", {"events": True, **V2})],
    "master": [("master", V2)],
    "team": [("team", {"mode": "standard", **V2}), ("team", {"mode": "expert", **V2})],
    "cards": [("cards", V2)],
}


def _positions(variant: str, options: dict[str, Any], seed: str, players: int) -> list[Game]:
    """Every position of a game whose actions are the medium player's or random ones (one
    in three), opening the pile when offered so that the exchange's pick comes up."""
    names = [f"P{i}" for i in range(players)]
    game = Game.new(variant, names, seed, options)
    rng = random.Random(seed)
    seen = []
    while game.to_move is not None and game.seq < 1500:
        seat = game.to_move
        seen.append(game.clone())
        legal = game.legal_actions(seat)
        opening = [a for a in legal if a["type"] == "open_pile"]
        if opening:
            action = opening[0]
        elif rng.random() < 1 / 3:
            action = rng.choice(legal)
        else:
            action = choose(variant, "medium", game.view(seat), legal, rng)
        game.apply(seat, action)
    return seen


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_mid_turn_phase_gets_a_legal_answer_at_every_level(name: str) -> None:
    """At every other position (and the first of each phase; one in six for the slow hard
    player), each level answers with a legal action, for itself and standing in for an
    absent person."""
    reached: set[Phase] = set()
    checked: set[Phase] = set()  # every phase once at least, then one position in two
    for variant, options in GAMES[name]:
        for k, players in enumerate((2, 3, 4)):
            for i, game in enumerate(_positions(variant, options, f"audit-{k}", players)):
                seat = game.to_move
                assert seat is not None
                view, legal = game.view(seat), game.legal_actions(seat)
                reached.add(phase_key(variant, view, legal))
                if i % 2 and phase_key(variant, view, legal) in checked:
                    continue
                checked.add(phase_key(variant, view, legal))
                for level in LEVELS if i % 6 == 0 else ("easy", "medium"):
                    for keep in (False, True):
                        rng = random.Random(i)
                        action = choose(variant, level, view, legal, rng, keep=keep)
                        assert action in legal, (variant, game.seq, level, keep, action)
    assert EXPECTED[name] <= reached, EXPECTED[name] - reached


# Upper bounds on the length of a game between computers, from the audit's sweep (1,354+
# games): classic <= 276 actions, Master <= 436 (easy), Team <= 120 (the Daedalus deck
# ends it), cards <= 90 (48 cards), with a wide margin. A game past its bound loops.
BOUNDS = {"classic": 800, "master": 1200, "team": 300, "cards": 200}
MAX_SEATS = {"classic": 4, "master": 4, "team": 4, "cards": 6}


def _play(variant: str, options: dict[str, Any], levels: tuple[Level, ...], seed: str) -> Game:
    """A game between computers at `levels`, each fed its memory as the room feeds it."""
    game = Game.new(variant, [f"C{i}" for i in range(len(levels))], seed, options)
    memories = {seat: new_memory(variant, level) for seat, level in enumerate(levels)}
    for seat, memory in memories.items():
        if memory is not None:
            memory.observe(game.view(seat))
    while game.to_move is not None and game.seq < BOUNDS[variant]:
        seat = game.to_move
        view, legal = game.view(seat), game.legal_actions(seat)
        rng = random.Random(f"{seed}/{game.seq}")
        action = choose(variant, levels[seat], view, legal, rng, memories[seat])
        assert action in legal
        events = game.apply(seat, action)
        for watcher, memory in memories.items():
            if memory is not None:
                observe_step(game, watcher, memory, events)
    return game


@pytest.mark.parametrize("case", VARIANTS, ids=variant_id)
@pytest.mark.parametrize("level", [*LEVELS, "mixed"])
def test_a_game_of_computers_ends_within_its_bound(
    case: tuple[str, dict[str, Any]], level: str
) -> None:
    variant, options = case
    seats = 2 + len(level) % (MAX_SEATS[variant] - 1)  # 2 to the most, by level
    if level == "mixed":
        levels: tuple[Level, ...] = tuple(LEVELS[i % 3] for i in range(seats))
    else:
        levels = (level,) * seats  # type: ignore[assignment]
    game = _play(variant, options, levels, f"bound-{level}")
    assert game.result is not None, f"{variant} {levels}: no end after {game.seq} actions"


@pytest.mark.parametrize(
    ("seed", "options"), [("sweep-14", None), ("sweep-1", {"rules_version": 1})]
)
def test_hard_master_players_do_not_deny_each_other_for_ever(
    seed: str, options: dict[str, Any] | None
) -> None:
    """Three hard players on one cell beside the lowest token, each refusing every push
    that would open the way as a gift to the next: these games never ended (a table of
    them played to the action limit, then stood still). Denial when nothing is in reach
    is now left out now and then."""
    out = arena.play("master", ("hard", "hard", "hard"), seed, options=options, max_actions=2_000)
    assert out.result is not None, out.actions
