"""The application factory and its lifespan: migrate, wire the service, serve."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from anyio import to_thread
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from app.config import ROOT, Settings, get_settings
from app.rooms.hub import Hub, LocalHub
from app.rooms.service import RoomService
from app.store import migrate
from app.store.db import make_engine, make_sessionmaker
from app.store.repository import Repository
from app.web import api, errors, pages, ws


def make_hub(settings: Settings) -> Hub:
    return LocalHub()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.run_migrations:
            await to_thread.run_sync(migrate.upgrade, settings.database_url)
        engine = make_engine(settings.database_url)
        repo = Repository(make_sessionmaker(engine))
        service = RoomService(repo, make_hub(settings))
        await service.start()
        app.state.repo = repo
        app.state.service = service
        try:
            yield
        finally:
            await service.stop()
            engine.dispose()

    app = FastAPI(title="Labyrinth", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.settings = settings
    app.state.templates = Jinja2Templates(directory=str(ROOT / "templates"))
    app.state.rules_pages = {path.stem for path in (ROOT / "templates" / "rules").glob("*.html")}
    errors.install(app)
    app.include_router(api.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=str(ROOT / "static")), name="static")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        await to_thread.run_sync(app.state.repo.ping)
        return {"ok": True}

    return app


app = create_app()
