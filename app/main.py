"""The application factory and its lifespan: migrate, wire the service, serve."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates

from app import collector, logs
from app.analysis.cache import Analyses
from app.builders import replay_builders
from app.config import ROOT, Settings, get_settings
from app.metrics import CONTENT_TYPE, Metrics
from app.replays import Replays
from app.rooms.computer import ComputerPlayers
from app.rooms.hub import Hub, LocalHub, RedisHub
from app.rooms.presence import LocalPresence, Presence, RedisPresence
from app.rooms.ratelimit import AddressLimits
from app.rooms.service import RoomService
from app.rooms.timeouts import enforce_forever, keep_active
from app.store import migrate
from app.store.db import make_engine, make_sessionmaker
from app.store.repository import Repository
from app.web import api, assets, errors, games, pages, ws
from app.web.assets import Assets
from app.web.bodylimit import BodyLimit
from app.web.security import SecurityHeaders, allowed, csp_nonce, parse_networks

HEALTH_TIMEOUT = 3.0
REDIS_TIMEOUT = 2.0


def make_fanout(settings: Settings) -> tuple[Hub, Presence, Any]:
    """In-process fan-out, or Redis pub/sub and presence when `REDIS_URL` is set."""
    if not settings.redis_url:
        return LocalHub(), LocalPresence(), None
    from redis import asyncio as aioredis

    # A bounded pool that waits for a free connection rather than failing a burst; a
    # command that Redis does not answer in 2 s fails (and the caller degrades) instead
    # of holding its request.
    pool = aioredis.BlockingConnectionPool.from_url(
        settings.redis_url,
        max_connections=64,
        timeout=10,
        socket_timeout=REDIS_TIMEOUT,
        socket_connect_timeout=REDIS_TIMEOUT,
    )
    redis = aioredis.Redis(connection_pool=pool)
    # The subscription waits for messages for ever: no read timeout there.
    subscriber = aioredis.Redis.from_url(
        settings.redis_url, socket_connect_timeout=REDIS_TIMEOUT, socket_keepalive=True
    )
    process_id = f"{socket.gethostname()}:{os.getpid()}:{id(settings):x}"
    prefix = settings.redis_prefix
    hub = RedisHub(redis, channel=f"{prefix}:hub", subscriber=subscriber, origin=process_id)
    return hub, RedisPresence(redis, process_id, prefix=f"{prefix}:presence:"), redis


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    logs.configure(settings.log_level)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.run_migrations:
            await to_thread.run_sync(migrate.upgrade, settings.database_url)
        engine = make_engine(settings.database_url, settings.sqlite_busy_timeout)
        repo = Repository(make_sessionmaker(engine), settings.sqlite_busy_timeout)
        hub, presence, redis = make_fanout(settings)
        metrics = Metrics()
        metrics.track_log(lambda: repo.writer.stats)
        threads = settings.database_threads or (2 if engine.dialect.name == "sqlite" else 40)
        service = RoomService(
            repo, hub, presence, metrics, away_after=settings.away_after, db_threads=threads
        )
        service.chat_limits = (settings.chat_burst, settings.chat_per_second)
        service.host_grace = settings.host_grace_seconds
        service.rematch_seconds = settings.rematch_seconds
        service.stamp_every = min(60.0, settings.adjourn_after / 3)  # as `keep_active`
        builds = replay_builders(settings.replay_processes)
        replays = Replays(
            repo,
            settings.replay_cache_size,
            executor=builds,
            concurrency=settings.replay_builds,
            failure_ttl=settings.replay_failure_ttl,
        )
        service.on_finished.append(replays.warm)
        analyses = Analyses(repo, settings.replay_cache_size, executor=builds)
        service.on_finished.append(analyses.warm)
        computer = ComputerPlayers(
            service, settings.computer_pause, settings.computer_sweep_seconds
        )
        await service.start()
        computer.start()
        heartbeat = asyncio.create_task(service.heartbeat())
        deadlines = asyncio.create_task(
            enforce_forever(service, computer, settings.clock_scan_every)
        )
        active = asyncio.create_task(keep_active(service, service.stamp_every))
        janitor = asyncio.create_task(
            service.janitor(
                settings.room_sweep_seconds,
                settings.room_idle_seconds,
                settings.lobby_ttl_hours * 3600,
            )
        )
        prebuild = asyncio.create_task(replays.prebuild(settings.replay_prebuild))
        app.state.repo = repo
        app.state.redis = redis
        app.state.service = service
        app.state.replays = replays
        app.state.analyses = analyses
        app.state.computer = computer
        collected = collector.settle() if settings.gc_freeze else None
        pacer = asyncio.create_task(collector.Pacer().run()) if settings.gc_freeze else None
        try:
            yield
        finally:
            if pacer is not None:  # first, so that it cannot freeze again after `restore`
                pacer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pacer
            if collected is not None:
                collector.restore(collected)
            for task in (heartbeat, janitor, prebuild, deadlines, active):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await computer.stop()
            with contextlib.suppress(Exception):
                await presence.stop()
            await service.stop()
            if redis is not None:
                await redis.aclose()
            engine.dispose()
            if builds is not None:
                builds.shutdown(cancel_futures=True)

    app = FastAPI(title="Labyrinth", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.settings = settings
    app.state.limits = AddressLimits.from_settings(
        settings.max_sockets_per_address,
        settings.rooms_per_minute,
        settings.joins_per_minute,
        settings.imports_per_minute,
    )
    app.add_middleware(
        BodyLimit,
        limit=settings.max_body_bytes,
        larger={"/api/games/import": settings.max_import_bytes},
    )
    app.state.templates = Jinja2Templates(directory=str(ROOT / "templates"))
    app.state.assets = Assets(ROOT / "static")
    app.state.templates.env.globals.update(
        asset=app.state.assets.url, import_map=app.state.assets.import_map, csp_nonce=csp_nonce
    )
    app.add_middleware(SecurityHeaders)
    metrics_networks = parse_networks(settings.metrics_networks)
    app.state.rules_pages = {path.stem for path in (ROOT / "templates" / "rules").glob("*.html")}
    errors.install(app)
    app.include_router(api.router)
    app.include_router(games.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.include_router(assets.router)

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        """200 when the database reads and writes and Redis (if configured) answers; 503
        otherwise, naming what failed, so that a balancer drops this replica."""
        write = functools.partial(to_thread.run_sync, abandon_on_cancel=True)
        checks = {"database": await _check(write, app.state.repo.ping_write)}
        if app.state.redis is not None:
            checks["redis"] = await _check(app.state.redis.ping)
        ok = all(value == "ok" for value in checks.values())
        return JSONResponse({"ok": ok} | checks, status_code=200 if ok else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """Prometheus text, for the networks of `METRICS_NETWORKS` only: to anyone else
        the page does not exist."""
        host = request.client.host if request.client else None
        if not allowed(host, metrics_networks):
            return errors.error_response(404, "not_found", "no such page")
        return Response(app.state.service.metrics.render(), media_type=CONTENT_TYPE)

    return app


async def _check(probe: Callable[..., Awaitable[Any]], *args: Any) -> str:
    """ "ok", or the name of what went wrong, within HEALTH_TIMEOUT seconds."""
    try:
        await asyncio.wait_for(probe(*args), timeout=HEALTH_TIMEOUT)
    except TimeoutError:
        return "timeout"
    except Exception as exc:
        return type(exc).__name__
    return "ok"


app = create_app()
