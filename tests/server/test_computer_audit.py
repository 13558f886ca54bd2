"""The computer at the table, phase by phase (an audit of app/rooms/computer.py, away.py).

A seat is handed to the computer in the middle of a turn, in every phase of every game
(classic after the push; the event variant's pending choices; Master's coin question,
dice, duels, final duel and double turn; Team's Daedalus card, spells and orientation;
the card game's placing and taking): the computer finishes that seat's turn and the table
moves on to a person. Given back after one computer action, the seat is its person's
at once and the person finishes the turn. A computer player that fails or answers an
illegal action does not stall the table. A table of stand-ins only (everyone away) still
reaches the end of a Master game. And every decision is made from the seat's view.

Positions are reached by fixing the game's seed (`new_seed`) and replaying a prefix found
offline with the medium player: the server game is then exactly the offline one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from app.bots import choose
from app.config import Settings
from app.main import create_app
from app.rooms import computer as computer_module
from app.rooms import lobby as lobby_module
from app.rooms.computer import ComputerPlayers
from app.rules import RULES_VERSION, Game
from app.rules.master import MasterEngine
from tests.bots.helpers import Phase, phase_key
from tests.server.helpers import hello, receive_until


def prefix_to(
    variant: str, options: dict[str, Any], seed: str, players: int, wanted: Phase, limit: int = 600
) -> list[tuple[int, dict[str, Any]]]:
    """The actions (seat, action) of a medium players' game from `seed` up to the first
    position where the seat to move faces `wanted` (an `open_pile` is taken when legal,
    so that the exchange's pick can be reached)."""
    names = [f"P{i}" for i in range(players)]
    game = Game.new(variant, names, seed, {"rules_version": RULES_VERSION, **options})
    played: list[tuple[int, dict[str, Any]]] = []
    while game.to_move is not None and game.seq < limit:
        seat = game.to_move
        view, legal = game.view(seat), game.legal_actions(seat)
        if phase_key(variant, view, legal) == wanted:
            return played
        opening = [a for a in legal if a["type"] == "open_pile"]
        rng = random.Random(f"{seed}/{game.seq}")
        action = opening[0] if opening else choose(variant, "medium", view, legal, rng)
        played.append((seat, action))
        game.apply(seat, action)
    raise AssertionError(f"{variant} {seed}: {wanted} not reached (refresh the seed)")


# (variant, room options, seed, players, phase): the seeds found by /tmp sweeps so that
# the phase comes early in the game.
PHASES: list[tuple[str, dict[str, Any], str, int, Phase]] = [
    ("classic", {}, "phase-0", 2, ("push", "push")),
    ("classic", {}, "phase-0", 2, ("move", "move")),  # after the push, before the move
    ("classic", {"events": True}, "phase-0", 2, ("move", "move", "push")),  # extra push
    ("classic", {"events": True}, "phase-0", 2, ("move", "move", "open_pile")),
    ("classic", {"events": True}, "phase-0", 2, ("move", "pick")),  # the pile opened
    ("classic", {"events": True}, "phase-0", 2, ("push", "decline", "push")),
    ("classic", {"events": True}, "phase-0", 2, ("move", "move", "swap")),
    ("classic", {"events": True}, "phase-0", 2, ("move", "move", "pick")),  # peek
    ("master", {}, "phase-0", 2, ("move", "move")),
    ("master", {}, "phase-0", 2, ("coin", "no_coin")),
    ("master", {}, "phase-0", 2, ("coin", "coin", "no_coin")),
    ("master", {}, "phase-0", 2, ("double", "double_turn", "end_turn")),
    ("master", {}, "phase-0", 2, ("reroll", "accept", "reroll")),
    ("master", {}, "phase-0", 2, ("reroll", "accept", "reroll", "other's duel")),
    ("master", {}, "phase-0", 2, ("push", "push", "bonus turn")),
    ("master", {}, "phase-0", 2, ("challenge", "challenge", "decline")),
    ("master", {}, "phase-0", 3, ("final", "accept", "reroll")),
    ("team", {"mode": "standard"}, "phase-0", 2, ("daedalus", "daedalus")),
    ("team", {"mode": "standard"}, "phase-0", 2, ("orient", "orient")),
    ("team", {"mode": "standard"}, "phase-0", 2, ("play", "end", "move", "push", "rotate")),
    ("team", {"mode": "standard"}, "phase-2", 2, ("play", "end", "move", "push", "switch")),
    ("team", {"mode": "standard"}, "phase-0", 2, ("play", "end", "move", "push", "spell")),
    ("team", {"mode": "expert"}, "phase-2", 2, ("play", "end", "switch")),
    ("team", {"mode": "introductory"}, "phase-0", 2, ("play", "end", "rotate")),
    ("cards", {}, "phase-0", 2, ("place", "place")),
    ("cards", {}, "phase-0", 2, ("take", "take")),
]


def phase_id(case: tuple[str, dict[str, Any], str, int, Phase]) -> str:
    variant, options, _, players, phase = case
    mode = options.get("mode", "events" if options.get("events") else "")
    return f"{variant}{'-' + mode if mode else ''}-{players}p-{'+'.join(phase)}"


# -- driving a room ---------------------------------------------------------------------------


def call(client: TestClient, fn: Callable[..., Any], *args: Any) -> Any:
    """Run a coroutine function on the app's event loop."""
    assert client.portal is not None
    return client.portal.call(fn, *args)


def driver(client: TestClient) -> ComputerPlayers:
    return client.app.state.computer  # type: ignore[attr-defined,no-any-return]


class Table:
    """A room of `players` people whose game is the one `seed` deals."""

    def __init__(
        self,
        client: TestClient,
        monkeypatch: pytest.MonkeyPatch,
        variant: str,
        options: dict[str, Any],
        seed: str,
        players: int,
    ) -> None:
        self.client = client
        self.service = client.app.state.service  # type: ignore[attr-defined]
        self.computer = driver(client)
        monkeypatch.setattr(lobby_module, "new_seed", lambda: seed)
        made = client.post("/api/rooms", json={"variant": variant, "options": options})
        assert made.status_code == 201, made.text
        self.code: str = made.json()["code"]
        self.tokens = []
        for i in range(players):
            joined = client.post(f"/api/rooms/{self.code}/join", json={"name": f"P{i}"})
            assert joined.status_code == 201, joined.text
            self.tokens.append(joined.json()["token"])
        started = client.post(
            f"/api/rooms/{self.code}/start", headers={"Authorization": f"Bearer {self.tokens[0]}"}
        )
        assert started.status_code == 200, started.text
        self.game_id: str = started.json()["game_id"]

    def turn(self) -> Any:
        return call(self.client, self.service.seat_turn, self.code)

    def person_plays(self, seat: int, action: dict[str, Any]) -> None:
        """A person's action, through the path a WebSocket action takes."""
        seq = self.turn().seq
        call(self.client, self.service.submit, self.code, seat, seq, action)

    def log(self) -> list[Any]:
        return self.client.app.state.repo.actions(self.game_id, 0)  # type: ignore[attr-defined,no-any-return]

    def room(self) -> dict[str, Any]:
        return self.client.get(f"/api/rooms/{self.code}").json()  # type: ignore[no-any-return]


def reach(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, case: tuple[Any, ...]
) -> tuple[Table, int]:
    """A table at the case's phase, played so far by its people; and the seat to move."""
    variant, options, seed, players, phase = case
    table = Table(client, monkeypatch, variant, options, seed, players)
    for seat, action in prefix_to(variant, options, seed, players, phase):
        table.person_plays(seat, action)
    turn = table.turn()
    assert phase_key(variant, turn.view, turn.legal) == phase
    return table, turn.seat


def moves_on(table: Table, seat: int) -> None:
    """The table is not waiting on the computer: the game is over, or a person's seat is
    to move (not `seat`'s, whose computer finished its turn)."""
    turn = table.turn()
    assert turn is None or (turn.record.level is None and turn.seat != seat), turn


@pytest.mark.parametrize("case", PHASES, ids=phase_id)
def test_a_seat_taken_over_mid_turn_is_played_to_the_end_of_its_turn(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, case: tuple[Any, ...]
) -> None:
    table, seat = reach(client, monkeypatch, case)
    before = len(table.log())
    assert call(client, table.computer.control, table.code, seat, "easy", "away")
    call(client, table.computer.idle)
    played = table.log()[before:]
    assert played and played[0].seat == seat and played[0].by == "computer:away"
    assert all(e.by == "computer:away" for e in played if e.seat == seat)
    moves_on(table, seat)


@pytest.mark.parametrize("case", PHASES, ids=phase_id)
def test_a_seat_given_back_mid_turn_is_its_person_s_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, case: tuple[Any, ...]
) -> None:
    """The person is back after the computer's first action in their seat: the computer
    plays nothing more there, and the person finishes the turn from their own legal list."""
    table, seat = reach(client, monkeypatch, case)
    computer = table.computer
    real = computer._play

    async def then_back(turn: Any, level: str, by: str) -> bool:
        played = await real(turn, level, by)
        if played and turn.seat == seat:
            await computer.release(table.code, seat)  # what their hello or `back` does
        return played

    monkeypatch.setattr(computer, "_play", then_back)
    before = len(table.log())
    call(client, computer.control, table.code, seat, "easy", "away")
    call(client, computer.idle)
    played = table.log()[before:]
    assert [(e.seat, e.by) for e in played] == [(seat, "computer:away")]
    assert table.room()["seats"][seat]["computer"] is None
    turn = table.turn()
    for _ in range(40):  # the person finishes the turn the computer began (if it goes on)
        if turn is None or turn.seat != seat:
            break
        table.person_plays(
            seat, choose(turn.variant, "medium", turn.view, turn.legal, random.Random(1))
        )
        turn = table.turn()
    call(client, computer.idle)
    assert len([e for e in table.log()[before:] if e.by is not None]) == 1
    moves_on(table, seat)


# -- a computer player that fails -----------------------------------------------------------------


@pytest.mark.parametrize("failure", ["raises", "illegal"])
def test_a_failing_computer_player_does_not_stall_the_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """A player that raises, or answers an action the rules refuse, still moves the
    table: the seat plays one of its legal actions instead (and the failure is logged)."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        if failure == "raises":
            raise RuntimeError("a computer player's bug")
        return {"type": "move", "to": [9, 9]}

    monkeypatch.setattr(computer_module, "choose", broken)
    table = Table(client, monkeypatch, "classic", {}, "phase-0", 2)
    call(client, table.computer.control, table.code, 1, "hard", "seat")
    table.person_plays(0, table.turn().legal[0])
    table.person_plays(0, table.turn().legal[0])
    call(client, table.computer.idle)
    played = [(e.seat, e.by) for e in table.log()[2:]]
    assert played == [(1, "computer:seat")] * 2
    moves_on(table, 1)


# -- stand-ins only -----------------------------------------------------------------------------


def test_a_master_table_of_stand_ins_only_still_ends(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Everyone away (their turns timed out, their seats the computer's): a stand-in keeps
    the person's cards and never challenges the dragon, which is Master's only end, so a
    table of stand-ins only went on to the action limit and then stood still for ever.
    With nobody at the table to come back to, the stand-ins play for the end."""
    case = ("master", {}, "phase-0", 2, ("challenge", "challenge", "decline"))
    table, _ = reach(client, monkeypatch, case)
    start = table.turn().seq
    # the limit, near: the test ends fast either way (a game over, or `too_long`)
    monkeypatch.setattr(MasterEngine, "max_actions", start + 1500)
    for seat in (0, 1):
        call(client, table.computer.control, table.code, seat, "easy", "away")
    call(client, table.computer.idle)
    game = client.get(f"/api/games/{table.game_id}").json()
    assert game["status"] == "finished", game["seq"]


def test_a_stand_in_beside_a_person_still_keeps_the_person_s_cards(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a person at the table, the stand-in keeps what the absent one holds: it
    declines the final duel and spends no card (only the person may end the game)."""
    asked: list[bool] = []
    real = computer_module.choose

    def spy(*args: Any, keep: bool = False, **kwargs: Any) -> Any:
        asked.append(keep)
        return real(*args, keep=keep, **kwargs)

    monkeypatch.setattr(computer_module, "choose", spy)
    case = ("master", {}, "phase-0", 2, ("challenge", "challenge", "decline"))
    table, seat = reach(client, monkeypatch, case)
    before = len(table.log())
    call(client, table.computer.control, table.code, seat, "easy", "away")
    call(client, table.computer.idle)
    played = table.log()[before:]
    assert played[0].payload == {"type": "decline"}
    assert asked and all(asked)
    moves_on(table, seat)


# -- games of computers only, and what they are shown ------------------------------------------


@pytest.mark.parametrize(
    ("variant", "options", "players"),
    [
        ("classic", {"events": True}, 3),
        ("master", {}, 3),
        ("team", {"mode": "expert"}, 3),
        ("cards", {}, 3),
    ],
)
def test_computers_only_play_to_the_end_from_their_seats_views_only(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
    options: dict[str, Any],
    players: int,
) -> None:
    """Every level at one table, to the end; each decision was handed exactly the seat's
    `view` and `legal` at that seq (as a replay of the log rebuilds them), nothing that
    names the seed, and a memory only for the player that keeps one."""
    seen: list[tuple[str, dict[str, Any], list[Any], Any]] = []
    real = computer_module.choose

    def spy(
        variant: str, level: Any, view: Any, legal: Any, rng: Any, memory: Any = None, **kw: Any
    ) -> Any:
        seen.append((level, view, legal, memory))
        return real(variant, level, view, legal, rng, memory, **kw)

    monkeypatch.setattr(computer_module, "choose", spy)
    seed = f"only-computers-{variant}"
    table = Table(client, monkeypatch, variant, options, seed, players)
    levels = ("easy", "medium", "hard")
    for seat in range(players):
        call(client, table.computer.control, table.code, seat, levels[seat % 3], "seat")
    call(client, table.computer.idle)
    game = client.get(f"/api/games/{table.game_id}").json()
    assert game["status"] == "finished"
    entries = table.log()
    assert len(seen) == len(entries)
    replayed = Game.new(variant, [f"P{i}" for i in range(players)], seed, game["options"])
    for (level, view, legal, memory), entry in zip(seen, entries, strict=True):
        assert level == levels[entry.seat % 3]
        assert view == replayed.view(entry.seat) and legal == replayed.legal_actions(entry.seat)
        assert seed not in json.dumps([view, legal])
        assert (memory is not None) == (variant == "team" and level == "hard")
        replayed.apply(entry.seat, entry.payload)
    assert replayed.result is not None


# -- over the WebSocket: a takeover in another's duel, and the person back by hello ---------------


@pytest.fixture
def quick_client(database_url: str) -> Any:
    """Away after 0.3 s, so that a takeover need not wait a minute."""
    settings = Settings(
        database_url=database_url, replay_processes=0, computer_pause=0, away_after=0.3
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_a_takeover_in_another_s_duel_over_the_websocket(
    quick_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Master: in Ann's turn the dragon threatens Bob, who is away: Bob must roll (he is
    the one to move, in Ann's turn). Ann hands his seat to the computer, which rolls for
    him (keeping his cards), and Ann's turn goes on; Bob's hello gives him the seat back."""
    client = quick_client
    case = ("master", {}, "phase-0", 2, ("reroll", "accept", "reroll", "other's duel"))
    table, bob = reach(client, monkeypatch, case)
    ann = 1 - bob
    before = len(table.log())
    with client.websocket_connect(f"/ws/{table.code}") as ws:
        hello(ws, table.tokens[ann])
        for _ in range(40):
            if receive_until(ws, "room")["room"]["seats"][bob]["away"]:
                break
        ws.send_json({"type": "takeover", "seat": bob})
        state = receive_until(ws, "state")
        assert state["last"]["seat"] == bob and state["last"]["by"] == "computer:away"
        assert state["last"]["action"]["type"] == "accept"  # a stand-in spends no card
        while state["view"]["turn"]["actor"] == bob:
            state = receive_until(ws, "state")
        assert state["view"]["turn"]["actor"] == ann and state["view"]["status"] == "playing"
        with client.websocket_connect(f"/ws/{table.code}") as bob_ws:
            welcome, _ = hello(bob_ws, table.tokens[bob])
            assert welcome["seat"] == bob
        assert table.room()["seats"][bob]["computer"] is None
    assert {e.seat for e in table.log()[before:]} == {bob}


def test_a_person_back_while_the_computer_decides_has_the_turn(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's hello gives him his seat back while the computer is deciding his move (a hard
    decision takes a while): the move decided for him is dropped, the turn is his. It
    used to land after his page had shown him his turn, and his own move was `stale`."""
    table = Table(client, monkeypatch, "classic", {}, "phase-0", 2)
    real = computer_module.choose

    def back_meanwhile(*args: Any, **kwargs: Any) -> Any:
        anyio.from_thread.run(table.computer.release, table.code, 0)  # in the worker thread
        return real(*args, **kwargs)

    monkeypatch.setattr(computer_module, "choose", back_meanwhile)
    call(client, table.computer.control, table.code, 0, "hard", "away")
    call(client, table.computer.idle)
    assert table.log() == []
    turn = table.turn()
    assert turn.seat == 0 and turn.record.level is None
    table.person_plays(0, turn.legal[0])  # his move, at the seq his page shows
    assert [(e.seat, e.by) for e in table.log()] == [(0, None)]
