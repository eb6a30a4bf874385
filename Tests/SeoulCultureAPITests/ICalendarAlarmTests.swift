import CourierSandbox
import Foundation
import IntegrationTestSupport
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    /// The seed's reminder on a favourite's start day, as a calendar file that rings: a VALARM.
    @Suite("export to .ics with a reminder: VALARM, checked with Python's icalendar")
    struct ICalendarAlarmTests {
        @Test(
            "1d, 2h, 30m are read as written and become TRIGGER:-P1D, -PT2H, -PT30M",
            arguments: [("1d", "-P1D"), ("2h", "-PT2H"), ("30m", "-PT30M"), ("7D", "-P7D"), ("366d", "-P366D"), ("90m", "-PT90M")])
        func triggers(text: String, trigger: String) throws {
            let alarm = try #require(ICalendarExport.Alarm(text))
            #expect(alarm.trigger == trigger)
            #expect(alarm.description == text.lowercased())
        }

        @Test("anything else is no alarm", arguments: ["", "d", "0d", "-1d", "1w", "1.5h", "１d", "367d", "8785h", "1 d", "1dd", "99999999m"])
        func refused(text: String) {
            #expect(ICalendarExport.Alarm(text) == nil)
        }

        @Test("each event gets one VALARM (DISPLAY, the trigger, the title): Python's icalendar reads it back")
        func parsesWithICalendar() async throws {
            let programs = try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["rows": 200])
                return try await sandbox.seoul(today: longAgo).allPrograms()
            }
            let chosen = Array(programs.prefix(4))
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("raon-alarm-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            for (text, seconds) in [("1d", -86_400), ("2h", -7_200), ("30m", -1_800)] {
                let file = scratch.appendingPathComponent("raon-\(text).ics")
                try Data(ICalendarExport.document(for: chosen, alarm: ICalendarExport.Alarm(text)).utf8).write(to: file)
                let alarms = try await Self.alarms(in: file, scratch: scratch)
                #expect(alarms.count == chosen.count)
                for (alarm, program) in zip(alarms, chosen) {
                    #expect(alarm.count == 1)
                    #expect(alarm.first?.action == "DISPLAY")
                    #expect(alarm.first?.trigger == seconds)
                    #expect(alarm.first?.description == program.title)
                }
            }
            let none = scratch.appendingPathComponent("none.ics")
            try Data(ICalendarExport.document(for: chosen).utf8).write(to: none)
            #expect(try await Self.alarms(in: none, scratch: scratch) == Array(repeating: [], count: chosen.count))
        }

        struct Alarm: Decodable, Equatable { var action: String, trigger: Int, description: String }

        /// Each VEVENT's VALARMs in `file`, as Python's icalendar reads them (the trigger in seconds).
        static func alarms(in file: URL, scratch: URL) async throws -> [[Alarm]] {
            let script = """
                import sys, json
                try:
                    import icalendar
                except ImportError:
                    print("MISSING"); sys.exit(3)
                cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
                out = [[{"action": str(a["ACTION"]), "trigger": int(a.decoded("TRIGGER").total_seconds()),
                         "description": str(a["DESCRIPTION"])} for a in e.walk("VALARM")] for e in cal.walk("VEVENT")]
                print(json.dumps(out, ensure_ascii=False))
                """
            let run = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path], scratch: scratch)
            try #require(
                run.status != 3, "Python's icalendar is missing: run the tests with Scripts/test.sh (it installs icalendar in .build-python)")
            try #require(run.status == 0, "python3 failed: \(run.output) \(run.errors)")
            return try JSONDecoder().decode([[Alarm]].self, from: Data(run.output.utf8))
        }
    }
}
