import Foundation

/// The stand-in's bundled data: about 3,500 deterministic programs (a seeded generator, the
/// same rows on every run and machine) with realistic Korean titles, all 25 districts, the real
/// category names, dates from a year before ``anchor`` to eight months after it, and the real
/// data's quirks: every seventh row has LAT/LOT swapped, every 53rd has no coordinates.
struct SeoulDataset: Sendable {
    /// The day the dates are spread around: 2026-11-20 (Seoul). Pass `--today` near it to see
    /// past, current and upcoming programs in the expected proportions.
    static let anchor = (year: 2026, month: 11, day: 20)
    /// Rows in the full set.
    static let defaultCount = 3_512

    /// Rows, each a field → value map with the service's upper-case keys.
    let rows: [[String: String]]
    /// Each row as its JSON object's bytes (``SeoulRowJSON``), made with the rows.
    let json: [[UInt8]]

    static let shared = SeoulDataset(count: defaultCount)

    /// `count` rows from `seed`; `hostile` (``SeoulKnobs/hostile``): the same rows with escape
    /// sequences in their text and no http(s) homepage.
    init(count: Int, seed: UInt64 = 20_261_120, hostile: Bool = false) {
        var random = SplitMix(state: seed)
        let anchor = CivilDay.days(year: Self.anchor.year, month: Self.anchor.month, day: Self.anchor.day)
        let made = (0..<count).map { index in Self.row(index: index, random: &random, anchor: anchor) }
        rows = hostile ? made.enumerated().map { Self.hostile($0.element, index: $0.offset) } : made
        json = rows.map(SeoulRowJSON.object)
    }

    /// `row` with a colour and a window-title set in its title, an 8-bit CSI (U+009B) in its
    /// place, a screen clear in its fee, and a homepage that is `javascript:` (even rows) or empty.
    private static func hostile(_ row: [String: String], index: Int) -> [String: String] {
        var row = row
        row["TITLE"] = "\u{1B}[31m" + (row["TITLE"] ?? "") + "\u{1B}]0;pwned\u{07}"
        row["PLACE"] = (row["PLACE"] ?? "") + "\u{9B}2J"
        row["USE_FEE"] = "\u{1B}[2J" + (row["USE_FEE"] ?? "")
        row["HMPG_ADDR"] = index % 2 == 0 ? "javascript:alert(document.cookie)" : ""
        return row
    }

    private static func row(index: Int, random: inout SplitMix, anchor: Int) -> [String: String] {
        let category = SeoulNames.categories[random.below(SeoulNames.categories.count)]
        let districtIndex = random.below(SeoulNames.districts.count)
        let district = SeoulNames.districts[districtIndex]
        let title = SeoulNames.title(category: category, district: district.name, random: &random)
        let place = SeoulNames.place(district: district.name, random: &random)
        let startOffset = random.below(600) - 365
        let length: Int =
            switch category {
            case "전시/미술": 14 + random.below(120)
            case "교육/체험": random.below(60)
            case let festival where festival.hasPrefix("축제"): 1 + random.below(10)
            case "영화": random.below(14)
            default: random.below(4) == 0 ? random.below(30) : 0
            }
        let start = CivilDay.text(anchor + startOffset)
        let end = CivilDay.text(anchor + startOffset + length)
        let isFree = random.below(100) < 45
        let fee = isFree ? (random.below(2) == 0 ? "무료" : "") : SeoulNames.fees[random.below(SeoulNames.fees.count)]
        let latitude = CivilDay.micro(Int((district.latitude * 1_000_000).rounded()) + (random.below(2000) - 1000) * 10)
        let longitude = CivilDay.micro(Int((district.longitude * 1_000_000).rounded()) + (random.below(2000) - 1000) * 10)
        let swapped = index % 7 == 3
        let missing = index % 53 == 11
        let code = 150_000 + index
        return [
            "CODENAME": category, "GUNAME": district.name, "TITLE": title, "DATE": "\(start)~\(end)", "PLACE": place,
            "ORG_NAME": "\(district.name)청", "USE_TRGT": SeoulNames.targets[random.below(SeoulNames.targets.count)],
            "USE_FEE": fee, "INQUIRY": "02-\(2100 + districtIndex * 10)-\(1000 + random.below(9000))",
            "PLAYER": random.below(3) == 0 ? "" : SeoulNames.players[random.below(SeoulNames.players.count)],
            "PROGRAM": "", "ETC_DESC": index % 11 == 0 ? "우천 시 취소될 수 있습니다; 문의: 누리집 참고\n(사전 예약 필수)" : "",
            "ORG_LINK": "https://www.\(district.romanized).go.kr/culture/\(code)",
            "MAIN_IMG": "https://culture.seoul.go.kr/cmmn/file/getImage.do?atchFileId=\(code)&thumb=Y",
            "RGSTDATE": "\(start) 00:00:00.0", "TICKET": random.below(2) == 0 ? "기관" : "시민",
            "STRTDATE": "\(start) 00:00:00.0", "END_DATE": "\(end) 00:00:00.0", "THEMECODE": "기타",
            "LAT": missing ? "" : (swapped ? longitude : latitude), "LOT": missing ? "" : (swapped ? latitude : longitude),
            "IS_FREE": isFree ? "무료" : "유료",
            "HMPG_ADDR": "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(code)&menuNo=200009",
            "PRO_TIME": ["10:00~18:00", "19:30", "14:00, 18:00", "매주 토요일 11:00"][random.below(4)],
        ]
    }
}

/// Day arithmetic without Calendar or DateFormatter (generating the data set must take
/// milliseconds, not the seconds Foundation's formatters take on Linux).
enum CivilDay {
    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `YYYY-MM-DD` of a day count (`civil_from_days`).
    static func text(_ days: Int) -> String {
        let (year, month, day) = civil(days)
        return "\(year)-\(pad(month))-\(pad(day))"
    }

    /// Year, month (1–12) and day of a day count (Howard Hinnant's `civil_from_days`).
    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// A millionth-degree count as `37.573000`.
    static func micro(_ value: Int) -> String {
        let fraction = String(value % 1_000_000)
        return "\(value / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
