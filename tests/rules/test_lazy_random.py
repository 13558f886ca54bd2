"""`LazyRandom`: an action's rng is seeded only when the action draws, and draws exactly
what `rng_for` would (replays of every stored game depend on it)."""

from __future__ import annotations

import random

import pytest

from app.rules import Game, base
from app.rules.base import LazyRandom, rng_for


def draws(rng: random.Random) -> list[object]:
    deck = list(range(30))
    rng.shuffle(deck)
    return [
        deck,
        rng.randrange(6),
        rng.randint(1, 6),
        rng.sample(range(100), 5),
        rng.choice("abcdef"),
        rng.random(),
        rng.getrandbits(70),
    ]


@pytest.mark.parametrize("seq", [0, 1, 57])
def test_draws_are_rng_fors(seq: int) -> None:
    assert draws(LazyRandom("s", seq)) == draws(rng_for("s", seq))  # type: ignore[arg-type]


def test_seeded_once_on_the_first_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, int]] = []
    real = base.rng_for

    def counted(seed: str, seq: int) -> random.Random:
        made.append((seed, seq))
        return real(seed, seq)

    monkeypatch.setattr(base, "rng_for", counted)
    lazy = LazyRandom("s", 4)
    assert made == []
    lazy.randrange(6)
    lazy.shuffle([1, 2, 3])
    assert made == [("s", 4)]


def test_a_push_and_a_move_make_no_rng(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new("classic", ["Ann", "Bob"], "lazy-seed")
    made: list[int] = []
    real = base.rng_for
    monkeypatch.setattr(base, "rng_for", lambda seed, seq: made.append(seq) or real(seed, seq))
    for _ in range(2):  # push, then move
        seat = game.to_move
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.seq == 2 and made == []


@pytest.mark.parametrize("variant", ["classic", "master", "team", "cards"])
def test_a_game_replays_the_same_with_eager_rngs(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same choices, once with lazy rngs and once with every rng made up front, end in
    the same state: nothing an engine does sees the difference."""
    chooser = random.Random(3)
    game = Game.new(variant, ["Ann", "Bob"], "replay-seed")
    while game.result is None and game.seq < 400:
        seat = game.to_move
        assert seat is not None
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    record = game.record()
    monkeypatch.setattr("app.rules.game.LazyRandom", rng_for)
    eager = Game.from_record(record)
    assert eager.seq == game.seq and eager.result == game.result
    assert eager.view(None) == game.view(None)
