"""`python -m app.verify record.json`: the Verify button's checks for a record file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.records import verify
from app.rules import Game, seed_hash
from app.verify import main
from tests.server.helpers import greedy_record

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A record as the server exports it: with its seed hash and result (ext)."""
    plain = greedy_record(players=2, seed="cli-check", events=True)
    final = Game.from_record(plain)
    return plain | {"seed_hash": seed_hash(plain["seed"]), "result": final.result}


def write(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_a_genuine_record_verifies(
    tmp_path: Path, record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(write(tmp_path, record))]) == 0
    out = capsys.readouterr().out
    assert "ok   seed_hash" in out and "ok   replay" in out and "ok   result" in out
    assert out.strip().endswith("verified")


def test_a_changed_seed_fails(
    tmp_path: Path, record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    forged = record | {"seed": "another"}
    assert main([str(write(tmp_path, forged))]) == 1
    out = capsys.readouterr().out
    assert "FAIL seed_hash" in out and "NOT verified" in out


def test_a_changed_action_fails_naming_its_seq(
    tmp_path: Path, record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    forged = json.loads(json.dumps(record))
    forged["actions"][1]["action"] = {"type": "push", "side": "N", "index": 1, "rotation": 0}
    assert main([str(write(tmp_path, forged))]) == 1
    out = capsys.readouterr().out
    assert "FAIL replay: action seq 2" in out


def test_the_published_hash_on_the_command_line_wins(
    tmp_path: Path, record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    plain = {k: v for k, v in record.items() if k not in {"seed_hash", "result"}}
    path = write(tmp_path, plain)
    assert main([str(path)]) == 1  # no hash to check the seed against
    assert "FAIL seed_hash: no published seed hash" in capsys.readouterr().out
    assert main([str(path), "--seed-hash", record["seed_hash"]]) == 0
    assert main([str(path), "--seed-hash", "0" * 64]) == 1


def test_unreadable_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "missing.json")]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    assert main([str(bad)]) == 2
    bad.write_text("[1, 2]", encoding="utf-8")
    assert main([str(bad)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_different_result_fails(record: dict[str, Any]) -> None:
    outcome = verify(record, result={"winners": [1], "reason": "home"} | {"x": 1})
    assert not outcome.ok
    assert {c["name"]: c["ok"] for c in outcome.checks}["result"] is False


def test_the_module_runs_as_a_command(tmp_path: Path, record: dict[str, Any]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.verify", str(write(tmp_path, record))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "verified" in done.stdout
