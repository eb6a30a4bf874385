#!/usr/bin/env python3
"""A small HTTP CONNECT proxy for Courier's tests: it tunnels, requires credentials when asked,
and reports what it saw.

    python3 Scripts/connect-proxy.py [--user NAME --password SECRET] [--only-443]

Prints its port on the first line of stdout, then one JSON line per request it received:
{"method": "CONNECT", "target": "127.0.0.1:8080", "authorization": "Basic …" or null, "status": 200}.
`--only-443` refuses CONNECT to any port but 443 (403), as many corporate proxies do.
"""
import argparse
import asyncio
import base64
import json
import sys


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--only-443", action="store_true")
    options = parser.parse_args()
    expected = None
    if options.user is not None:
        expected = "Basic " + base64.b64encode(f"{options.user}:{options.password}".encode()).decode()

    async def handle(reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        method, target = (lines[0].split(" ") + ["", ""])[:2]
        fields = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                fields[name.strip().lower()] = value.strip()
        authorization = fields.get("proxy-authorization")
        status = 200
        if method != "CONNECT":
            status = 405
        elif expected is not None and authorization != expected:
            status = 407
        elif options.only_443 and not target.endswith(":443"):
            status = 403
        print(json.dumps({"method": method, "target": target, "authorization": authorization, "status": status}), flush=True)
        if status != 200:
            extra = 'Proxy-Authenticate: Basic realm="tests"\r\n' if status == 407 else ""
            writer.write(f"HTTP/1.1 {status} No\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            writer.close()
            return
        host, _, port = target.rpartition(":")
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(host.strip("[]"), int(port))
        except OSError:
            writer.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            writer.close()
            return
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        await writer.drain()
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    async def serve():
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        print(server.sockets[0].getsockname()[1], flush=True)
        async with server:
            await server.serve_forever()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
