"""The client's files (`static/`), served from memory: compressed once, validated by
ETag, and kept for good by browsers that ask for them by their versioned URL.

Serving them from memory costs no worker thread per file (a page asks for a dozen at
once, and the replay page's first frame waits for all of its modules). The client is
plain ES modules importing each other by relative URL (`./i18n.js`); every page carries
an import map that sends each of those to the file's versioned URL
(`/static/js/i18n.js?v=<hash>`), so a browser keeps a module until the file changes,
without a build step and without asking again on the next page.

A file changed on disk while the server runs (a developer's edit) is read again. Files
are known by their one canonical name (`js/i18n.js`): any other spelling of a path
(`js/x/../i18n.js`, `js//i18n.js`) is not found, so no request can add an entry, grow
memory or lengthen every page's import map.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import posixpath
from dataclasses import dataclass
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.web.errors import error_response

COMPRESSIBLE = {".js", ".css", ".svg", ".json", ".html", ".txt", ".map"}
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}
FOREVER = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@dataclass(frozen=True)
class Asset:
    body: bytes
    packed: bytes | None  # gzipped, for the types worth it
    version: str
    media_type: str
    stamp: tuple[int, int]  # (mtime_ns, size) when read

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


class Assets:
    """Every file under `root`, by its path relative to it (`js/replay.js`)."""

    def __init__(self, root: Path) -> None:
        self._root = root.resolve()
        self._items: dict[str, Asset] = {}
        for path in sorted(self._root.rglob("*")):
            if path.is_file():
                self.get(path.relative_to(self._root).as_posix())

    def get(self, name: str) -> Asset | None:
        """The file `name`, read again if it changed on disk; None for a name that is not
        a file's canonical name under `root` (missing, outside, or spelled otherwise)."""
        if not canonical(name):
            return None
        try:
            path = self._root / name
            real = path.resolve()
            info = path.stat() if real == path and path.is_file() else None
        except (OSError, ValueError):  # a name no file can have (a NUL byte, too long)
            info = None
        if info is None:
            self._items.pop(name, None)
            return None
        stamp = (info.st_mtime_ns, info.st_size)
        item = self._items.get(name)
        if item is None or item.stamp != stamp:
            item = _read(path, stamp)
            self._items[name] = item
        return item

    def url(self, name: str) -> str:
        """The versioned URL of `name`, to be cached for good; plain if there is no such
        file (the request then answers 404)."""
        item = self.get(name)
        return f"/static/{name}" if item is None else f"/static/{name}?v={item.version}"

    def import_map(self) -> dict[str, dict[str, str]]:
        """Every module's URL to its versioned one (`<script type="importmap">`)."""
        modules = sorted(name for name in self._items if name.endswith(".js"))
        return {"imports": {f"/static/{name}": self.url(name) for name in modules}}


def canonical(name: str) -> bool:
    """True for a relative path written the one way: no `.`/`..` segment, no empty
    segment, no backslash, not too long."""
    return (
        0 < len(name) <= 255
        and "\\" not in name
        and not name.startswith("/")
        and posixpath.normpath(name) == name
        and ".." not in name.split("/")
    )


def _read(path: Path, stamp: tuple[int, int]) -> Asset:
    body = path.read_bytes()
    suffix = path.suffix.lower()
    media_type = MEDIA_TYPES.get(suffix) or mimetypes.guess_type(path.name)[0]
    packed = gzip.compress(body, 9, mtime=0) if suffix in COMPRESSIBLE else None
    return Asset(
        body=body,
        packed=packed if packed is not None and len(packed) < len(body) else None,
        version=hashlib.sha256(body).hexdigest()[:16],
        media_type=media_type or "application/octet-stream",
        stamp=stamp,
    )


router = APIRouter()


@router.api_route("/static/{name:path}", methods=["GET", "HEAD"], include_in_schema=False)
async def static_file(name: str, request: Request) -> Response:
    """A client file: 304 when the browser's copy is current, gzipped when it may be."""
    item = request.app.state.assets.get(name)
    if item is None:
        # the API's error shape (a script or style the page asked for is not there)
        return error_response(404, "not_found", f"no static file {name[:80]!r}")
    versioned = request.query_params.get("v") == item.version
    headers = {"ETag": item.etag, "Cache-Control": FOREVER if versioned else REVALIDATE}
    if item.packed is not None:
        headers["Vary"] = "Accept-Encoding"
    if item.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    body = item.body
    if item.packed is not None and "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        body = item.packed
    if request.method == "HEAD":
        headers["Content-Length"] = str(len(body))
        return Response(status_code=200, headers=headers, media_type=item.media_type)
    return Response(body, headers=headers, media_type=item.media_type)
