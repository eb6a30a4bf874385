extension RepairRules {
    /// Skips whitespace, comments and Markdown emphasis outside strings (comments and emphasis
    /// noted); resumes inside a comment when the bytes ended in one.
    mutating func skipTrivia<Bytes: LookAheadBytes>(_ source: Bytes) throws(Bytes.Shortage) {
        while true {
            switch trivia {
            case .lineComment:
                while pos < source.end, source.bytes[pos] != ByteClass.newline { pos += 1 }
                if try source.isPast(pos) { return }
                trivia = .none
            case .blockComment:
                while pos < source.end {
                    if source.bytes[pos] == UInt8(ascii: "*") {
                        if try source.isPast(pos + 1) {
                            pos = source.end
                            return
                        }
                        if source.bytes[pos + 1] == UInt8(ascii: "/") { break }
                    }
                    pos += 1
                }
                if try source.isPast(pos) {
                    trivia = .none
                    return
                }
                pos += 2
                trivia = .none
            case .none:
                break
            }
            if try source.isPast(pos) { return }
            let byte = source.bytes[pos]
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09:
                pos += 1
            case UInt8(ascii: "/"):
                guard try source.startsComment(at: pos) else { return }
                note(.removedComment)
                if source.bytes[pos + 1] == UInt8(ascii: "/") {
                    trivia = .lineComment
                } else {
                    pos += 2
                    trivia = .blockComment
                }
            case UInt8(ascii: "*"):
                note(.removedMarkdown)
                pos += 1
            case UInt8(ascii: "#"):
                note(.removedComment)
                trivia = .lineComment
            case 0xC2, 0xEF, 0xE2:
                // U+00A0, a byte-order mark or U+200B: spaces too.
                let length = byte == 0xC2 ? 2 : 3
                if try source.isPast(pos + length - 1) { return }
                let isSpace =
                    (byte == 0xC2 && source.bytes[pos + 1] == 0xA0)
                    || (byte == 0xEF && source.bytes[pos + 1] == 0xBB && source.bytes[pos + 2] == 0xBF)
                    || (byte == 0xE2 && source.bytes[pos + 1] == 0x80 && source.bytes[pos + 2] == 0x8B)
                guard isSpace else { return }
                pos += length
            default:
                return
            }
        }
    }
}
