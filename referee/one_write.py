"""uvicorn's HTTP protocol, sending an answer's head and its body in one write.

uvicorn writes a response's head to the socket when the app starts the answer and its body when
the app sends it: two `send` system calls for every answer. On loopback and on a laptop's Wi-Fi
each costs far more than the bytes (the kernel delivers them, and wakes the reader, inside the
call), and under the load benchmark they were a third of the serving process's time. Here a head
is held until the body that follows it in the same turn of the loop, and written with it; a head
with no body in that turn (a live stream's, or one whose body is still being made) goes out at the
end of the turn, so nothing waits longer than it did. A request's own head must arrive in time
(HEAD_SECONDS).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_SECONDS = 20.0  # a request's head (its line and headers) arrives within this, or the connection is closed
HEAD_START = b"HTTP/1."
HEAD_END = b"\r\n\r\n"


class HeldHeadTransport:
    """A connection's transport that holds a response head until the next write (or the loop's next
    turn) and writes them together. Everything but `write` and `close` is the transport's own."""

    __slots__ = ("_transport", "_loop", "_held")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: bytes | None = None

    def write(self, data: bytes) -> None:
        held = self._held
        if held is not None:
            self._held = None
            self._transport.write(held + data)
        elif data.startswith(HEAD_START) and data.endswith(HEAD_END):
            self._held = bytes(data)
            self._loop.call_soon(self.flush)
        else:
            self._transport.write(data)

    def flush(self) -> None:
        held = self._held
        if held is not None:
            self._held = None
            self._transport.write(held)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def __getattr__(self, name: str):
        return getattr(self._transport, name)


class OneWriteProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol whose answers go out in one write (see the module's docstring), and
    which closes a connection whose request head has not arrived HEAD_SECONDS after it opened (or after
    the request's first byte, on a kept-alive connection). uvicorn waits for a head for ever: a client
    on the Wi-Fi holding connections open that send nothing, or half a head, filled the connection limit
    and every phone was answered 503."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = HeldHeadTransport(transport, self.loop)  # type: ignore[assignment]
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._head_timer is None:  # the next request of a kept-alive connection
            self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

    def on_headers_complete(self) -> None:
        self._stop_head_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()
