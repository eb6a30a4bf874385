import Hummingbird

/// A request's query parameters for the test-control routes (`/sse`, `/flaky`, `/counted`): a
/// value that is present but wrong answers 400 naming the parameter, so a typo in a test is an
/// error instead of a silent default. The routes that stand in for a misbehaving upstream
/// (`/tail`, `/outage`) read their numbers with the saturating readers instead
/// (``saturatingInteger(_:in:default:)``, ``saturatingFraction(_:default:)``): a number out of
/// range is clamped into it, anything else is the default.
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

    /// An integer clamped into `range` (whose lower bound is not negative), `defaultValue` when
    /// absent or not an integer: see ``saturating(_:in:default:)``.
    func saturatingInteger(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) -> Int {
        Self.saturating(text(name), in: range, default: defaultValue)
    }

    /// A number clamped into 0…1 (a probability), `defaultValue` when absent, not a number, or
    /// not finite.
    func saturatingFraction(_ name: String, default defaultValue: Double) -> Double {
        guard let text = text(name), let value = Double(text), value.isFinite else { return defaultValue }
        return min(max(value, 0), 1)
    }

    /// `text` as an optional sign and ASCII digits that saturate at `range`'s upper bound (twenty
    /// digits are the upper bound, never a trap), clamped into `range` (a negative number is its
    /// lower bound); `defaultValue` for nil or anything else (`1e3`, `0x10`, `5ms`, an empty value).
    static func saturating(_ text: String?, in range: ClosedRange<Int>, default defaultValue: Int) -> Int {
        guard var digits = text?.utf8[...] else { return defaultValue }
        let negative = digits.first == UInt8(ascii: "-")
        if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return defaultValue }
        guard !negative else { return range.lowerBound }
        var value = 0
        for digit in digits {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = times.addingReportingOverflow(Int(digit - 0x30))
            value = overflow1 || overflow2 ? range.upperBound : min(plus, range.upperBound)
        }
        return max(value, range.lowerBound)
    }
}
