"""The application factory and its lifespan: migrate, wire the service, serve."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates

from app import logs
from app.analysis.cache import Analyses
from app.builders import replay_builders
from app.config import ROOT, Settings, get_settings
from app.metrics import CONTENT_TYPE, Metrics
from app.replays import Replays
from app.rooms.computer import ComputerPlayers
from app.rooms.hub import Hub, LocalHub, RedisHub
from app.rooms.presence import LocalPresence, Presence, RedisPresence
from app.rooms.service import RoomService
from app.store import migrate
from app.store.db import make_engine, make_sessionmaker
from app.store.repository import Repository
from app.web import api, assets, errors, games, pages, ws
from app.web.assets import Assets
from app.web.security import SecurityHeaders, allowed, csp_nonce, parse_networks


def make_fanout(settings: Settings) -> tuple[Hub, Presence, Any]:
    """In-process fan-out, or Redis pub/sub and presence when `REDIS_URL` is set."""
    if not settings.redis_url:
        return LocalHub(), LocalPresence(), None
    from redis import asyncio as aioredis

    # A bounded pool that waits for a free connection rather than failing a burst.
    pool = aioredis.BlockingConnectionPool.from_url(
        settings.redis_url, max_connections=64, timeout=10
    )
    redis = aioredis.Redis(connection_pool=pool)
    process_id = f"{socket.gethostname()}:{os.getpid()}:{id(settings):x}"
    return RedisHub(redis), RedisPresence(redis, process_id), redis


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    logs.configure(settings.log_level)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.run_migrations:
            await to_thread.run_sync(migrate.upgrade, settings.database_url)
        engine = make_engine(settings.database_url)
        repo = Repository(make_sessionmaker(engine))
        hub, presence, redis = make_fanout(settings)
        metrics = Metrics()
        metrics.track_log(lambda: repo.writer.stats)
        service = RoomService(repo, hub, presence, metrics)
        service.chat_limits = (settings.chat_burst, settings.chat_per_second)
        service.host_grace = settings.host_grace_seconds
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
        prebuild = asyncio.create_task(replays.prebuild(settings.replay_prebuild))
        app.state.repo = repo
        app.state.service = service
        app.state.replays = replays
        app.state.analyses = analyses
        app.state.computer = computer
        try:
            yield
        finally:
            for task in (heartbeat, prebuild):
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
        """200 when the database answers; 503 otherwise, so a balancer drops this replica."""
        try:
            await to_thread.run_sync(app.state.repo.ping)
        except Exception as exc:
            return JSONResponse({"ok": False, "error": type(exc).__name__}, status_code=503)
        return JSONResponse({"ok": True})

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """Prometheus text, for the networks of `METRICS_NETWORKS` only: to anyone else
        the page does not exist."""
        host = request.client.host if request.client else None
        if not allowed(host, metrics_networks):
            return errors.error_response(404, "not_found", "no such page")
        return Response(app.state.service.metrics.render(), media_type=CONTENT_TYPE)

    return app


app = create_app()
