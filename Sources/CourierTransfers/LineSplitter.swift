import Courier
import CourierTransportCore
import Foundation

/// Splits bytes into lines as they arrive: a line ends at LF, a CR before it is dropped; a line
/// longer than `limit` bytes fails (so a server that never sends a newline cannot grow memory
/// without bound). Each line is copied once, into the `Data` handed back.
struct LineSplitter: Sendable {
    /// The longest line accepted, in bytes.
    let limit: Int
    /// The unfinished line carried over from earlier chunks.
    private var pending = Data()

    init(limit: Int) {
        self.limit = limit
    }

    /// The lines `chunk` completes, in order, without their line ends.
    mutating func feed(_ chunk: ArraySlice<UInt8>) throws(NetworkError) -> [Data] {
        var lines: [Data] = []
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            let line: Data
            if pending.isEmpty {
                line = Self.trimmed(Data(chunk[start..<newline]))
            } else {
                pending.append(contentsOf: chunk[start..<newline])
                line = Self.trimmed(pending)
                pending = Data()
            }
            if line.count > limit { throw .responseTooLarge(limit: limit) }
            lines.append(line)
            start = chunk.index(after: newline)
        }
        pending.append(contentsOf: chunk[start...])
        if pending.count > limit + 1 { throw .responseTooLarge(limit: limit) }
        return lines
    }

    /// The last line when the body ended without a line end; nil when nothing is left.
    mutating func finish() throws(NetworkError) -> Data? {
        guard !pending.isEmpty else { return nil }
        defer { pending = Data() }
        let line = Self.trimmed(pending)
        if line.count > limit { throw .responseTooLarge(limit: limit) }
        return line
    }

    private static func trimmed(_ line: Data) -> Data {
        line.last == 0x0D ? line.dropLast() : line
    }
}
