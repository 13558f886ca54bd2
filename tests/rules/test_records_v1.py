"""Records made by the code of before rules version 2 re-play exactly as they were played.

`tests/fixtures/records_v1/` holds finished games of every variant (classic with events,
younger children, master, team in each mode, cards for 2, 4 and 6 players), made by that
code (`tests/fixtures/make_records_v1.py`) and exported as the server exports them. Their
options carry no `rules_version`, as every record stored before the change: each must
still re-play to the same result, produce the same events step by step (a digest taken
when they were made), round-trip through `Game.record`, import and verify.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.records import replay_finished, verify
from app.rules import Game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "records_v1"
DIGESTS: dict[str, str] = json.loads((FIXTURES / "events.sha256.json").read_text("utf-8"))
NAMES = sorted(DIGESTS)
ROOT = Path(__file__).resolve().parents[2]


def load(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text("utf-8"))  # type: ignore[no-any-return]


def test_every_variant_is_covered() -> None:
    variants = {load(name)["variant"] for name in NAMES}
    assert variants == {"classic", "master", "team", "cards"}
    assert all("rules_version" not in (load(name)["options"] or {}) for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_an_old_record_replays_with_the_same_events_and_result(name: str) -> None:
    record = load(name)
    game = Game.new(record["variant"], record["players"], record["seed"], record["options"])
    events = [game.apply(e["seat"], e["action"]) for e in record["actions"]]
    digest = hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()
    assert digest == DIGESTS[name]
    assert game.result == record["result"]


@pytest.mark.parametrize("name", NAMES)
def test_an_old_record_imports_verifies_and_round_trips(name: str) -> None:
    record = load(name)
    game = replay_finished(record)
    assert game.result == record["result"]
    outcome = verify(record)
    assert outcome.ok, outcome.checks
    plain = {k: record[k] for k in ("variant", "options", "players", "seed", "actions")}
    assert game.record() == plain
    assert Game.from_record(game.record()).result == record["result"]


def test_the_command_line_verifies_an_old_record() -> None:
    path = FIXTURES / "classic-events-2p.json"
    done = subprocess.run(
        [sys.executable, "-m", "app.verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("verified")
