"""The server's JSON writer (orjson behind `app.rooms.live.dumps`) writes exactly what the
standard library wrote before it, byte for byte: clients, stored chat and the replay
patches' strict comparisons may rely on the text, not only on the parsed value."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.rooms.live import dumps
from app.rules import Game


def reference(message: Any) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


GAMES = [
    ("classic", 3, {"events": True}),
    ("master", 2, {}),
    ("team", 3, {"mode": "expert"}),
    ("cards", 4, {}),
]


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_every_viewer_state_of_a_random_game_is_written_as_before(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    game = Game.new(variant, [f"Zoë {i}" for i in range(players)], "dumps", options)
    rng = random.Random(7)
    for step in range(60):
        if game.result is not None:
            break
        for viewer in [None, *range(players)]:
            message = {"type": "state", "seq": step, "view": game.view(viewer)}
            assert dumps(message) == reference(message)
        seat = game.to_move
        legal = game.legal_actions(seat)
        game.apply(seat, rng.choice(legal))


def test_words_numbers_and_keys_are_written_as_before() -> None:
    message = {
        "chat": 'Grüße, Zoé — ça va ? 迷宫 🧭 "quoted" \\ back\nslash \u2028',
        "n": [0, -1, 2**53, 1.5, 0.1, True, False, None],
        3: "an integer key",
        "nested": {"empty": {}, "list": [[], [{}]]},
    }
    assert dumps(message) == reference(message)
    # Exponents are spelt differently (1e-7 against 1e-07), the same number either way.
    assert json.loads(dumps({"f": 1e-7})) == {"f": 1e-7}


def test_a_lone_surrogate_is_refused_not_sent_half_encoded() -> None:
    with pytest.raises(TypeError):
        dumps({"chat": "\ud800"})
