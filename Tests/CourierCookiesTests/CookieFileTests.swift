import Courier
import CourierCookies
import Foundation
import Testing

/// `CookieJar.load(from:)` / `save(to:)`: the Netscape `cookies.txt` format, merged under a lock.
@Suite("Cookies: cookies.txt files")
struct CookieFileTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("saved as curl writes it (0600, one tab-separated line each), loaded back to the same cookies and Cookie fields")
    func roundTrip() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.txt")
        let jar = CookieJar()
        jar.store(
            ["host=1", "wide=2; Domain=example.com; Path=/api", "until=3; Max-Age=3600; HttpOnly"], from: URL(string: "http://www.example.com/x")!)
        jar.store(["safe=4; Secure; SameSite=Strict"], from: URL(string: "https://www.example.com/")!)
        try jar.save(to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("# Netscape HTTP Cookie File\n"))
        #expect(text.contains("www.example.com\tFALSE\t/\tFALSE\t0\thost\t1\n"))
        #expect(text.contains(".example.com\tTRUE\t/api\tFALSE\t0\twide\t2\n"))
        #expect(text.contains("#HttpOnly_www.example.com\tFALSE\t/\tFALSE\t"))
        #expect(text.contains("www.example.com\tFALSE\t/\tTRUE\t0\tsafe\t4\n"))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)

        let loaded = CookieJar()
        try loaded.load(from: file)
        for url in ["http://www.example.com/", "https://www.example.com/api/v1", "http://api.example.com/api"] {
            #expect(loaded.cookieHeader(for: URL(string: url)!) == jar.cookieHeader(for: URL(string: url)!), "\(url)")
        }
        #expect(loaded.all.map(\.name) == ["host", "wide", "until", "safe"], "creation order kept through the file")
        #expect(loaded.all.first { $0.name == "until" }?.isHTTPOnly == true)
    }

    @Test("two jars on one file both keep their changes (merge under a lock, not last writer wins); a deletion carries over")
    func merges() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.txt")
        let site = URL(string: "http://example.org/")!
        let first = CookieJar()
        let second = CookieJar()
        try first.load(from: file)
        try second.load(from: file)
        first.store(["a=1; Max-Age=600"], from: site)
        second.store(["b=2; Max-Age=600"], from: site)
        try first.save(to: file)
        try second.save(to: file)
        #expect(second.cookieHeader(for: site) == "a=1; b=2", "the second jar now holds the first's cookie too")
        first.store(["a=; Max-Age=0"], from: site)
        try first.save(to: file)
        let fresh = CookieJar()
        try fresh.load(from: file)
        #expect(fresh.cookieHeader(for: site) == "b=2")
    }

    @Test("many savers at once, each with its own cookies: every cookie is in the file")
    func concurrentSavers() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.txt")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    let jar = CookieJar()
                    for index in 0..<10 {
                        jar.store(["w\(writer)c\(index)=1; Max-Age=600"], from: URL(string: "http://example.org/")!)
                        try jar.save(to: file)
                    }
                }
            }
            try await group.waitForAll()
        }
        let jar = CookieJar()
        try jar.load(from: file)
        #expect(jar.all.count == 80)
    }

    @Test("a missing file loads nothing; malformed and expired lines are skipped")
    func tolerant() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jar = CookieJar()
        try jar.load(from: folder.appendingPathComponent("none.txt"))
        #expect(jar.all.isEmpty)
        let file = folder.appendingPathComponent("odd.txt")
        let lines = [
            "# comment", "", "too\tfew\tfields", "example.org\tFALSE\t/\tFALSE\t1\told\t1", "example.org\tFALSE\t/\tFALSE\tnope\tbad\t1",
            "example.org\tFALSE\t/\tFALSE\t0\tgood\t1",
        ]
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        try jar.load(from: file)
        #expect(jar.all.map(\.name) == ["good"])
    }
}
