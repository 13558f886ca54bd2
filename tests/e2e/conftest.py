"""Shared by the browser tests: the real server under uvicorn, and Debian's Chromium.

The server runs in a subprocess on a free port with a fresh SQLite file; the browser is
Debian's chromium driven by Playwright (never a downloaded browser).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

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

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "free_port", "http_json", "join_room"]
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test; each is skipped, saying why, only on a
    machine without Debian's chromium (`.ci/run` and `scripts/test` install it)."""
    missing = not Path(CHROMIUM).exists()
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)
            if missing:
                item.add_marker(pytest.mark.skip(reason=f"no Chromium at {CHROMIUM}"))


def join_room(page: Any, url: str, name: str, seat: int) -> None:
    """Take a seat from the room page, as a person would, and wait until it is ours."""
    page.goto(url)
    page.fill("[data-testid=join-name]", name)
    page.click("[data-testid=join-button]")
    page.wait_for_selector(f"[data-testid=seat-{seat}].mine")


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
