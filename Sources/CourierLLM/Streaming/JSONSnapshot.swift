public import Foundation

/// The JSON value decoded so far from a streaming answer.
///
/// Values on its last path may still be open: a string still growing, an array or object still
/// gaining items. ``json`` shows them closed where they stand, so every snapshot is valid JSON.
///
/// Taking a snapshot costs constant time and copies nothing: it is a mark in the decoder's
/// append-only record of the value, which later chunks only extend. The value is built when
/// the snapshot is read (``json``, ``decode(_:using:)``), in time proportional to its size; a
/// snapshot stays valid and unchanged however much the decoder reads afterwards.
public struct JSONSnapshot: Sendable, CustomStringConvertible {
    private enum Source {
        case node(SnapshotNode)
        case mark(SnapshotMark)
    }

    private let source: Source

    init(node: SnapshotNode) {
        source = .node(node)
    }

    init(mark: SnapshotMark) {
        source = .mark(mark)
    }

    /// The value as a tree (built from the mark, for a snapshot of a value being read).
    var node: SnapshotNode {
        switch source {
        case .node(let node): return node
        // A parser takes a mark only when it shows a value (`SnapshotLog.showsValue`).
        case .mark(let mark): return mark.node ?? .complete(.null)
        }
    }

    /// Whether the value is complete (nothing in it is still open).
    public var isComplete: Bool {
        if case .complete = node { return true }
        return false
    }

    /// Compact one-line JSON text of the value so far, open values closed.
    public var json: String { node.compactText().text }

    /// The same text as ``json``.
    public var description: String { json }

    /// Compact JSON text of the value so far, as UTF-8 bytes.
    public var jsonData: Data { Data(node.compactText().text.utf8) }

    /// Whether this snapshot grows `earlier` without changing it.
    ///
    /// Precisely: write `earlier` as compact JSON and leave off the closing quotes and brackets
    /// of its open values (its *settled text*: what a streaming writer would have emitted so
    /// far). This snapshot extends `earlier` when its compact JSON begins with that settled
    /// text and, when the settled text ends in a number or literal, the next byte ends it
    /// (so `12` does not grow into `123`). Open strings may grow, open arrays and objects may
    /// gain items, complete values stay as they were.
    public func extends(_ earlier: JSONSnapshot) -> Bool {
        node.extends(earlier.node)
    }

    /// The value decoded as a `T`, and the required fields of `T` the snapshot does not have yet.
    ///
    /// `value` is nil while `T` cannot be decoded (typically a required field is still missing);
    /// declare the fields you want to show early as optionals and `value` fills in as they arrive.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) -> PartialValue<T> {
        let value = node.closedValue
        let decoded = try? decoder.decode(T.self, from: value.compactData())
        var missing: [String] = []
        if let shape = ShapeRecorder.shape(of: T.self) { Self.collectMissing(value, shape, path: "", into: &missing) }
        return PartialValue(value: decoded, missingFields: missing, isComplete: isComplete)
    }

    /// Dotted paths of the required keys of `shape` absent from `value`.
    private static func collectMissing(_ value: JSONValue, _ shape: Shape, path: String, into missing: inout [String]) {
        guard missing.count < 256 else { return }
        switch value {
        case .object(let members):
            guard let object = shape.objectShape else { return }
            for key in object.keys {
                let childPath = path.isEmpty ? key : path + "." + key
                guard let member = members.first(where: { !$0.isOrphanGroup && object.declaredKey(for: $0.key) == key }) else {
                    if object.required.contains(key) { missing.append(childPath) }
                    continue
                }
                if let child = object.properties[key] { collectMissing(member.value, child, path: childPath, into: &missing) }
            }
        case .array(let elements):
            guard let item = shape.itemShape else { return }
            for (index, element) in elements.enumerated() {
                collectMissing(element, item, path: "\(path)[\(index)]", into: &missing)
            }
        default:
            return
        }
    }
}

/// A `T` decoded from a snapshot, as far as it can be yet.
public struct PartialValue<T> {
    /// The decoded value, or nil while `T` cannot be decoded from the snapshot.
    public let value: T?
    /// Dotted paths (`articles[1].title`) of the required fields not in the snapshot yet.
    public let missingFields: [String]
    /// Whether the snapshot was complete.
    public let isComplete: Bool
}

extension PartialValue: Sendable where T: Sendable {}

/// What ``PartialJSONDecoder`` gives after a chunk or at the end.
public struct PartialJSONUpdate: Sendable {
    /// The value decoded so far.
    public let snapshot: JSONSnapshot
    /// The value does not extend the previous one: later text changed which JSON wins.
    public let isRestart: Bool
    /// The repairs, in the final update only (from the whole-answer decoder).
    public var report: RepairReport? { finalReport?.report }

    /// The report, boxed: an update without one (all but the last) is then dropped by releasing
    /// a nil reference, not by destroying an optional report through its value witnesses, which
    /// cost more than the rest of a one-byte feed's update.
    private let finalReport: ReportBox?

    private final class ReportBox: Sendable {
        let report: RepairReport

        init(_ report: RepairReport) {
            self.report = report
        }
    }

    init(snapshot: JSONSnapshot, isRestart: Bool, report: RepairReport?) {
        self.snapshot = snapshot
        self.isRestart = isRestart
        self.finalReport = report.map(ReportBox.init)
    }
}
