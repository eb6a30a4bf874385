import AlanAPI
import Courier
import CourierConcurrency
import Foundation

/// `courier coin report --json`'s object and `--timeline`'s lines.
enum CoinReportJSON {
    /// `{"overview": {...}|{"error": {...}}, "weekly": …, "today": …}`.
    struct Report: Encodable {
        let overview: Section<CoinOverview>
        let weekly: Section<CoinWeekly>
        let today: Section<CoinTodayNews>
    }

    /// A section: the DTO, or `{"error": {...}}`.
    enum Section<Value: Encodable>: Encodable {
        case value(Value)
        case error(ErrorJSON)

        init(_ state: FetchState<Value>) {
            switch state {
            case .success(let value): self = .value(value)
            case .loading:
                self = .error(ErrorJSON(case: "loading", statusCode: nil, state: "loading", log: "still loading", message: "still loading"))
            case .cancel(let error): self = .error(ErrorJSON(error, state: "cancel"))
            case .failure(let error): self = .error(ErrorJSON(error, state: "failure"))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .value(let value): try value.encode(to: encoder)
            case .error(let error):
                var container = encoder.container(keyedBy: ErrorKey.self)
                try container.encode(error, forKey: .error)
            }
        }

        enum ErrorKey: String, CodingKey { case error }
    }

    /// A ``NetworkError`` as JSON: its case, status, the seed's log line and the user message.
    struct ErrorJSON: Encodable {
        let `case`: String
        let statusCode: Int?
        let state: String
        let log: String
        let message: String

        init(case: String, statusCode: Int?, state: String, log: String, message: String) {
            self.case = `case`
            self.statusCode = statusCode
            self.state = state
            self.log = log
            self.message = message
        }

        init(_ error: NetworkError, state: String) {
            self.init(
                case: error.caseName, statusCode: error.statusCode, state: state,
                log: error.log(file: "courier", function: "coin report"), message: error.userMessage(in: .preferred))
        }
    }

    static func encode(_ snapshot: CoinReportSnapshot) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let report = Report(overview: Section(snapshot.overview), weekly: Section(snapshot.weekly), today: Section(snapshot.today))
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    /// `   612 ms  overview  success`.
    static func timelineLine(ms: Int, section: CoinSection, state: String) -> String {
        let time = String(repeating: " ", count: max(0, 6 - String(ms).count)) + "\(ms) ms"
        return "\(time)  \(section.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))  \(state)"
    }
}
