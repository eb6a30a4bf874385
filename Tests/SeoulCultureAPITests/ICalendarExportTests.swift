import CourierSandbox
import Foundation
import IntegrationTestSupport
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    @Suite("export to .ics: RFC 5545, checked with Python's icalendar")
    struct ICalendarExportTests {
        @Test("long Korean text folds at 75 octets without splitting a character; text is escaped")
        func foldingAndEscaping() throws {
            let line = "SUMMARY:" + String(repeating: "서울시향 정기연주회, ", count: 8)
            let folded = ICalendarExport.fold(line)
            let physical = folded.components(separatedBy: "\r\n")
            #expect(physical.count > 2)
            #expect(physical.allSatisfy { $0.utf8.count <= 75 })
            #expect(physical.dropFirst().allSatisfy { $0.hasPrefix(" ") })
            #expect(physical.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined() == line)
            #expect(ICalendarExport.escape("a\\b;c,d\ne") == "a\\\\b\\;c\\,d\\ne")
        }

        @Test("the sandbox's programs export to a file Python's icalendar parses, with the right all-day dates")
        func parsesWithICalendar() async throws {
            let programs = try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["rows": 300])
                return try await sandbox.seoul(today: longAgo).allPrograms()
            }
            let chosen = Array(programs.filter { !$0.notes.isEmpty }.prefix(3)) + Array(programs.prefix(3))
            let document = ICalendarExport.document(for: chosen)
            #expect(document.contains("\r\n") && !document.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("raon-ics-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let file = scratch.appendingPathComponent("raon.ics")
            try Data(document.utf8).write(to: file)

            let script = """
                import sys, json
                try:
                    import icalendar
                except ImportError:
                    print("MISSING"); sys.exit(3)
                cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
                out = [{"uid": str(e["UID"]), "start": e.decoded("DTSTART").isoformat(), "end": e.decoded("DTEND").isoformat(),
                        "summary": str(e["SUMMARY"]), "description": str(e.get("DESCRIPTION", ""))} for e in cal.walk("VEVENT")]
                print(json.dumps(out, ensure_ascii=False))
                """
            let run = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path], scratch: scratch)
            try #require(
                run.status != 3, "Python's icalendar is missing: run the tests with Scripts/test.sh (it installs icalendar in .build-python)")
            try #require(run.status == 0, "python3 failed: \(run.output) \(run.errors)")
            let output = Data(run.output.utf8)

            struct Event: Decodable { var uid, start, end, summary, description: String }
            let events = try JSONDecoder().decode([Event].self, from: output)
            #expect(events.count == chosen.count)
            for (event, program) in zip(events, chosen) {
                #expect(event.uid == "\(program.id)@raon.courier")
                #expect(event.start == program.startDate.description)
                #expect(event.end == program.endDate.adding(days: 1).description)
                #expect(event.summary == program.title)
            }
            let withNotes = try #require(zip(events, chosen).first { !$0.1.notes.isEmpty })
            #expect(withNotes.0.description.contains(withNotes.1.notes))
        }
    }
}
