"""Shared by the browser tests: the real server under uvicorn, and Debian's Chromium.

The server runs in a subprocess on a free port with a fresh SQLite file; the browser is
Debian's chromium driven by Playwright (never a downloaded browser).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import ServerProcess, free_port, http_json

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "free_port", "http_json"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The app under uvicorn, on its own port and database; yields the base URL."""
    process = ServerProcess(tmp_path, {"DATABASE_URL": f"sqlite:///{tmp_path / 'e2e.db'}"})
    try:
        process.start()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield process.url
    finally:
        process.stop()


@pytest.fixture
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
