import Foundation

/// The repairs applied while extracting JSON from a model's answer.
public struct RepairReport: Sendable, Equatable, CustomStringConvertible {
    /// The distinct repairs, in the order they were first applied.
    public private(set) var repairs: [Repair]
    /// Whether the answer ended early and open values had to be closed.
    public private(set) var isTruncated: Bool

    /// Creates a report from a list of repairs (duplicates are dropped, order kept).
    public init(repairs: [Repair] = [], isTruncated: Bool = false) {
        self.repairs = []
        self.isTruncated = isTruncated
        for repair in repairs { add(repair) }
    }

    /// Whether no repair was needed.
    public var isEmpty: Bool { repairs.isEmpty && !isTruncated }

    /// Whether the report contains `repair`.
    public func contains(_ repair: Repair) -> Bool { repairs.contains(repair) }

    /// One line per repair; `no repairs` when the answer was valid JSON.
    public var description: String {
        repairs.isEmpty ? "no repairs" : repairs.map(\.description).joined(separator: "\n")
    }

    mutating func add(_ repair: Repair) {
        if repair == .closedTruncated { isTruncated = true }
        if !repairs.contains(repair) { repairs.append(repair) }
    }

    mutating func add(contentsOf other: [Repair]) {
        for repair in other { add(repair) }
    }
}
