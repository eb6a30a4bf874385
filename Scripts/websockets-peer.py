#!/usr/bin/env python3
"""A WebSocket peer no one here wrote: Python's `websockets` library, as an echo server on loopback.

Used by CourierWebSocketTests' conformance suite. Prints its port on the first line, then serves
until stdin closes. Paths:
  /echo             echoes text and binary; the text "close:CODE:REASON" closes with that code;
                    the text "latency?" answers with the round trip of the last keepalive ping
                    the client answered (0 before the first pong)
  /fragmented       sends a text and a binary message in fragments, then echoes
  /invalid-utf8     sends a text frame that is not UTF-8
  /close/CODE       closes at once with CODE and the reason "peer says bye"
  /report           sends one JSON text: the close codes and reasons clients sent, oldest first
"""
import asyncio
import json
import sys

from websockets.asyncio.server import serve

closes = []


async def handler(connection):
    path = connection.request.path
    try:
        if path == "/report":
            await connection.send(json.dumps(closes))
            return
        if path.startswith("/close/"):
            await connection.close(int(path.rsplit("/", 1)[1]), "peer says bye")
            return
        if path == "/invalid-utf8":
            async with connection.send_context():
                connection.protocol.send_text(b"{\xc3\x28}")
        if path == "/fragmented":
            await connection.send(["frag", "ment", "ed ✓"])
            await connection.send([b"\x00\x01", b"\x02", b"\x03\xff"])
        async for message in connection:
            if isinstance(message, str) and message.startswith("close:"):
                _, code, reason = message.split(":", 2)
                await connection.close(int(code), reason)
                return
            if message == "latency?":
                await connection.send(repr(connection.latency))
                continue
            await connection.send(message)
    finally:
        await connection.wait_closed()
        received = connection.protocol.close_rcvd
        if received is not None:
            closes.append({"path": path, "code": received.code, "reason": received.reason})


async def main():
    async with serve(handler, "127.0.0.1", 0, max_size=16 * 1024 * 1024, ping_interval=0.2, ping_timeout=5) as server:
        port = server.sockets[0].getsockname()[1]
        print(port, flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)


asyncio.run(main())
