"""An action's own cost in the server process, without sockets or database: prints figures,
never asserts.

Per action: the tentative apply, the commit into the live game, and the three `state`
messages of a table of two players and a spectator (the mover's with its legal actions,
as a browser's hello asks). Rooms take turns, one action each, as the rooms of a busy
process do, so that whatever one room remembers between its push and its move has to
survive the others' moves in between (`ClassicState.grid_memo`, docs/performance.md).

Run: `python bench/messages_speed.py [--rooms 50] [--rounds 15]` from the repository root.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rooms.live import LiveGame
from app.rules import Game


def one_round(rooms: list[LiveGame], rng: random.Random, steps: int) -> float:
    """Microseconds per action over `steps` actions of every room, taken in turns."""
    actions = 0
    started = time.perf_counter()
    for _ in range(steps):
        for live in rooms:
            seat = live.game.to_move
            if seat is None:
                continue
            action = rng.choice(live.game.legal_actions(seat))
            game, events = live.tentative(seat, action)
            live.commit(game, seat, action, events)
            mover = live.game.to_move
            for viewer in (0, 1):
                live.state_message(viewer, False, viewer == mover)
            live.state_message(None)
            actions += 1
    return (time.perf_counter() - started) / max(actions, 1) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--steps", type=int, default=40, help="actions per room per round")
    args = parser.parse_args()
    rng = random.Random(1)
    rooms = [
        LiveGame(record=cast(Any, None), game=Game.new("classic", ["Ann", "Bob"], f"bench-{i}"))
        for i in range(args.rooms)
    ]
    times = [one_round(rooms, rng, args.steps) for _ in range(args.rounds)]
    print(
        f"an action with its 3 state messages, {args.rooms} classic rooms in turns "
        f"(the rules' choice of action included): min {min(times):.1f} us, "
        f"median {statistics.median(times):.1f} us over {args.rounds} rounds"
    )


if __name__ == "__main__":
    main()
