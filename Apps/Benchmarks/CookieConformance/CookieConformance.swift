import Courier
import CourierAsyncHTTPClient
import CourierCookies
import Foundation

/// Runs the IETF http-state cookie parser tests (`shared/conformance/cookies/`, read at run time)
/// against Courier's `CookieJar`, two ways, and prints passed/total by prefix:
///
/// - **jar**: each test's `Set-Cookie` values stored from `http://home.example.org:8888/cookie-parser?ID`,
///   then the jar asked for the cookies of the `sent-to` URL;
/// - **http**: over sockets, as an app meets them — a raw origin on 127.0.0.1 answers the values
///   byte for byte, a `NetworkClient` with `CookieMiddleware` and the AsyncHTTPClient transport
///   makes both requests (the suite's host names mapped to 127.0.0.1 with `Settings.resolve`, as
///   its `hosts` file says), and the origin reports the `Cookie` field it received.
///
/// Dated tests run with the jar's clock at the suite's date (2017-08-09). `DISABLED_` tests are
/// reported apart. Usage: `CookieConformance [--dir DIR] [--only jar|http] [--verbose]`.
@main
struct CookieConformance {
    static let suiteDate = Date(timeIntervalSince1970: 1_502_236_800)  // 2017-08-09T00:00:00Z

    static func main() async throws {
        var arguments = CommandLine.arguments.dropFirst()
        var directory: String?
        var only: String?
        var verbose = false
        while let argument = arguments.popFirst() {
            switch argument {
            case "--dir": directory = arguments.popFirst()
            case "--only": only = arguments.popFirst()
            case "--verbose": verbose = true
            default:
                print("usage: CookieConformance [--dir DIR] [--only jar|http] [--verbose]")
                exit(64)
            }
        }
        guard let folder = directory.map(URL.init(fileURLWithPath:)) ?? defaultDirectory() else {
            print("the cookie tests are not here: give --dir DIR (the folder holding parser.json), or COOKIE_TESTS_DIR")
            exit(66)
        }
        let tests = try JSONDecoder().decode([ParserTest].self, from: Data(contentsOf: folder.appendingPathComponent("parser.json")))
        let hosts = try String(contentsOf: folder.appendingPathComponent("hosts"), encoding: .utf8)
            .split(separator: "\n").compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
        print("IETF http-state parser tests: \(tests.count) from \(folder.path); jar clock at 2017-08-09 for the dated ones")
        var columns: [(String, [String: Bool])] = []
        if only != "http" {
            columns.append(("jar", Dictionary(uniqueKeysWithValues: tests.map { ($0.test, jarRun($0) == $0.sentHeader) })))
        }
        if only != "jar" {
            columns.append(("http", try await httpRun(tests, hosts: hosts, verbose: verbose)))
        }
        report(tests, columns)
    }

    /// `COOKIE_TESTS_DIR`, or `shared/conformance/cookies` beside the repository.
    static func defaultDirectory() -> URL? {
        let here = URL(fileURLWithPath: #filePath)
        var candidates = [ProcessInfo.processInfo.environment["COOKIE_TESTS_DIR"]].compactMap { $0 }
        var folder = here.deletingLastPathComponent()
        for _ in 0..<6 {
            folder = folder.deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent("shared/conformance/cookies").path)
        }
        return candidates.map(URL.init(fileURLWithPath:)).first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("parser.json").path)
        }
    }

    /// The `Cookie` field the jar gives the test's second request.
    static func jarRun(_ test: ParserTest) -> String {
        let jar = CookieJar(clock: { suiteDate })
        let origin = URL(string: "http://home.example.org:8888/cookie-parser?\(test.test)")!
        jar.store(test.received, from: origin)
        return jar.cookies(for: test.target(origin: origin)).map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Both requests of every test over sockets; the `Cookie` field the origin received.
    static func httpRun(_ tests: [ParserTest], hosts: [String], verbose: Bool) async throws -> [String: Bool] {
        let origin = try await RawCookieOrigin(setCookies: Dictionary(tests.map { ($0.test, $0.received) }, uniquingKeysWith: { a, _ in a }))
        var settings = HTTPClientTransport.Settings()
        settings.resolve = Dictionary(hosts.map { ($0.hasSuffix(".") ? String($0.dropLast()) : $0, "127.0.0.1") }, uniquingKeysWith: { a, _ in a })
        let transport = HTTPClientTransport(settings: settings)
        var results: [String: Bool] = [:]
        for test in tests {
            let jar = CookieJar(clock: { suiteDate })
            var configuration = NetworkClient.Configuration(transport: transport, middlewares: [CookieMiddleware(jar: jar)])
            configuration.insecureHostsAllowed = Set(settings.resolve.keys)
            let client = NetworkClient(configuration: configuration)
            let first = URL(string: "http://home.example.org:8888/cookie-parser?\(test.test)")!
            let target = test.target(origin: first)
            do {
                _ = try await client.response(RawEndpoint(url: first, port: origin.port))
                let answer = try await client.response(RawEndpoint(url: target, port: origin.port))
                let received = String(decoding: answer.body, as: UTF8.self)
                results[test.test] = received == test.sentHeader
                if verbose, received != test.sentHeader { print("  \(test.test): sent \"\(received)\", expected \"\(test.sentHeader)\"") }
            } catch {
                results[test.test] = false
                if verbose { print("  \(test.test): \(error)") }
            }
        }
        try await transport.shutdown()
        await origin.close()
        return results
    }

    /// passed/total by prefix for each column, then the enabled and disabled totals and the peers.
    static func report(_ tests: [ParserTest], _ columns: [(String, [String: Bool])]) {
        var prefixes: [String: [ParserTest]] = [:]
        for test in tests where !test.test.hasPrefix("DISABLED_") { prefixes[test.prefix, default: []].append(test) }
        let header = "prefix".padding(toLength: 18, withPad: " ", startingAt: 0) + columns.map { $0.0.leftPadded(10) }.joined()
        print(header)
        func row(_ name: String, _ group: [ParserTest]) {
            let cells = columns.map { column in "\(group.filter { column.1[$0.test] == true }.count)/\(group.count)".leftPadded(10) }
            print(name.padding(toLength: 18, withPad: " ", startingAt: 0) + cells.joined())
        }
        for (prefix, group) in prefixes.sorted(by: { $0.key < $1.key }) { row(prefix, group) }
        let enabled = tests.filter { !$0.test.hasPrefix("DISABLED_") }
        let disabled = tests.filter { $0.test.hasPrefix("DISABLED_") }
        row("enabled", enabled)
        row("DISABLED_ (apart)", disabled)
        print("peers on the 210 enabled tests without dates (measured, see the notes): curl 7.88 195, Python http.cookiejar 171")
        let failed = columns.contains { column in enabled.contains { column.1[$0.test] != true } }
        if failed { exit(1) }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
