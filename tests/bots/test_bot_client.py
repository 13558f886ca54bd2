"""examples/bot_client.py plays whole games against a live server, as docs/bots.md says an
outside program can: HTTP join, WebSocket hello, `legal`, act at `seq`, hello again after
a lost connection."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import ROOT, ServerProcess, http_json

# Whole games between client processes and a server process: a long run.
pytestmark = pytest.mark.slow

CLIENT = ROOT / "examples" / "bot_client.py"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    url = f"sqlite:///{tmp_path / 'bots.sqlite3'}"
    process = ServerProcess(tmp_path, {"DATABASE_URL": url}).start(timeout=120)
    try:
        yield process
    finally:
        process.stop()


def _client(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(CLIENT), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _summaries(*processes: subprocess.Popen[str], timeout: float = 400) -> list[dict]:
    """Each client's closing summary; a client that fails or hangs fails the test with
    every client's error output (one that dies leaves the other waiting for it)."""
    outputs = []
    try:
        for process in processes:
            outputs.append(process.communicate(timeout=timeout))
    except subprocess.TimeoutExpired:
        for process in processes:
            process.kill()
        errors = [p.communicate()[1] for p in processes]
        pytest.fail("a client hung:\n" + "\n---\n".join(errors))
    for process, (_, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err
    return [json.loads(out.strip().splitlines()[-1]) for out, _ in outputs]


@pytest.mark.parametrize("variant", ["classic", "cards"])
def test_two_example_clients_play_a_whole_game(server: ServerProcess, variant: str) -> None:
    room = http_json("POST", server.url + "/api/rooms", {"variant": variant})["code"]
    ann = _client("--server", server.url, "--room", room, "--name", "Ann", "--players", "2",
                  "--level", "hard", "--drop-after", "3")  # fmt: skip
    bob = _client("--server", server.url, "--room", room, "--name", "Bob", "--level", "easy")
    first, second = _summaries(ann, bob)
    assert first["result"] == second["result"]
    assert first["result"]["winners"]
    assert first["reconnects"] >= 1  # Ann's socket was dropped and she said hello again
    assert first["actions"] > 3 and second["actions"] > 3
    game_id = http_json("GET", f"{server.url}/api/rooms/{room}")["game_id"]
    game = http_json("GET", f"{server.url}/api/games/{game_id}")
    assert game["status"] == "finished"
    assert game["result"]["winners"] == first["result"]["winners"]
    record = http_json("GET", f"{server.url}/api/games/{game_id}/record")
    assert len(record["actions"]) == game["seq"]


def test_the_example_creates_a_room_too(server: ServerProcess) -> None:
    host = _client("--server", server.url, "--create", "master", "--name", "Ann",
                   "--players", "2")  # fmt: skip
    assert host.stdout is not None
    room = json.loads(host.stdout.readline())["room"]
    guest = _client("--server", server.url, "--room", room, "--name", "Bob")
    first, second = _summaries(host, guest)
    assert first["result"] == second["result"]
