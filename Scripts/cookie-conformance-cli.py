#!/usr/bin/env python3
"""The IETF http-state cookie parser tests (shared/conformance/cookies/) through the `courier` binary.

    Scripts/cookie-conformance-cli.py COURIER [--dir DIR] [--verbose]

For each test, two processes, as a user runs them: `courier request --cookie-jar JAR` of
`http://home.example.org:PORT/cookie-parser?ID`, then of the test's `sent-to` URL, each host of the
suite's `hosts` file mapped to 127.0.0.1 with `--resolve`. The origin (a raw socket server here)
is the suite's own: it answers `/cookie-parser?ID` — the query exactly the id — with the test's
`Set-Cookie` values byte for byte, and any other request with the `Cookie` field it received as
the body. The jar's clock is the real one (the CLI has no other), so tests with absolute dates in
the suite's past fail alike in every run. Prints passed/total of the enabled tests and exits 0.
"""
import json, os, socket, subprocess, sys, tempfile, threading, urllib.parse


def origin(tests):
    """A listening origin on 127.0.0.1; returns its port."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)

    def serve(connection):
        with connection:
            head = b""
            while b"\r\n\r\n" not in head and len(head) < 65536:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                head += chunk
            lines = head.split(b"\r\n")
            target = lines[0].split(b" ")[1].decode("latin-1")
            path, _, query = target.partition("?")
            fields = [b"HTTP/1.1 200 OK", b"Connection: close"]
            body = b""
            if path == "/cookie-parser":
                fields += [b"Set-Cookie: " + value.encode("utf-8") for value in tests.get(query, [])]
            else:
                body = b"; ".join(line.split(b":", 1)[1].strip() for line in lines[1:] if line.lower().startswith(b"cookie:"))
            fields.append(b"Content-Length: %d" % len(body))
            connection.sendall(b"\r\n".join(fields) + b"\r\n\r\n" + body)

    def accept():
        while True:
            connection, _ = server.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return server.getsockname()[1]


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    courier = args.pop(0)
    folder = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "conformance", "cookies")
    verbose = "--verbose" in args
    if "--dir" in args:
        folder = args[args.index("--dir") + 1]
    tests = json.load(open(os.path.join(folder, "parser.json")))
    hosts = [line.split()[1].rstrip(".") for line in open(os.path.join(folder, "hosts")) if line.strip()]
    port = origin({test["test"]: test["received"] for test in tests})
    resolve = [argument for host in sorted(set(hosts)) for argument in ("--resolve", f"{host}:{port}:127.0.0.1")]
    enabled = [test for test in tests if not test["test"].startswith("DISABLED_")]
    passed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for test in enabled:
            jar = os.path.join(scratch, test["test"] + ".txt")
            first = f"http://home.example.org:{port}/cookie-parser?{test['test']}"
            default = f"http://home.example.org:8888/cookie-parser-result?{test['test']}"
            second = urllib.parse.urljoin(first, test.get("sent-to", default).replace(":8888", f":{port}"))
            run = lambda url: subprocess.run(
                [courier, "request", "--cookie-jar", jar, *resolve, "--allow-insecure", url], capture_output=True, timeout=60)
            run(first)
            answer = run(second).stdout.decode("utf-8", "replace")
            expected = "; ".join(f"{pair['name']}={pair['value']}" for pair in test["sent"])
            passed += answer == expected
            if verbose and answer != expected:
                print(f"  {test['test']}: sent {answer!r}, expected {expected!r}")
    print(f"IETF http-state parser tests through `courier request --cookie-jar`: {passed}/{len(enabled)} enabled tests passed")


if __name__ == "__main__":
    main()
