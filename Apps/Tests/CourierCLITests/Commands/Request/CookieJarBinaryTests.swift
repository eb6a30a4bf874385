import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `courier request --cookie-jar FILE` (`-c`): the built binary against the sandbox's `/cookies`
/// routes, and the file read and written by curl too.
@Suite("courier request --cookie-jar: a cookies.txt kept between runs")
struct CookieJarBinaryTests {
    struct Echo: Decodable {
        var cookies: [String: String]
    }

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cli-cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the cookie a redirect sets is saved (0600) and sent by the next run")
    func keptBetweenRuns() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jar = folder.appendingPathComponent("cookies.txt").path
        try await RequestOutputTests.withSandbox { base in
            let first = try await RequestOutputTests.courier(["request", base + "/cookies/set?session=abc", "--cookie-jar", jar])
            #expect(first.status == .exited(0), "\(first.errors)")
            #expect(try JSONDecoder().decode(Echo.self, from: first.output).cookies == ["session": "abc"])
            let text = try String(contentsOfFile: jar, encoding: .utf8)
            #expect(text.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tabc"), "\(text)")
            #expect((try FileManager.default.attributesOfItem(atPath: jar)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let second = try await RequestOutputTests.courier(["request", base + "/cookies", "-c", jar])
            #expect(try JSONDecoder().decode(Echo.self, from: second.output).cookies == ["session": "abc"])
        }
    }

    @Test(
        "curl reads the file courier writes, and courier the file curl writes",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func curlInterop() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours.txt").path
        let theirs = folder.appendingPathComponent("theirs.txt").path
        try await RequestOutputTests.withSandbox { base in
            _ = try await RequestOutputTests.courier(["request", base + "/cookies/set?from=courier", "-c", ours])
            let curlReads = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-b", ours, base + "/cookies"], scratch: folder)
            #expect(try JSONDecoder().decode(Echo.self, from: Data(curlReads.output.utf8)).cookies == ["from": "courier"])
            _ = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-L", "-c", theirs, base + "/cookies/set?from=curl"], scratch: folder)
            let courierReads = try await RequestOutputTests.courier(["request", base + "/cookies", "-c", theirs])
            #expect(try JSONDecoder().decode(Echo.self, from: courierReads.output).cookies == ["from": "curl"])
        }
    }
}

/// `courier request --max-redirs N`.
@Suite("courier request --max-redirs")
struct MaxRedirectsBinaryTests {
    @Test("N redirects are followed; one more fails with exit 10")
    func bound() async throws {
        try await RequestOutputTests.withSandbox { base in
            let within = try await RequestOutputTests.courier(["request", base + "/redirect/2", "--max-redirs", "2"])
            #expect(within.status == .exited(0), "\(within.errors)")
            let over = try await RequestOutputTests.courier(["request", base + "/redirect/3", "--max-redirs", "2"])
            #expect(over.status == .exited(10), "\(over.errors)")
            let bad = try await RequestOutputTests.courier(["request", base + "/redirect/1", "--max-redirs", "-1"])
            #expect(bad.status == .exited(64))
        }
    }
}
