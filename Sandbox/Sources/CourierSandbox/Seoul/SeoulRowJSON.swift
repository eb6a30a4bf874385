/// The stand-in's JSON rows, written by hand once per data set: each row's bytes are made when
/// the data set is, and a page is their concatenation. JSONSerialization of a 1,000-row page of
/// `[String: Any]` cost about 100 ms of CPU per answer — in a benchmark about the client.
enum SeoulRowJSON {
    /// `{"KEY":"value",…}` with the keys sorted, as `JSONSerialization` with `.sortedKeys` writes it.
    static func object(_ row: [String: String]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (offset, key) in row.keys.sorted().enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            append(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            append(row[key] ?? "", to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The whole wrapped answer for `rows` (already encoded) of a list of `total`.
    static func answer(_ rows: some Collection<[UInt8]>, total: Int, message: String) -> [UInt8] {
        var bytes = Array(#"{"culturalEventInfo":{"RESULT":{"CODE":"INFO-000","MESSAGE":"#.utf8)
        append(message, to: &bytes)
        bytes += Array(#"},"list_total_count":\#(total),"row":["#.utf8)
        bytes.reserveCapacity(bytes.count + rows.reduce(0) { $0 + $1.count + 1 } + 3)
        for (offset, row) in rows.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += row
        }
        bytes += Array("]}}".utf8)
        return bytes
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
