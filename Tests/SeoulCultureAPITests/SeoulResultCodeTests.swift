import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    @Suite("Seoul stand-in: result codes and quirks over real sockets")
    struct SeoulResultCodeTests {
        @Test("a page of rows decodes with the list's total")
        func rowsDecode() async throws {
            try await withSeoulSandbox { sandbox in
                let answer = try await sandbox.seoul().rows(start: 1, end: 5)
                #expect(answer.totalCount == 3_512)
                #expect(answer.rows.count == 5)
                #expect(answer.rows.allSatisfy { !$0.title.isEmpty && $0.startDate.hasSuffix(" 00:00:00.0") })
            }
        }

        @Test("the sample key reads rows 1–5 and gets ERROR-335 beyond")
        func sampleKey() async throws {
            try await withSeoulSandbox { sandbox in
                let seoul = sandbox.seoul(key: "sample")
                let five = try await seoul.rows(start: 1, end: 5)
                #expect(five.rows.count == 5)
                await #expect(throws: SeoulAPIError.self) { try await seoul.rows(start: 1, end: 6) }
                do throws(SeoulAPIError) {
                    _ = try await seoul.rows(start: 1, end: 6)
                } catch {
                    guard case .service(let code, let message) = error else {
                        Issue.record("got \(error)")
                        return
                    }
                    #expect(code == "ERROR-335")
                    #expect(message.contains("최대 5건"))
                }
            }
        }

        @Test("over 1,000 rows is ERROR-336, START > END is ERROR-334")
        func rangeErrors() async throws {
            try await withSeoulSandbox { sandbox in
                let seoul = sandbox.seoul()
                await #expect(
                    throws: SeoulAPIError.service(
                        code: "ERROR-336", message: "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다. 요청종료위치에서 요청시작위치를 뺀 값이 1000을 넘지 않도록 수정하세요.")
                ) {
                    try await seoul.rows(start: 1, end: 1001)
                }
                do throws(SeoulAPIError) {
                    _ = try await seoul.rows(start: 10, end: 5)
                    Issue.record("START > END was accepted")
                } catch {
                    guard case .service("ERROR-334", _) = error else {
                        Issue.record("got \(error)")
                        return
                    }
                }
            }
        }

        @Test("a page past the end is a bare INFO-200: an empty answer, not an error")
        func pastTheEnd() async throws {
            try await withSeoulSandbox { sandbox in
                let answer = try await sandbox.seoul().rows(start: 4001, end: 5000)
                #expect(answer == .empty)
                let raw = try await NetworkClient().response(sandbox.get("/seoul/\(testKey)/json/culturalEventInfo/4001/5000"))
                let text = String(decoding: raw.body, as: UTF8.self)
                #expect(text.contains("INFO-200") && !text.contains("culturalEventInfo"))
                #expect(raw.statusCode == 200)
            }
        }

        @Test("a short key is INFO-100 in JSON; a malformed one answers XML even for json, both invalidAPIKey")
        func invalidKeys() async throws {
            try await withSeoulSandbox { sandbox in
                await #expect(throws: SeoulAPIError.invalidAPIKey) { try await sandbox.seoul(key: "abc123").rows(start: 1, end: 1) }
                let xml = try await NetworkClient().response(sandbox.get("/seoul/bad-key!/json/culturalEventInfo/1/1"))
                #expect(String(decoding: xml.body, as: UTF8.self).hasPrefix("<?xml"))
                #expect(throws: SeoulAPIError.invalidAPIKey) { try SeoulAnswerParser.parse(xml.body) }
                await #expect(throws: SeoulAPIError.invalidAPIKey) { try await sandbox.seoul(key: "bad-key!").rows(start: 1, end: 1) }
            }
        }

        @Test(
            "wrong TYPE is ERROR-301, wrong service ERROR-310, a missing END ERROR-300",
            arguments: [
                ("/seoul/\(testKey)/csv/culturalEventInfo/1/5", "ERROR-301"),
                ("/seoul/\(testKey)/json/culturalEvents/1/5", "ERROR-310"),
                ("/seoul/\(testKey)/json/culturalEventInfo/1", "ERROR-300"),
                ("/seoul/\(testKey)/json/culturalEventInfo/x/5", "ERROR-333"),
            ])
        func requestErrors(path: String, code: String) async throws {
            try await withSeoulSandbox { sandbox in
                let body = try await NetworkClient().response(sandbox.get(path)).body
                #expect(throws: SeoulAPIError.self) { try SeoulAnswerParser.parse(body) }
                do throws(SeoulAPIError) {
                    _ = try SeoulAnswerParser.parse(body)
                } catch {
                    guard case .service(let got, let message) = error else {
                        Issue.record("got \(error)")
                        return
                    }
                    #expect(got == code)
                    #expect(!message.isEmpty)
                }
            }
        }

        @Test(
            "server-side ERROR-500/600/601 with HTTP 200 become errors carrying code and message", arguments: ["ERROR-500", "ERROR-600", "ERROR-601"])
        func serverErrors(code: String) async throws {
            try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["failStart": 1, "failWith": code])
                do throws(SeoulAPIError) {
                    _ = try await sandbox.seoul().rows(start: 1, end: 5)
                    Issue.record("\(code) was accepted")
                } catch {
                    guard case .service(let got, let message) = error else {
                        Issue.record("got \(error)")
                        return
                    }
                    #expect(got == code)
                    #expect(message.contains("문의"))
                    #expect(error.networkError == .serverError(500))
                }
            }
        }

        @Test("server filters: CODENAME exact, TITLE contained, DATE within; a skipped filter is a space")
        func serverFilters() async throws {
            try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["rows": 500])
                let seoul = sandbox.seoul()
                let classical = try await seoul.rows(start: 1, end: 1000, filter: CulturalEventFilter(category: "클래식"))
                #expect(classical.totalCount > 0 && classical.totalCount < 500)
                #expect(classical.rows.allSatisfy { $0.codeName == "클래식" })
                let titled = try await seoul.rows(start: 1, end: 1000, filter: CulturalEventFilter(title: "한강"))
                #expect(titled.totalCount > 0 && titled.rows.allSatisfy { $0.title.contains("한강") })
                let onDay = try await seoul.rows(start: 1, end: 1000, filter: CulturalEventFilter(date: anchorDay))
                let programs = onDay.rows.compactMap { try? CulturalProgram(row: $0) }
                #expect(!programs.isEmpty && programs.allSatisfy { $0.runs(on: anchorDay) })
            }
        }
    }
}
