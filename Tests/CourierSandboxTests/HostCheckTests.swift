import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

@testable import CourierSandbox

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sandbox answers only to its own names in `Host` (DNS rebinding: a web page whose name
/// resolves to 127.0.0.1 still sends its own name).
@Suite("Sandbox: only its own names in Host")
struct HostCheckTests {
    @Test("127.0.0.1, localhost and [::1] — with the sandbox's port or none, in any case — are answered")
    func ownNames() async throws {
        try await withSandbox { sandbox in
            let port = sandbox.port
            for host in ["127.0.0.1:\(port)", "127.0.0.1", "localhost:\(port)", "localhost", "LocalHost:\(port)", "[::1]:\(port)", "[::1]"] {
                let answer = try await LoopbackConnection.get("/json", host: host, port: port)
                #expect(answer.status == 200, "Host: \(host) → \(answer.text)")
            }
        }
    }

    @Test("another name, another port, a malformed Host: 421 with a short JSON error, on every route")
    func otherNamesRefused() async throws {
        try await withSandbox { sandbox in
            let port = sandbox.port
            let refused = [
                "evil.example:\(port)", "evil.example", "127.0.0.1:\(port + 1 > 65535 ? 1 : port + 1)", "localhost:80",
                "127.0.0.2:\(port)", "user@127.0.0.1:\(port)", "127.0.0.1:", "127.0.0.1:abc", "[::1", "localhost.:\(port)",
            ]
            for host in refused {
                let answer = try await LoopbackConnection.get("/json", host: host, port: port)
                #expect(answer.status == 421, "Host: \(host) → \(answer.text)")
            }
            // The User API and a route that does not exist are behind the same check.
            for path in ["/api/v1/users/1", "/no/such/route", "/probe/stats"] {
                let answer = try await LoopbackConnection.get(path, host: "rebound.example:\(port)", port: port)
                #expect(answer.status == 421, "\(path) → \(answer.text)")
            }
            let answer = try await sandbox.send(.GET, "/json", headers: [("Host", "evil.example:\(port)")])
            #expect(answer.status == 421 && answer.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(answer.object["error"] as? String == "misdirected_request")
            #expect((answer.object["message"] as? String)?.contains("--host-name") == true, "\(answer.text)")
        }
    }

    @Test("a POST from a rebound page registers nobody")
    func reboundRegistrationRefused() async throws {
        try await withAccountsSandbox { sandbox, _ in
            let body = #"{"username":"rebound1","password":"Passw0rd!","name":"a","email":"a@b.co","age":20}"#
            let refused = try await sandbox.send(
                .POST, "/api/v1/users", headers: [("Host", "evil.example:\(sandbox.port)"), ("Content-Type", "application/json")],
                body: Array(body.utf8))
            #expect(refused.status == 421)
            // Not registered: the same body from a proper client is not a duplicate.
            let registered = try await sandbox.send(.POST, "/api/v1/users", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
            #expect(registered.status == 201, "\(registered.text)")
        }
    }

    @Test("names in Options.extraHostNames are answered (their port must be the sandbox's); others still are not")
    func extraNames() async throws {
        var options = SandboxServer.Options()
        options.extraHostNames = ["DevBox.local", "192.168.7.7", "fe80::1"]
        let sandbox = try await SandboxServer.start(options: options, logger: quietLogger)
        defer { Task { await sandbox.stop() } }
        let port = sandbox.port
        for host in ["devbox.local:\(port)", "devbox.local", "192.168.7.7:\(port)", "[fe80::1]:\(port)", "127.0.0.1:\(port)"] {
            let answer = try await LoopbackConnection.get("/json", host: host, port: port)
            #expect(answer.status == 200, "Host: \(host)")
        }
        for host in ["devbox.local:\(port == 1 ? 2 : 1)", "other.local:\(port)"] {
            let answer = try await LoopbackConnection.get("/json", host: host, port: port)
            #expect(answer.status == 421, "Host: \(host)")
        }
    }

    @Test("no Host, or two: 400 (RFC 9112 §3.2)")
    func missingOrDoubleHost() async throws {
        try await withSandbox { sandbox in
            let none = try LoopbackConnection(port: sandbox.port)
            none.send("GET /json HTTP/1.0\r\n\r\n")
            let missing = await none.read { $0.contains("exactly one Host") }
            #expect(missing.text.hasPrefix("HTTP/1.1 400") && missing.text.contains("exactly one Host"), "\(missing.text)")
            let two = try LoopbackConnection(port: sandbox.port)
            two.send("GET /json HTTP/1.1\r\nHost: 127.0.0.1:\(sandbox.port)\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            let answer = await two.read { $0.contains("exactly one Host") }
            #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text)")
        }
    }

    @Test("a WebSocket upgrade for another name is not upgraded (declined: 400, as Hummingbird answers every declined upgrade)")
    func webSocketUpgradeRefused() async throws {
        try await withSandbox { sandbox in
            let upgrade = { (host: String) in
                "GET /ws/echo HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            }
            let evil = try LoopbackConnection(port: sandbox.port)
            evil.send(upgrade("evil.example:\(sandbox.port)"))
            let refused = await evil.read { $0.contains("\r\n\r\n") }
            #expect(refused.text.hasPrefix("HTTP/1.1 400"), "\(refused.text)")
            let own = try LoopbackConnection(port: sandbox.port)
            own.send(upgrade("127.0.0.1:\(sandbox.port)"))
            let upgraded = await own.read { $0.contains("\r\n\r\n") }
            #expect(upgraded.text.hasPrefix("HTTP/1.1 101"), "\(upgraded.text)")
        }
    }

    @Test("SandboxHostNames: a Host value is split into host and port, or refused")
    func splitting() {
        #expect(SandboxHostNames.split("127.0.0.1:8080")! == ("127.0.0.1", 8080))
        #expect(SandboxHostNames.split("[::1]:443")! == ("[::1]", 443))
        #expect(SandboxHostNames.split("[::1]")! == ("[::1]", nil))
        #expect(SandboxHostNames.split("localhost")! == ("localhost", nil))
        for bad: Substring in ["", ":80", "host:", "host:+80", "host:65536", "host:123456", "a:b:c", "[::1]x", "[::1", "u@host:1"] {
            #expect(SandboxHostNames.split(bad) == nil, "\(bad)")
        }
        let names = SandboxHostNames(boundHost: "0.0.0.0", extra: ["::2"])
        #expect(names.names == ["127.0.0.1", "localhost", "[::1]", "[::2]"])
        #expect(SandboxHostNames(boundHost: "10.0.0.5", extra: []).allows("10.0.0.5:9", port: 9))
        #expect(!SandboxHostNames(boundHost: "10.0.0.5", extra: []).allows("10.0.0.5:9", port: 8))
    }
}
