"""An answer's head and body go out in one write (referee/one_write.py), on a real event loop and socket."""

from __future__ import annotations

import asyncio
import socket

from referee.one_write import HeldHeadTransport

from .own_loop import run_in_own_loop

HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n"


async def _pair():
    """A real loopback connection: the server side's transport, wrapped, and its write calls counted."""
    loop = asyncio.get_running_loop()
    server_sock, client_sock = socket.socketpair()
    transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, server_sock)
    writes: list[bytes] = []
    real_write = transport.write

    def write(data: bytes) -> None:
        writes.append(bytes(data))
        real_write(data)

    transport.write = write  # the real transport, its calls recorded
    client_sock.setblocking(False)
    return loop, HeldHeadTransport(transport, loop), writes, client_sock


async def _read(loop, sock, size: int) -> bytes:
    data = b""
    while len(data) < size:
        data += await loop.sock_recv(sock, size - len(data))
    return data


def test_a_head_and_the_body_sent_in_the_same_turn_are_one_write():
    async def scenario():
        loop, held, writes, client = await _pair()
        held.write(HEAD)
        held.write(b"hello")
        assert writes == [HEAD + b"hello"]
        assert await _read(loop, client, len(HEAD) + 5) == HEAD + b"hello"
        held.close()
        client.close()

    run_in_own_loop(scenario)


def test_a_head_with_no_body_yet_goes_out_at_the_loops_next_turn():
    async def scenario():
        loop, held, writes, client = await _pair()
        held.write(HEAD)  # a live stream's head: its first event comes later
        assert writes == []
        await asyncio.sleep(0)
        assert writes == [HEAD]
        held.write(b"hello")  # a later body is written as it is
        assert writes == [HEAD, b"hello"]
        assert await _read(loop, client, len(HEAD) + 5) == HEAD + b"hello"
        held.close()
        client.close()

    run_in_own_loop(scenario)


def test_closing_sends_a_held_head_first_and_other_writes_pass_straight_through():
    async def scenario():
        loop, held, writes, client = await _pair()
        held.write(b"not a head")
        assert writes == [b"not a head"]
        held.write(HEAD)
        held.close()
        assert writes == [b"not a head", HEAD]
        assert await _read(loop, client, 10 + len(HEAD)) == b"not a head" + HEAD
        assert held.is_closing()  # everything else is the transport's own
        client.close()

    run_in_own_loop(scenario)
