import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The rows of the seed's Raon app that `courier raon` was missing (issue 40): filter choices,
/// favourites shown, sharing, reminders that ring, links opened, settings, the data's source and
/// the offline notice — the built binary against the sandbox's stand-in, each test in a private
/// HOME with its own XDG folders.
@Suite("courier raon: the app's last rows, end to end", .serialized)
struct RaonAppBinaryTests {
    static let key = "CourierTestKey0123456789abcdef"
    static let today = "2026-11-20"

    /// `--base-url`, `--key` and `--today` for `sandbox`'s stand-in.
    static func service(_ sandbox: RunningSandbox) -> [String] {
        ["--base-url", sandbox.baseURL.appendingPathComponent("seoul").absoluteString, "--key", key, "--today", today]
    }

    /// Sets the stand-in's knobs (`POST /seoul/_control`).
    static func control(_ sandbox: RunningSandbox, _ query: RequestParameters) async throws {
        let endpoint = TestEndpoint(baseURL: sandbox.baseURL, path: "/seoul/_control", method: .post, task: .requestParameters(query, encoding: .url))
        _ = try await NetworkClient().response(endpoint)
    }

    /// `list --json`'s programs, each a dictionary.
    static func listed(_ home: PrivateHome, _ sandbox: RunningSandbox, _ extra: [String] = []) async throws -> [[String: Any]] {
        let list = try await home.courier(["raon", "list", "--json"] + extra + service(sandbox))
        try #require(list.status == 0, "list failed: \(list.errors)")
        return try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
    }

    /// `output`'s JSON array of `{"name", "count"}` as a dictionary.
    static func choices(_ output: String) throws -> [String: Int] {
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(rows.allSatisfy { Set($0.keys) == ["name", "count"] })
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["name"] as? String).map { ($0, row["count"] as? Int ?? -1) } })
    }

    /// Counts of `key`'s values among `programs`.
    static func counted(_ programs: [[String: Any]], _ key: String) -> [String: Int] {
        programs.reduce(into: [:]) { counts, program in counts[program[key] as? String ?? "?", default: 0] += 1 }
    }

    /// The lines a terminal shows of `shown`: split at its line ends (`\r\n` on a terminal), each
    /// as left after a carriage return and an erase (the progress bar on stderr redraws that way).
    static func terminalLines(_ shown: String) -> [String] {
        shown.components(separatedBy: "\r\n").map { line in
            let last = line.components(separatedBy: "\r").last ?? line
            return last.hasPrefix("\u{1B}[K") ? String(last.dropFirst(3)) : last
        }
    }

    /// The built `courier` on a new pseudo-terminal (stdout and stderr a terminal, as in a
    /// terminal window): what it shows until it ends.
    static func onTerminal(_ home: PrivateHome, _ arguments: [String]) async throws -> String {
        let child = try PseudoTerminalChild(try ChildProcess.courierBinary(), arguments, environment: home.environment())
        let shown = await child.read(until: { $0.contains("datasetView.do") })
        let ended = await child.wait()
        #expect(ended.exited == 0, "\(arguments) on a terminal: \(shown)")
        return shown
    }

    @Test("categories and districts [--json]: every value `list` shows with its count; the other filters narrow them, their own does not")
    func filterChoices() async throws {
        let home = try PrivateHome("raon-choices")
        defer { home.remove() }
        try await withSandbox { sandbox in
            let programs = try await Self.listed(home, sandbox)
            let categories = try await home.courier(["raon", "categories", "--json"] + Self.service(sandbox))
            #expect(categories.status == 0, "\(categories.errors)")
            #expect(try Self.choices(categories.output) == Self.counted(programs, "category"))
            #expect(categories.errors.contains("서울 열린데이터광장"), "the source on stderr after JSON")
            let districts = try await home.courier(["raon", "districts", "--json", "--category", "클래식", "--district", "종로구"] + Self.service(sandbox))
            #expect(try Self.choices(districts.output) == Self.counted(programs.filter { $0["category"] as? String == "클래식" }, "district"))

            let inJongno = try await home.courier(["raon", "categories", "--district", "종로구", "--free"] + Self.service(sandbox))
            #expect(inJongno.status == 0)
            let free = programs.filter { $0["district"] as? String == "종로구" && $0["isFree"] as? Bool == true }
            let lines = inJongno.output.split(separator: "\n").map(String.init)
            for (name, count) in Self.counted(free, "category") {
                #expect(lines.contains { $0.hasPrefix(name + " ") && $0.hasSuffix(" \(count)") }, "\(name) \(count) in \(lines)")
            }
            #expect(lines.contains("\(Set(free.map { $0["category"] as? String }).count) categories, \(free.count) programs"))
            #expect(lines.last?.hasPrefix("Source: Seoul Open Data (서울 열린데이터광장)") == true)
        }
    }

    @Test(
        "favourites shown: `favourite` in list --json and show --json; on a terminal ★ before a favourite in list, show and list --date; none piped")
    func favouritesShown() async throws {
        let home = try PrivateHome("raon-star")
        defer { home.remove() }
        try await withSandbox { sandbox in
            let before = try await Self.listed(home, sandbox, ["--district", "중구"])
            #expect(before.allSatisfy { $0["favourite"] as? Bool == false })
            #expect(
                !FileManager.default.fileExists(atPath: home.data.appendingPathComponent("courier/raon/favourites.sqlite").path),
                "listing made no store")
            let chosen = try #require(
                before.first { ($0["startDate"] as? String ?? "") < Self.today && ($0["endDate"] as? String ?? "") > Self.today })
            let id = try #require(chosen["id"] as? String)
            let added = try await home.courier(["raon", "fav", "add", id] + Self.service(sandbox))
            try #require(added.status == 0, "\(added.errors)")

            let after = try await Self.listed(home, sandbox, ["--district", "중구"])
            #expect(after.filter { $0["favourite"] as? Bool == true }.compactMap { $0["id"] as? String } == [id])
            let shown = try await home.courier(["raon", "show", id, "--json"] + Self.service(sandbox))
            #expect((try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])?["favourite"] as? Bool == true)
            let piped = try await home.courier(["raon", "list", "--district", "중구"] + Self.service(sandbox))
            #expect(piped.status == 0 && !piped.output.contains("★"), "piped text has no mark (--json has `favourite`)")

            let title = try #require(chosen["title"] as? String)
            let list = try await Self.onTerminal(home, ["raon", "list", "--district", "중구"] + Self.service(sandbox))
            let rows = Self.terminalLines(list)
            #expect(rows.filter { $0.hasPrefix("★ ") }.count == 1)
            #expect(rows.contains { $0.hasPrefix("★ ") && $0.contains(title) && $0.hasSuffix("[\(id)]") }, "\(list)")
            #expect(rows.contains { $0.hasPrefix("  20") }, "the others keep their column")
            let day = try await Self.onTerminal(home, ["raon", "list", "--district", "중구", "--date", Self.today] + Self.service(sandbox))
            #expect(Self.terminalLines(day).contains { $0.hasPrefix("★ ") && $0.hasSuffix("[\(id)]") }, "\(day)")
            let detail = try await Self.onTerminal(home, ["raon", "show", id] + Self.service(sandbox))
            #expect(detail.contains("title         ★ \(title)"), "\(detail)")
        }
    }

    @Test("share ID: title, dates, place and district, fee, homepage as plain text; hostile data leaves no escape byte")
    func share() async throws {
        let home = try PrivateHome("raon-share")
        defer { home.remove() }
        try await withSandbox { sandbox in
            let program = try #require(try await Self.listed(home, sandbox, ["--district", "마포구"]).first { $0["isFree"] as? Bool == false })
            let id = try #require(program["id"] as? String)
            let shared = try await home.courier(["raon", "share", id] + Self.service(sandbox))
            #expect(shared.status == 0, "\(shared.errors)")
            let start = program["startDate"] as? String ?? "?"
            let end = program["endDate"] as? String ?? "?"
            let fee = program["fee"] as? String ?? ""
            let expected = [
                program["title"] as? String ?? "?", start == end ? start : "\(start) ~ \(end)",
                "\(program["place"] as? String ?? "?"), 마포구", fee.isEmpty ? "유료" : "유료 · \(fee)", program["homepage"] as? String ?? "?",
            ]
            #expect(shared.output == expected.joined(separator: "\n") + "\n")

            // Hostile rows: the list (piped, raw as a pipe expects) carries the escapes; the share text none.
            try await Self.control(sandbox, ["hostile": 1])
            let hostile = try await home.courier(["raon", "list", "--district", "마포구"] + Self.service(sandbox))
            #expect(hostile.output.contains("\u{1B}]0;pwned"), "the stand-in really sends escape sequences")
            let raw = try await Self.listed(home, sandbox, ["--district", "마포구"])
            let hostileID = try #require(raw.first?["id"] as? String)
            let text = try await home.courier(["raon", "share", hostileID] + Self.service(sandbox))
            #expect(text.status == 0, "\(text.errors)")
            #expect(!text.output.unicodeScalars.contains { $0.value < 0x0A || (0x0B..<0x20).contains($0.value) || (0x7F...0x9F).contains($0.value) })
            #expect(!text.output.contains("javascript:"), "no homepage but an http(s) one")

            // And a program without a homepage cannot be opened: exit 1, no browser started.
            let browser = try home.recordingBrowser()
            let opened = try await home.courier(
                ["raon", "show", hostileID, "--open"] + Self.service(sandbox), environment: ["BROWSER": browser.path])
            #expect(opened.status == 1)
            #expect(opened.errors.contains("has no homepage to open"), "\(opened.errors)")
            #expect(try browser.runs().isEmpty)
        }
    }

    @Test("export-ics --alarm 1d|2h|30m: each event has a VALARM Python's icalendar reads (DISPLAY, -1 day / -2 h / -30 min)")
    func exportWithAlarm() async throws {
        let home = try PrivateHome("raon-alarm")
        defer { home.remove() }
        try await withSandbox { sandbox in
            let ids = try await Self.listed(home, sandbox, ["--district", "용산구"]).prefix(3).compactMap { $0["id"] as? String }
            try #require(ids.count == 3)
            for (alarm, seconds) in [("1d", -86_400), ("2h", -7_200), ("30m", -1_800)] {
                let file = home.directory.appendingPathComponent("raon-\(alarm).ics")
                let export = try await home.courier(["raon", "export-ics", file.path] + ids + ["--alarm", alarm] + Self.service(sandbox))
                #expect(export.status == 0, "\(export.errors)")
                #expect(export.output.contains("wrote 3 events") && export.output.contains("reminder \(alarm) before"))
                let parsed = try await Self.pythonAlarms(file, scratch: home.directory)
                #expect(parsed.count == 3)
                #expect(parsed.allSatisfy { $0 == ["DISPLAY \(seconds)"] }, "\(parsed)")
            }
            let plain = home.directory.appendingPathComponent("plain.ics")
            let export = try await home.courier(["raon", "export-ics", plain.path, ids[0]] + Self.service(sandbox))
            #expect(export.status == 0)
            #expect(try await Self.pythonAlarms(plain, scratch: home.directory) == [[]])
            for bad in ["1w", "0d", "-2h", "2", "400d"] {
                let refused = try await home.courier(["raon", "export-ics", plain.path, ids[0], "--alarm=\(bad)"] + Self.service(sandbox))
                #expect(refused.status == 64 && refused.errors.contains("--alarm must be"), "\(bad): \(refused.errors)")
            }
        }
    }

    /// Each event's alarms in `file` as Python's icalendar reads them: `ACTION seconds`.
    static func pythonAlarms(_ file: URL, scratch: URL) async throws -> [[String]] {
        let script = """
            import sys, json
            try:
                import icalendar
            except ImportError:
                print("MISSING"); sys.exit(3)
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            print(json.dumps([["%s %d" % (a["ACTION"], a.decoded("TRIGGER").total_seconds()) for a in e.walk("VALARM")] for e in cal.walk("VEVENT")]))
            """
        let run = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path], scratch: scratch)
        try #require(run.status != 3, "Python's icalendar is missing: run the tests with Scripts/test.sh (it installs icalendar in .build-python)")
        try #require(run.status == 0, "python3 failed: \(run.errors)")
        return try JSONDecoder().decode([[String]].self, from: Data(run.output.utf8))
    }

    @Test("settings district NAME: stored under XDG_CONFIG_HOME without a key; list uses it, --district all lifts it, --clear removes it")
    func settings() async throws {
        let home = try PrivateHome("raon-settings")
        defer { home.remove() }
        let file = home.config.appendingPathComponent("courier/raon/settings.json")
        let empty = try await home.courier(["raon", "settings", "--json"])
        #expect(empty.status == 0, "\(empty.errors)")
        #expect((try JSONSerialization.jsonObject(with: Data(empty.output.utf8)) as? [String: Any])?["district"] is NSNull, "\(empty.output)")
        let set = try await home.courier(["raon", "settings", "district", "성북구"])
        #expect(set.status == 0 && set.output.contains("default district: 성북구"), "\(set.errors)")
        #expect((try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])?["district"] as? String == "성북구")
        let shown = try await home.courier(["raon", "settings", "--today", "2026-11-20"])
        #expect(shown.output.contains("district  성북구") && shown.output.contains(file.path))
        let typo = try await home.courier(["raon", "settings", "district", "성북"])
        #expect(typo.status == 64 && typo.errors.contains("not one of Seoul's districts"))
        let badDay = try await home.courier(["raon", "settings", "district", "중구", "--today", "2026-13-01"])
        #expect(badDay.status == 64)

        try await withSandbox { sandbox in
            let mine = try await home.courier(["raon", "list", "--json"] + Self.service(sandbox))
            let programs = try #require(try JSONSerialization.jsonObject(with: Data(mine.output.utf8)) as? [[String: Any]])
            #expect(!programs.isEmpty && programs.allSatisfy { $0["district"] as? String == "성북구" })
            #expect(mine.errors.contains("district: 성북구 (your default"))
            let every = try await Self.listed(home, sandbox, ["--district", "all"])
            #expect(Set(every.compactMap { $0["district"] as? String }).count == 25)
            let other = try await Self.listed(home, sandbox, ["--district", "중구"])
            #expect(other.allSatisfy { $0["district"] as? String == "중구" })
            let districts = try await home.courier(["raon", "districts", "--json"] + Self.service(sandbox))
            #expect(try Self.choices(districts.output).count == 25, "the district picker is not narrowed by the default")

            let cleared = try await home.courier(["raon", "settings", "district", "--clear"])
            #expect(cleared.status == 0)
            #expect(try await Self.listed(home, sandbox).count == every.count)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["settings.json"])
    }

    @Test(
        "settings are replaced whole: concurrent writers and readers never see half a file; a damaged file is a warning for list, an error for settings"
    )
    func settingsAtomic() async throws {
        let home = try PrivateHome("raon-settings-atomic")
        defer { home.remove() }
        let folder = home.config.appendingPathComponent("courier/raon")
        let districts = ["종로구", "중구", "용산구", "성동구", "광진구", "동대문구"]
        try await withThrowingTaskGroup(of: ProcessRun.self) { group in
            for (index, district) in districts.enumerated() {
                group.addTask { try await home.courier(["raon", "settings", "district", district]) }
                if index > 0 { group.addTask { try await home.courier(["raon", "settings", "--json"]) } }
            }
            for try await run in group {
                #expect(run.status == 0, "\(run.errors)")
                if run.output.hasPrefix("{") {
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
                    #expect(object["district"] is NSNull || districts.contains(object["district"] as? String ?? ""))
                }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["settings.json"], "no temporary file left")
        let final = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("settings.json"))) as? [String: Any]
        #expect(districts.contains(final?["district"] as? String ?? ""))

        try Data("{\"district\": \"중".utf8).write(to: folder.appendingPathComponent("settings.json"))
        let broken = try await home.courier(["raon", "settings"])
        #expect(broken.status == 1 && broken.errors.contains("not valid settings"))
        try await withSandbox { sandbox in
            let list = try await home.courier(["raon", "list", "--json"] + Self.service(sandbox))
            #expect(list.status == 0 && list.errors.contains("warning: settings ignored"))
        }
        let replaced = try await home.courier(["raon", "settings", "district", "중구"])
        #expect(replaced.status == 0)
    }

    @Test("the data's source: after list and show, on stderr with --json (stdout stays JSON), and in --help")
    func source() async throws {
        let home = try PrivateHome("raon-source")
        defer { home.remove() }
        let link = "https://data.seoul.go.kr/dataList/OA-15486/S/1/datasetView.do"
        let help = try await home.courier(["raon", "--help"])
        #expect(help.output.contains("Seoul Open Data (서울 열린데이터광장)") && help.output.contains("서울시 문화행사 정보") && help.output.contains(link))
        try await withSandbox { sandbox in
            let list = try await home.courier(["raon", "list", "--district", "강남구"] + Self.service(sandbox))
            #expect(list.output.hasSuffix("Source: Seoul Open Data (서울 열린데이터광장), 서울시 문화행사 정보 (culturalEventInfo): \(link)\n"))
            let json = try await home.courier(["raon", "list", "--json", "--district", "강남구"] + Self.service(sandbox))
            #expect(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) is [Any])
            #expect(!json.output.contains(link) && json.errors.contains(link))
            let id = try #require(try await Self.listed(home, sandbox, ["--district", "강남구"]).first?["id"] as? String)
            let show = try await home.courier(["raon", "show", id] + Self.service(sandbox))
            #expect(show.output.contains(link))
            let showJSON = try await home.courier(["raon", "show", id, "--json"] + Self.service(sandbox))
            #expect(try JSONSerialization.jsonObject(with: Data(showJSON.output.utf8)) is [String: Any])
            #expect(showJSON.errors.contains(link))
        }
    }

    @Test("the network fails and saved programs are shown: stderr says so with their age; not when the network answers")
    func offlineNotice() async throws {
        let home = try PrivateHome("raon-offline")
        defer { home.remove() }
        let cache = ["--cache", home.directory.appendingPathComponent("cache").path]
        try await withSandbox { sandbox in
            let fresh = try await home.courier(["raon", "list", "--district", "은평구"] + cache + Self.service(sandbox))
            #expect(fresh.status == 0 && !fresh.errors.contains("offline"), "\(fresh.errors)")
            try await Self.control(sandbox, ["failStart": 1, "failWith": "503"])
            let saved = try await home.courier(["raon", "list", "--district", "은평구"] + cache + Self.service(sandbox))
            #expect(saved.status == 0, "\(saved.errors)")
            #expect(saved.output == fresh.output)
            #expect(saved.errors.contains("offline: showing programs saved ") && saved.errors.contains(" ago"), "\(saved.errors)")
            let offline = try await home.courier(["raon", "list", "--district", "은평구", "--offline"] + cache + Self.service(sandbox))
            #expect(offline.status == 0 && offline.errors.contains("offline: showing programs saved "), "\(offline.errors)")
            let uncached = try await home.courier(["raon", "list", "--no-cache"] + Self.service(sandbox))
            #expect(uncached.status == 12 && !uncached.errors.contains("offline: showing"))
        }
    }
}
