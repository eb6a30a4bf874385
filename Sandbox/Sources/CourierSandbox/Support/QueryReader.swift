import Hummingbird

/// A request's query parameters for the test-control routes (`/sse`, `/flaky`, `/counted`): a
/// value that is present but wrong answers 400 naming the parameter, so a typo in a test is an
/// error instead of a silent default.
struct QueryReader {
    private let parameters: [String: String]

    init(_ request: Request) {
        // The first value of a repeated name wins, as in Hummingbird's own lookup.
        self.parameters = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The text of `name`, or nil when absent.
    func text(_ name: String) -> String? {
        parameters[name]
    }

    /// A single-line text (a header or an SSE field value cannot hold a line break).
    func line(_ name: String) throws -> String? {
        guard let value = text(name) else { return nil }
        guard !value.contains(where: { $0 == "\r" || $0 == "\n" }) else {
            throw HTTPError(.badRequest, message: "\(name) must not contain a line break")
        }
        return value
    }

    /// An integer in `range`, `defaultValue` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        try integer(name, in: range) ?? defaultValue
    }

    /// An integer in `range`, or nil when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = text(name) else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw HTTPError(.badRequest, message: "\(name) must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// A flag: `1`, `true` or a bare `name` on; `0`, `false` or absent off.
    func flag(_ name: String) throws -> Bool {
        switch text(name)?.lowercased() {
        case nil, "0", "false": return false
        case "", "1", "true": return true
        default: throw HTTPError(.badRequest, message: "\(name) must be 1 or 0")
        }
    }
}
