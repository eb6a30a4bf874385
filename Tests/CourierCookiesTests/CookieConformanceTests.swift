import Courier
import CourierCookies
import Foundation
import Testing

/// The IETF http-state cookie tests (`shared/conformance/cookies/`, read at run time): each test's
/// `Set-Cookie` values stored from `http://home.example.org:8888/cookie-parser?ID`, then the
/// `Cookie` the jar gives `sent-to` compared with `sent`. Dated tests run with the jar's clock at
/// the suite's date (2017-08-09), as other runners of the suite do.
@Suite("Cookies: the IETF http-state parser tests")
struct CookieConformanceTests {
    struct ParserTest: Decodable {
        struct Pair: Decodable, Equatable {
            var name: String
            var value: String
        }

        var test: String
        var received: [String]
        var sentTo: String?
        var sent: [Pair]

        enum CodingKeys: String, CodingKey {
            case test, received, sent
            case sentTo = "sent-to"
        }
    }

    struct DateTest: Decodable {
        var test: String
        var expected: String?
    }

    /// Where the suite's data is: `COOKIE_TESTS_DIR`, or `shared/conformance/cookies` beside the repository.
    static let directory: URL? = {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let repository = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates =
            [ProcessInfo.processInfo.environment["COOKIE_TESTS_DIR"]].compactMap { $0 }
            + [repository.deletingLastPathComponent().appendingPathComponent("shared/conformance/cookies").path, "/work/shared/conformance/cookies"]
        return candidates.map { URL(fileURLWithPath: $0) }.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("parser.json").path)
        }
    }()

    /// The suite's date: its `Expires` dates are judged from then.
    static let suiteDate = Date(timeIntervalSince1970: 1_502_236_800)  // 2017-08-09T00:00:00Z

    /// What the jar sends for `test`.
    static func run(_ test: ParserTest) -> [ParserTest.Pair] {
        let jar = CookieJar(clock: { suiteDate })
        let origin = URL(string: "http://home.example.org:8888/cookie-parser?\(test.test)")!
        jar.store(test.received, from: origin)
        let target =
            test.sentTo.flatMap { URL(string: $0, relativeTo: origin)?.absoluteURL }
            ?? URL(string: "http://home.example.org:8888/cookie-parser-result?\(test.test)")!
        return jar.cookies(for: target).map { ParserTest.Pair(name: $0.name, value: $0.value) }
    }

    @Test("every enabled test passes; the table by prefix", .enabled(if: directory != nil))
    func parserTests() throws {
        let directory = try #require(Self.directory)
        let tests = try JSONDecoder().decode([ParserTest].self, from: Data(contentsOf: directory.appendingPathComponent("parser.json")))
        var byPrefix: [String: (passed: Int, total: Int)] = [:]
        var failed: [String] = []
        for test in tests {
            let prefix = String(test.test.prefix { !$0.isNumber })
            let ok = Self.run(test) == test.sent
            byPrefix[prefix.isEmpty ? "(numbered)" : prefix, default: (0, 0)].total += 1
            if ok { byPrefix[prefix.isEmpty ? "(numbered)" : prefix, default: (0, 0)].passed += 1 }
            if !ok, !test.test.hasPrefix("DISABLED_") { failed.append(test.test) }
        }
        let enabled = tests.filter { !$0.test.hasPrefix("DISABLED_") }
        print("IETF http-state parser tests, by prefix (jar clock 2017-08-09):")
        for (prefix, score) in byPrefix.sorted(by: { $0.key < $1.key }) {
            print("  \(prefix.padding(toLength: 20, withPad: " ", startingAt: 0)) \(score.passed)/\(score.total)")
        }
        print("  enabled: \(enabled.count - failed.count)/\(enabled.count)")
        #expect(enabled.count == 218)
        #expect(failed.isEmpty, "failed: \(failed)")
    }

    @Test("the suite's date strings parse to the dates it gives (or to none)", .enabled(if: directory != nil))
    func dates() throws {
        let directory = try #require(Self.directory)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for file in ["dates-examples.json", "dates-bsd-examples.json"] {
            // The BSD file opens with its licence as `//` comment lines, which JSON has not.
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let json = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("//") }.joined(separator: "\n")
            let tests = try JSONDecoder().decode([DateTest].self, from: Data(json.utf8))
            var wrong: [String] = []
            for test in tests {
                // `Expires` parsed by the jar: the cookie stored with exactly that date (the jar's
                // clock a day before it, so neither the past nor the 400-day cap interferes), or the
                // attribute ignored — a session cookie.
                let expected = test.expected.flatMap { formatter.date(from: $0) }
                let now = expected?.addingTimeInterval(-86_400) ?? Date(timeIntervalSince1970: 0)
                let jar = CookieJar(clock: { now })
                jar.store(["d=1; Expires=\(test.test)"], from: URL(string: "http://example.org/")!)
                let stored = jar.all
                if stored.count != 1 || stored[0].expires != expected { wrong.append(test.test) }
            }
            print("\(file): \(tests.count - wrong.count)/\(tests.count)")
            #expect(wrong.isEmpty, "\(file): \(wrong)")
        }
    }
}
