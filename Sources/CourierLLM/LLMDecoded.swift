import Foundation

/// A value decoded from an LLM answer together with the repairs that were needed.
public struct LLMDecoded<T> {
    /// The decoded value.
    public let value: T
    /// The repairs applied to the answer before decoding.
    public let report: RepairReport

    /// Creates a decoded value with its report.
    public init(value: T, report: RepairReport) {
        self.value = value
        self.report = report
    }
}

extension LLMDecoded: Sendable where T: Sendable {}

/// JSON text extracted from an LLM answer together with the repairs that were needed.
public struct JSONExtraction: Sendable, Equatable {
    /// Compact one-line JSON text; object keys keep the order in which they appeared.
    public let json: String
    /// The repairs applied to the answer.
    public let report: RepairReport

    /// Creates an extraction result.
    public init(json: String, report: RepairReport) {
        self.json = json
        self.report = report
    }
}
