"""A connection sends at once when nothing is queued before, hands a send that has to wait
to its writer task, and never lets a later message overtake an earlier one."""

from __future__ import annotations

import asyncio

from app.rooms.connection import CLOSE_SEND_FAILED, MAX_QUEUE, Connection


class Socket:
    """What `Connection` uses of a WebSocket; `hold` makes sends wait until released."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: list[int] = []
        self.hold: asyncio.Event | None = None
        self.fail = False

    async def send_text(self, text: str) -> None:
        if self.fail:
            raise RuntimeError("the peer went away")
        if self.hold is not None:
            await self.hold.wait()
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed.append(code)


def connection(socket: Socket) -> Connection:
    conn = Connection(socket, "ROOM")  # type: ignore[arg-type]
    conn.start()
    return conn


def test_a_socket_that_takes_it_is_sent_to_at_once_without_the_writer() -> None:
    async def run() -> list[str]:
        socket = Socket()
        conn = connection(socket)
        conn.send("a")
        conn.send("b")
        sent = list(socket.sent)  # before the loop ran anything else
        await conn.finish()
        return sent

    assert asyncio.run(run()) == ["a", "b"]


def test_a_send_that_waits_is_finished_by_the_writer_and_keeps_the_order() -> None:
    async def run() -> tuple[list[str], list[str]]:
        socket = Socket()
        conn = connection(socket)
        socket.hold = asyncio.Event()
        conn.send("a")  # begins, then waits for the socket
        conn.send("b")
        conn.send("c")
        await asyncio.sleep(0.01)
        before = list(socket.sent)
        socket.hold.set()
        await asyncio.sleep(0.01)
        socket.hold = None
        conn.send("d")
        await conn.finish()
        return before, socket.sent

    before, after = asyncio.run(run())
    assert before == []
    assert after == ["a", "b", "c", "d"]


def test_a_send_that_fails_at_once_closes_the_socket() -> None:
    async def run() -> tuple[bool, list[int]]:
        socket = Socket()
        conn = connection(socket)
        socket.fail = True
        conn.send("a")
        conn.send("b")  # ignored: the connection is closed
        await asyncio.sleep(0.01)
        return conn.closed, socket.closed

    closed, codes = asyncio.run(run())
    assert closed
    assert codes == [CLOSE_SEND_FAILED]


def test_a_client_too_far_behind_is_still_closed() -> None:
    async def run() -> tuple[bool, list[int]]:
        socket = Socket()
        conn = connection(socket)
        socket.hold = asyncio.Event()
        for n in range(MAX_QUEUE + 2):
            conn.send(str(n))
        await asyncio.sleep(0.01)
        return conn.closed, socket.closed

    closed, codes = asyncio.run(run())
    assert closed
    assert codes == [4408]
