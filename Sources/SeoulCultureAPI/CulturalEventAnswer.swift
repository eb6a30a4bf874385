/// What one `culturalEventInfo` call answered, once its quirks are dealt with: the rows and the
/// list's total. "No data" (`INFO-200`, also how a page past the end answers) is an empty answer
/// with total 0, not an error.
public struct CulturalEventAnswer: Sendable, Equatable {
    /// `list_total_count`: rows matching the request's filters in the whole list.
    public var totalCount: Int
    /// The rows of the requested range.
    public var rows: [CulturalEventRow]

    /// An answer.
    public init(totalCount: Int, rows: [CulturalEventRow]) {
        self.totalCount = totalCount
        self.rows = rows
    }

    /// No data.
    public static let empty = CulturalEventAnswer(totalCount: 0, rows: [])
}

/// What one `culturalEventInfo` call answered, made programs (see
/// ``SeoulAnswerParser/programs(_:reading:)``): rows without usable dates are left out.
public struct CulturalProgramAnswer: Sendable, Equatable {
    /// `list_total_count`: rows matching the request's filters in the whole list.
    public var totalCount: Int
    /// The programs of the requested range, in the rows' order.
    public var programs: [CulturalProgram]

    /// An answer.
    public init(totalCount: Int, programs: [CulturalProgram]) {
        self.totalCount = totalCount
        self.programs = programs
    }
}

/// The service's `RESULT`: a code such as `INFO-000` and a Korean message.
public struct SeoulResult: Codable, Sendable, Equatable {
    /// `CODE`, e.g. `"INFO-000"`, `"ERROR-336"`.
    public var code: String
    /// `MESSAGE`, e.g. `"정상 처리되었습니다"`.
    public var message: String

    enum CodingKeys: String, CodingKey {
        case code = "CODE"
        case message = "MESSAGE"
    }

    /// A result.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// `INFO-000`: normal.
    public static let ok = "INFO-000"
    /// `INFO-100`: the key is not valid.
    public static let invalidKey = "INFO-100"
    /// `INFO-200`: no data (also a page past the end).
    public static let noData = "INFO-200"
}
