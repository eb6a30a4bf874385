/// Splits bytes into lines as they arrive: a line ends at LF, a CR before it is dropped; a line
/// longer than `limit` bytes fails (so a server that never sends a newline cannot grow memory
/// without bound).
struct LineSplitter: Sendable {
    /// The longest line accepted, in bytes.
    let limit: Int
    /// The unfinished line carried over from earlier chunks.
    private var pending: [UInt8] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// The lines `chunk` completes, in order, without their line ends.
    mutating func feed(_ chunk: ArraySlice<UInt8>) throws(NetworkError) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            if pending.isEmpty {
                lines.append(Self.trimmed(chunk[start..<newline]))
            } else {
                pending.append(contentsOf: chunk[start..<newline])
                if pending.count > limit + 1 { throw .responseTooLarge(limit: limit) }
                lines.append(Self.trimmed(pending[...]))
                pending.removeAll(keepingCapacity: true)
            }
            if lines[lines.count - 1].count > limit { throw .responseTooLarge(limit: limit) }
            start = chunk.index(after: newline)
        }
        pending.append(contentsOf: chunk[start...])
        if pending.count > limit + 1 { throw .responseTooLarge(limit: limit) }
        return lines
    }

    /// The last line when the body ended without a line end; nil when nothing is left.
    mutating func finish() -> [UInt8]? {
        guard !pending.isEmpty else { return nil }
        defer { pending = [] }
        return Self.trimmed(pending[...])
    }

    private static func trimmed(_ line: ArraySlice<UInt8>) -> [UInt8] {
        line.last == 0x0D ? Array(line.dropLast()) : Array(line)
    }
}
