"""A minimal HTTP/1.1 client for the load bench's set-up: JSON over kept-alive sockets.

The set-up sends four requests per room, thousands in a row, from the same two cores as
the server. httpx spent about 4 ms of the client's CPU per request there (92 % of a core
while the server used 79 %), so the bench timed its own client. This speaks just what the
set-up needs: one request at a time per connection, `Content-Length` bodies, and a
connection the server closes is opened again.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Response:
    status_code: int
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def raise_for_status(self) -> None:
        if self.status_code >= 400:
            raise RuntimeError(f"HTTP {self.status_code}: {self.body[:200]!r}")


Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class Http1:
    """`await http.post(path, json=..., headers=...)` on at most `connections` sockets."""

    def __init__(self, url: str, connections: int) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self._free: asyncio.Queue[Stream | None] = asyncio.Queue()
        for _ in range(connections):
            self._free.put_nowait(None)  # a slot, connected on first use

    async def __aenter__(self) -> Http1:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        while not self._free.empty():
            stream = self._free.get_nowait()
            if stream is not None:
                stream[1].close()

    async def post(
        self, path: str, json: Any = None, headers: dict[str, str] | None = None
    ) -> Response:
        return await self.request("POST", path, json, headers)

    async def get(self, path: str, headers: dict[str, str] | None = None) -> Response:
        return await self.request("GET", path, None, headers)

    async def request(
        self, method: str, path: str, body: Any, headers: dict[str, str] | None
    ) -> Response:
        data = b"" if body is None else _json(body)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines.append(f"Content-Length: {len(data)}")
        message = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        stream = await self._free.get()
        try:
            for attempt in (1, 2):  # a kept-alive socket the server closed: once more
                if stream is None:
                    stream = await asyncio.open_connection(self.host, self.port)
                try:
                    response, keep = await _exchange(stream, message)
                except (ConnectionError, asyncio.IncompleteReadError):
                    stream[1].close()
                    stream = None
                    if attempt == 2:
                        raise
                    continue
                if not keep:
                    stream[1].close()
                    stream = None
                return response
            raise AssertionError("unreachable")
        finally:
            self._free.put_nowait(stream)


def _json(body: Any) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode()


async def _exchange(stream: Stream, message: bytes) -> tuple[Response, bool]:
    reader, writer = stream
    writer.write(message)
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionResetError("closed before the response")
    status = int(status_line.split()[1])
    length, keep = 0, True
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        name, value = name.strip().lower(), value.strip()
        if name == "content-length":
            length = int(value)
        elif name == "connection" and value.lower() == "close":
            keep = False
        elif name == "transfer-encoding":
            raise ValueError("chunked responses are not read here")
    return Response(status, await reader.readexactly(length)), keep
