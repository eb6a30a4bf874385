import Foundation
import HTTPTypes
import Hummingbird

/// A stand-in for Seoul Open Data's `culturalEventInfo`, quirks included.
///
/// | route | answer |
/// |---|---|
/// | `GET /seoul/{KEY}/{json\|xml}/culturalEventInfo/{START}/{END}[/{CODENAME}/{TITLE}/{DATE}]` | the service's answer, always HTTP 200 (except the 503 knob) |
/// | `POST /seoul/_control?latencyMs=&failStart=&failTimes=&failWith=&rows=&hostile=` | sets the knobs (absent ones reset to defaults), answers ``SeoulKnobs`` |
/// | `GET /seoul/_stats` | ``SeoulStats`` |
/// | `GET /seoul/cmmn/file/getImage.do?atchFileId=…` | a program's poster (the path of `MAIN_IMG`'s links): an SVG naming the id, with a strong ETag |
/// | `POST /seoul/_reset` | `204`; default knobs, counters cleared |
///
/// Keys: `sample` may read rows 1–5 only (ERROR-335 beyond); any key of 20 or more ASCII letters
/// and digits is valid; anything else is INFO-100 — in XML when the key holds other characters,
/// even when JSON was asked (as the real service does for some bad keys). A range over 1,000
/// rows is ERROR-336, START past the end a bare `{"RESULT":{"CODE":"INFO-200",…}}`. Filters: CODENAME
/// exact, TITLE contained, DATE within the program's dates; a single space skips one. With
/// `latencyMs`, each answer waits first, and a client that leaves while it waits is counted as a
/// disconnect (the wait runs in `Request.untilClientLeaves`, hence `Connection: close`).
struct SeoulRoutes: SandboxRouteGroup {
    let ledger = SeoulLedger()

    func register(on router: Router<SandboxRequestContext>) async throws {
        let ledger = self.ledger
        router.get("/seoul/**") { request, context in
            let segments = context.parameters.getCatchAll().map { String($0).removingPercentEncoding ?? String($0) }
            if segments == ["_stats"] { return JSONResponse.make(await ledger.stats) }
            if segments == ["cmmn", "file", "getImage.do"] { return Self.poster(request) }
            return try await Self.answer(segments, request: request, context: context, ledger: ledger)
        }
        router.post("/seoul/**") { request, context in
            switch context.parameters.getCatchAll().map(String.init) {
            case ["_control"]:
                let query = QueryReader(request)
                var knobs = SeoulKnobs()
                knobs.latencyMs = try query.integer("latencyMs", in: 0...60_000, default: 0)
                knobs.failStart = try query.integer("failStart", in: 1...1_000_000)
                knobs.failTimes = try query.integer("failTimes", in: 0...1_000_000, default: Int.max)
                knobs.failWith = try query.line("failWith") ?? "503"
                knobs.rows = try query.integer("rows", in: 0...100_000, default: SeoulDataset.defaultCount)
                knobs.hostile = try query.flag("hostile")
                await ledger.set(knobs)
                return JSONResponse.make(knobs)
            case ["_reset"]:
                await ledger.reset()
                return Response(status: .noContent)
            default:
                throw HTTPError(.notFound)
            }
        }
    }

    /// The stand-in of a poster: an SVG that names its `atchFileId` (ASCII letters, digits, `_` and
    /// `-` kept; anything else dropped), the same bytes for the same id.
    static func poster(_ request: Request) -> Response {
        let raw = request.uri.queryParameters.get("atchFileId") ?? ""
        let id = String(
            String.UnicodeScalarView(
                raw.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }.prefix(
                    64)))
        let hue = id.unicodeScalars.reduce(0) { ($0 * 31 + Int($1.value)) % 360 }
        let svg =
            #"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="840" viewBox="0 0 600 840">"#
            + #"<rect width="600" height="840" fill="hsl(\#(hue),60%,45%)"/>"#
            + #"<text x="300" y="420" font-size="40" text-anchor="middle" fill="white">Raon \#(id)</text></svg>"#
        var headers: HTTPFields = [.contentType: "image/svg+xml", .cacheControl: "max-age=86400"]
        headers[.eTag] = "\"poster-\(id)-\(svg.utf8.count)\""
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    }

    static let messages: [String: String] = [
        "INFO-000": "정상 처리되었습니다", "INFO-100": "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.",
        "INFO-200": "해당하는 데이터가 없습니다.", "ERROR-300": "필수 값이 누락되어 있습니다. 요청인자를 참고 하십시오.",
        "ERROR-301": "파일타입 값이 누락 혹은 유효하지 않습니다. 요청인자 중 TYPE을 확인하십시오.",
        "ERROR-310": "해당하는 서비스를 찾을 수 없습니다. 요청인자 중 SERVICE를 확인하십시오",
        "ERROR-331": "요청시작위치 값을 확인하십시오. 요청인자 중 START_INDEX를 확인하십시오",
        "ERROR-332": "요청종료위치 값을 확인하십시오. 요청인자 중 END_INDEX를 확인하십시오",
        "ERROR-333": "요청위치 값의 타입이 유효하지 않습니다. 요청위치 값은 정수를 입력하세요.",
        "ERROR-334": "요청종료위치 보다 요청시작위치가 더 큽니다. 요청시작조회건수는 정수를 입력하세요.",
        "ERROR-335": "sample데이터(샘플키:sample) 는 한번에 최대 5건을 넘을 수 없습니다. 요청시작위치와 요청종료위치 값은 1 ~ 5 사이만 가능합니다.",
        "ERROR-336": "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다. 요청종료위치에서 요청시작위치를 뺀 값이 1000을 넘지 않도록 수정하세요.",
        "ERROR-500": "서버 오류입니다. 지속적으로 발생시 열린 데이터 광장으로 문의(Q&A) 바랍니다.",
        "ERROR-600": "데이터베이스 연결 오류입니다. 지속적으로 발생시 열린 데이터 광장으로 문의(Q&A) 바랍니다.",
        "ERROR-601": "SQL 문장 오류 입니다. 지속적으로 발생시 열린 데이터 광장으로 문의(Q&A) 바랍니다.",
    ]

    static func answer(_ segments: [String], request: Request, context: SandboxRequestContext, ledger: SeoulLedger) async throws -> Response {
        let range = segments.count >= 5 ? "\(segments[3])-\(segments[4])" : "-"
        await ledger.enter(range: range)
        let latency = await ledger.knobs.latencyMs
        if latency > 0 {
            do {
                try await request.untilClientLeaves(context) { try await Task.sleep(for: .milliseconds(latency)) }
            } catch {
                await ledger.leave(disconnected: true)
                throw error
            }
        }
        let response = await respond(segments, ledger: ledger)
        await ledger.leave(disconnected: false)
        guard latency > 0 else { return response }
        var closing = response
        closing.headers[.connection] = "close"
        return closing
    }

    private static func respond(_ segments: [String], ledger: SeoulLedger) async -> Response {
        guard segments.count >= 3 else { return result("ERROR-300", xml: false) }
        let key = segments[0]
        let type = segments[1].lowercased()
        guard type == "json" || type == "xml" else { return result("ERROR-301", xml: false) }
        let xml = type == "xml"
        guard segments[2] == "culturalEventInfo" else { return result("ERROR-310", xml: xml) }
        let validKey = key == "sample" || (key.count >= 20 && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        guard validKey else {
            let malformed = !key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            return result("INFO-100", xml: xml || malformed)
        }
        guard segments.count >= 5 else { return result("ERROR-300", xml: xml) }
        guard let start = Int(segments[3]) else { return result(segments[3].allSatisfy(\.isNumber) ? "ERROR-331" : "ERROR-333", xml: xml) }
        guard let end = Int(segments[4]) else { return result(segments[4].allSatisfy(\.isNumber) ? "ERROR-332" : "ERROR-333", xml: xml) }
        guard start >= 1 else { return result("ERROR-331", xml: xml) }
        guard end >= 1 else { return result("ERROR-332", xml: xml) }
        guard start <= end else { return result("ERROR-334", xml: xml) }
        if key == "sample", end > 5 { return result("ERROR-335", xml: xml) }
        guard end - start + 1 <= 1000 else { return result("ERROR-336", xml: xml) }
        if await ledger.shouldFail(start: start) {
            let failWith = await ledger.knobs.failWith
            if failWith == "503" { return Response(status: .serviceUnavailable, headers: [.contentType: "text/plain"]) }
            return result(failWith, xml: xml)
        }
        let filter = segments.dropFirst(5).map { $0.trimmingCharacters(in: .whitespaces) } + ["", "", ""]
        let dataset = await ledger.dataset
        let matching =
            filter.allSatisfy(\.isEmpty)
            ? Array(dataset.rows.indices)
            : dataset.rows.indices.filter { index in
                let row = dataset.rows[index]
                if !filter[0].isEmpty, row["CODENAME"] != filter[0] { return false }
                if !filter[1].isEmpty, row["TITLE"]?.contains(filter[1]) != true { return false }
                if !filter[2].isEmpty {
                    let day = String(filter[2].prefix(10))
                    guard let first = row["STRTDATE"]?.prefix(10), let last = row["END_DATE"]?.prefix(10), first <= day, day <= last else {
                        return false
                    }
                }
                return true
            }
        guard start <= matching.count else { return result("INFO-200", xml: xml) }
        let page = matching[(start - 1)..<min(end, matching.count)]
        if xml { return SeoulXML.rows(page.map { dataset.rows[$0] }, total: matching.count) }
        let body = SeoulRowJSON.answer(page.lazy.map { dataset.json[$0] }, total: matching.count, message: messages["INFO-000"] ?? "")
        return JSONResponse.raw(Data(body))
    }

    /// A bare `{"RESULT":…}` (or its XML form) — how the service answers errors and "no data".
    static func result(_ code: String, xml: Bool) -> Response {
        let message = messages[code] ?? "알 수 없는 오류입니다."
        if xml { return SeoulXML.result(code: code, message: message) }
        return JSONResponse.make(["RESULT": ["CODE": code, "MESSAGE": message]])
    }

}

/// The XML forms of the stand-in's answers.
enum SeoulXML {
    static func result(code: String, message: String) -> Response {
        xml("<RESULT>\n<CODE>\(escape(code))</CODE>\n<MESSAGE><![CDATA[\(message)]]></MESSAGE>\n</RESULT>")
    }

    static func rows(_ rows: [[String: String]], total: Int) -> Response {
        var text =
            "<culturalEventInfo>\n<list_total_count>\(total)</list_total_count>\n<RESULT>\n<CODE>INFO-000</CODE>\n<MESSAGE><![CDATA[정상 처리되었습니다]]></MESSAGE>\n</RESULT>\n"
        for row in rows {
            text += "<row>\n"
            for (key, value) in row.sorted(by: { $0.key < $1.key }) { text += "<\(key)>\(escape(value))</\(key)>\n" }
            text += "</row>\n"
        }
        return xml(text + "</culturalEventInfo>")
    }

    private static func xml(_ body: String) -> Response {
        JSONResponse.raw(Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + body).utf8), contentType: "text/xml;charset=UTF-8")
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
