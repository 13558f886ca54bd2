"""Everything about games: the history list, a game, its record, replay, import, verify.

The record (the action log) is the truth; replays, imports and verification all re-play
it through the variant's engine (`app/records.py`), so nothing here knows a variant.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from anyio import to_thread
from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response, StreamingResponse

from app.analysis import count_turns
from app.records import InvalidRecord, import_summary, verify
from app.replays import iso, record_of, require_finished
from app.rooms.errors import RoomError, not_found
from app.rooms.keys import new_game_id
from app.rooms.service import RoomService
from app.rules import seed_hash
from app.store.repository import ActionRecord, GameRecord, Repository
from app.text import display_name
from app.web.bodies import BoundedJSONRoute
from app.web.deps import client_address, get_repo, get_service

router = APIRouter(prefix="/api", route_class=BoundedJSONRoute)
log = logging.getLogger("app.games")

Service = Annotated[RoomService, Depends(get_service)]
Repo = Annotated[Repository, Depends(get_repo)]

# Decompressed a piece at a time for a client that does not take gzip, so an answer
# costs the server this much memory, not the whole body.
CHUNK = 64 * 1024


def game_summary(game: GameRecord, turns: int | None = None) -> dict[str, Any]:
    """A list entry: the protocol's fields, plus `result`, `imported` and `turns` (ext):
    `seq` counts actions (a classic turn is two), `turns` what players call turns."""
    return {
        "id": game.id,
        "room": game.room_code,
        "variant": game.variant,
        "status": game.status,
        "players": [display_name(p) for p in game.players],
        "seq": game.seq,
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "result": game.result,
        "imported": game.imported,
        "left": game.left or [],
        "turns": turns,
    }


def adjourned(game: GameRecord, request: Request) -> bool:
    """A live game no seated player was in for `ADJOURN_AFTER`: out of the live list."""
    if game.status != "live":
        return False
    active = game.active_at or game.started_at
    if active.tzinfo is None:
        active = active.replace(tzinfo=UTC)
    return active < _cutoff(request)


def _cutoff(request: Request) -> datetime:
    return datetime.now(UTC) - timedelta(seconds=request.app.state.settings.adjourn_after)


async def presence(service: RoomService, room_code: str | None) -> dict[str, int]:
    """A live game's `watching` (its room's spectators) and `at_table` (its seated players
    connected), over every server process."""
    players, spectators = (0, 0) if room_code is None else await service.presence_counts(room_code)
    return {"watching": spectators, "at_table": players}


@router.get("/games")
async def list_games(
    request: Request,
    repo: Repo,
    service: Service,
    status: Literal["live", "playing", "adjourned", "finished"] | None = None,
    variant: str | None = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """`status=live` lists every live game (each says whether it is `adjourned`); of those,
    `playing` (ext) the games someone was in within `ADJOURN_AFTER` (the lobby's list),
    `adjourned` (ext) the others, which stay resumable from their room's link."""
    since = _cutoff(request)
    games = await to_thread.run_sync(repo.list_games, status, variant, limit, offset, since)
    total = await to_thread.run_sync(repo.count_matching, status, variant, since)
    logs = await to_thread.run_sync(repo.action_kinds, [game.id for game in games])
    entries = []
    for game in games:
        try:
            entry = game_summary(game, count_turns(game.variant, logs.get(game.id, [])))
            json.dumps(entry, ensure_ascii=False).encode()
        except Exception:  # one row that cannot be shown never takes the list down
            log.exception("a game cannot be listed", extra={"game": game.id})
            continue
        if game.status == "live":
            entry |= await presence(service, game.room_code)
            entry["adjourned"] = adjourned(game, request)
        entries.append(entry)
    following = offset + len(games)
    return {
        "games": entries,
        "total": total,
        "offset": offset,
        "limit": limit,
        "next_offset": following if following < total else None,
    }


async def _game(repo: Repository, game_id: str) -> GameRecord:
    game = await to_thread.run_sync(repo.get_game, game_id)
    if game is None:
        raise not_found("game")
    return game


async def _record(repo: Repository, game: GameRecord) -> dict[str, Any]:
    return record_of(game, await to_thread.run_sync(repo.actions, game.id, 0))


@router.get("/games/{game_id}")
async def get_game(game_id: str, request: Request, repo: Repo, service: Service) -> dict[str, Any]:
    game = await _game(repo, game_id)
    logs = await to_thread.run_sync(repo.action_kinds, [game.id])
    body = game_summary(game, count_turns(game.variant, logs[game.id])) | {
        "options": game.options,
        "seed_hash": game.seed_hash,
        "result": game.result,
        "clock": game.clock,
    }
    if game.status == "finished":
        body["seed"] = game.seed
    else:
        body |= await presence(service, game.room_code)
        body["adjourned"] = adjourned(game, request)
    return body


@router.get("/games/{game_id}/record")
async def get_record(game_id: str, repo: Repo) -> dict[str, Any]:
    """The protocol's record, plus `id`, `seed_hash` and `result` (ext) so that a record
    file alone can be verified and re-imported."""
    game = await _game(repo, game_id)
    require_finished(game, "record")
    return await _record(repo, game) | {
        "id": game.id,
        "seed_hash": game.seed_hash,
        "result": game.result,
    }


@router.get("/games/{game_id}/replay")
async def get_replay(
    game_id: str,
    request: Request,
    frames: Literal["full", "patches"] = "full",
) -> Response:
    """The moves and one all-revealed frame per step of a finished game: every frame
    whole, or (`?frames=patches`, ext) the first one and the patches to each next one."""
    return gzipped_json(request, await request.app.state.replays.body(game_id, frames))


def gzipped_json(request: Request, packed: bytes) -> Response:
    """A finished game's built body (gzipped JSON, it never changes) as the client takes
    it: as stored when it accepts gzip, else unpacked."""
    headers = {"Cache-Control": "public, max-age=3600", "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(packed, media_type="application/json", headers=headers)
    # The stored body is never decompressed whole: it streams out a piece at a time.
    return StreamingResponse(gunzipped(packed), media_type="application/json", headers=headers)


async def gunzipped(packed: bytes) -> AsyncIterator[bytes]:
    """`packed` decompressed, at most `CHUNK` bytes at a time."""
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    for start in range(0, len(packed), CHUNK):
        data = inflate.decompress(packed[start : start + CHUNK], CHUNK)
        while True:
            if data:
                yield data
            if not inflate.unconsumed_tail:
                break
            data = inflate.decompress(inflate.unconsumed_tail, CHUNK)
    if tail := inflate.flush():
        yield tail


@router.get("/games/{game_id}/analysis")
async def get_analysis(game_id: str, request: Request) -> Response:
    """(ext) What each turn of a finished game could have done and whether it did
    (`app/analysis`): marks per turn and a summary per player, built once, off the request
    path when the game ended; an older game's is built on this first request."""
    return gzipped_json(request, await request.app.state.analyses.body(game_id))


async def _read_record(request: Request) -> bytes:
    """The uploaded file. `BodyLimit` (app/main.py) refuses a larger one before it is
    read, with 413 `too_large`; this says the same should the app run without it, rather
    than the `invalid_record` it once answered here, which no import ever received."""
    body = await request.body()
    limit = request.app.state.settings.max_import_bytes
    if len(body) > limit:
        raise RoomError("too_large", f"a record file is at most {limit} bytes", 413)
    return body


def _store_import(repo: Repository, game: dict[str, Any]) -> tuple[GameRecord, bool]:
    """The imported game stored, or the same game already here (and True): a record
    uploaded again is one game, not one more line of "Recently finished" per upload."""
    stored = GameRecord.imported_game(
        new_game_id(), game, seed_hash(game["seed"]), game["seq"], game["result"]
    )
    actions = [ActionRecord(seq, seat, action) for seq, seat, action in game["actions"]]
    existing = repo.same_finished_game(stored, actions)
    if existing is not None:
        return existing, True
    repo.import_game(stored, actions)
    return stored, False


@router.post("/games/import", status_code=201)
async def import_game(request: Request, repo: Repo) -> dict[str, Any]:
    """Re-play an uploaded record; a valid finished one is stored as an imported game.
    The re-play runs where replays are built (a build process), not beside the event
    loop, so a long record does not slow every other request; so does reading its JSON
    (nesting bounded, `app/boundedjson.py`), which costs a large file a second."""
    request.app.state.limits.imports.check(client_address(request))
    body = await _read_record(request)
    depth = request.app.state.settings.max_json_depth
    try:
        game = await request.app.state.replays.run(import_summary, body, depth)
    except InvalidRecord as exc:
        extra = {"reason": exc.reason} | ({} if exc.seq is None else {"seq": exc.seq})
        raise RoomError("invalid_record", exc.message, 422, extra) from exc
    stored, existing = await to_thread.run_sync(_store_import, repo, game)
    if not existing:
        request.app.state.replays.warm(stored.id)
        request.app.state.analyses.warm(stored.id)
    answer = {"id": stored.id, "url": f"/replay/{stored.id}", "seq": stored.seq}
    return answer | ({"existing": True} if existing else {})


@router.post("/games/{game_id}/verify")
async def verify_game(game_id: str, repo: Repo) -> dict[str, Any]:
    """Re-play the stored record from the revealed seed and compare with what was
    published: the seed hash from the start, the final seq and the result."""
    game = await _game(repo, game_id)
    require_finished(game, "seed")
    record = await _record(repo, game)
    outcome = await to_thread.run_sync(verify, record, game.seed_hash, game.seq, game.result)
    return outcome.to_dict() | {
        "id": game.id,
        "seed_hash": game.seed_hash,
        "seed": game.seed,
        "imported": game.imported,
    }
