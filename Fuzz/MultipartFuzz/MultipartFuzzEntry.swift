import Foundation

@testable import Courier
@testable import CourierSandbox

// libFuzzer entry for multipart/form-data. Courier itself only writes multipart
// (MultipartFormData, Sources/Courier/Endpoint); the one reader of multipart network bytes in the
// repository is the sandbox's `/echo` route (MultipartText, cut out of
// Sources/CourierSandbox/HTTPBin/EchoRoutes.swift at build time — see Fuzz/fuzz-common.sh), with
// the only Content-Type parameter parser (`boundary=`). All real code. The input is used as:
// 1. a `Content-Type` line + body for the sandbox's reader: no crash; parts no longer than the
//    body; a part's text is its bytes;
// 2. fields and files (pieces separated by NUL: name, value, file name, content type, name, …)
//    that Courier's writer puts in a form:
//    - the bytes are RFC 7578's, with names and file names escaped as Courier means to (`"` →
//      %22, CR → %0D, LF → %0A, every scalar) — switch FUZZ_MULTIPART_ESCAPE=0 skips names and
//      file names where a `"`, CR or LF sits next to a non-ASCII scalar (the known finding);
//    - each part's header holds its own lines only: a content type with CR or LF adds a header
//      line or ends the header early (Courier writes the type as given) — switch
//      FUZZ_MULTIPART_TYPE_CRLF=0 drops CR and LF from types;
//    - for plain names (ASCII, no `"` `;` `=`), the sandbox's reader gives back the parts
//      (switch FUZZ_MULTIPART_READER=0).

private let boundary = "courier-fuzz-boundary"

@_cdecl("LLVMFuzzerTestOneInput")
public func multipartFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)

    // 1. The reader on raw bytes.
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Data([0x2D]) + Data(bytes[min(newline + 1, bytes.endIndex)...])
    let sliced = body.dropFirst()  // a Data whose startIndex is not 0, as a body may be
    if let found = MultipartText.boundary(of: contentType) {
        check(MultipartText.parts(of: sliced, boundary: found), body: sliced)
    }
    check(MultipartText.parts(of: sliced, boundary: "X"), body: sliced)
    check(MultipartText.parts(of: sliced, boundary: ""), body: sliced)

    // 2. The writer.
    let text = String(decoding: bytes, as: UTF8.self)
    guard !text.contains(boundary) else { return 0 }
    let pieces = text.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
    var form = MultipartFormData(boundary: boundary)
    var parts: [(name: String, fileName: String?, type: String?, value: String)] = []
    for start in stride(from: 0, to: min(pieces.count, 64), by: 4) {
        let name = pieces[start]
        let value = start + 1 < pieces.count ? pieces[start + 1] : ""
        if start + 2 < pieces.count {
            let fileName = pieces[start + 2]
            var type = start + 3 < pieces.count ? pieces[start + 3] : "application/octet-stream"
            if !fuzzCheck("MULTIPART_TYPE_CRLF") { type.unicodeScalars.removeAll { $0 == "\r" || $0 == "\n" } }
            if !fuzzCheck("MULTIPART_ESCAPE"), joinsNeighbours(name) || joinsNeighbours(fileName) { return 0 }
            form.append(data: Data(value.utf8), name: name, fileName: fileName, contentType: type)
            parts.append((name, fileName, type, value))
        } else {
            if !fuzzCheck("MULTIPART_ESCAPE"), joinsNeighbours(name) { return 0 }
            form.append(field: name, value: value)
            parts.append((name, nil, nil, value))
        }
    }
    var written: [UInt8] = []
    for segment in form.segments() {
        guard case .bytes(let chunk) = segment else { fuzzFailure("an in-memory form wrote a file segment") }
        written += chunk
    }
    guard MultipartText.boundary(of: form.contentType) == boundary else { fuzzFailure("boundary of \(form.contentType) not read back") }

    // The bytes RFC 7578 and Courier's escaping call for.
    var expected: [UInt8] = []
    var heads: [Range<Int>] = []  // each part's header block, up to and with its CRLF CRLF
    for part in parts {
        let headStart = expected.count
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escaped(part.name))\""
        if let fileName = part.fileName, let type = part.type {
            // The writer drops control characters from a content type (a CR LF would add a line).
            let shown = String(String.UnicodeScalarView(type.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
            head += "; filename=\"\(escaped(fileName))\"\r\nContent-Type: \(shown)\r\n\r\n"
        } else {
            head += "\r\n\r\n"
        }
        expected += Array(head.utf8)
        heads.append(headStart..<expected.count)
        expected += Array(part.value.utf8) + Array("\r\n".utf8)
    }
    expected += Array("--\(boundary)--\r\n".utf8)
    guard written == expected else {
        fuzzFailure("MultipartFormData wrote \(fuzzShow(written, limit: 800))\n  expected \(fuzzShow(expected, limit: 800))")
    }
    // Each header block ends at its own CRLF CRLF, not before.
    // Each header block has its own lines only: the boundary, Content-Disposition, Content-Type
    // for a file, the blank line — no other CR or LF (a CR LF in a content type adds a header
    // line or ends the block early).
    for (index, head) in heads.enumerated() {
        let block = written[head]
        let lines = parts[index].fileName == nil ? 3 : 4
        let crlf = zip(block, block.dropFirst()).filter { $0 == 0x0D && $1 == 0x0A }.count
        guard crlf == lines, block.filter({ $0 == 0x0D }).count == lines, block.filter({ $0 == 0x0A }).count == lines,
            let found = firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A], in: written, from: head.lowerBound), found == head.upperBound - 4
        else {
            fuzzFailure(
                "part \(index)'s header has other lines than its own (CR/LF in its content type \(String(describing: parts[index].type?.debugDescription))): \(fuzzShow(written, limit: 800))"
            )
        }
    }

    // The sandbox's reader reads plain forms back.
    guard fuzzCheck("MULTIPART_READER"),
        parts.allSatisfy({ isPlain($0.name) && ($0.fileName.map(isPlain) ?? true) && ($0.type.map(isPlain) ?? true) })
    else {
        return 0
    }
    let read = MultipartText.parts(of: Data(written), boundary: boundary)
    guard read.count == parts.count else { fuzzFailure("\(parts.count) parts written, \(read.count) read back: \(fuzzShow(written, limit: 800))") }
    for (part, want) in zip(read, parts) {
        guard part.name == want.name, part.fileName == want.fileName, part.length == want.value.utf8.count,
            part.contentType
                == want.type.map({
                    String(String.UnicodeScalarView($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
                        .trimmingCharacters(in: .whitespaces)
                })
        else { fuzzFailure("part \(want) read back as \(part)") }
        if want.value.utf8.count <= 4096, let text = part.text, text != want.value {
            fuzzFailure("value \(want.value.debugDescription) read as \(text.debugDescription)")
        }
    }
    return 0
}

/// What the reader gave for `body` must fit in it.
private func check(_ parts: [EchoAnswer.Part], body: Data) {
    for part in parts {
        guard part.length >= 0, part.length <= body.count else { fuzzFailure("part of \(part.length) bytes in a \(body.count)-byte body") }
        if let text = part.text, text.utf8.count != part.length { fuzzFailure("part text of \(text.utf8.count) bytes, length \(part.length)") }
    }
}

/// A name or file name as Courier's writer must put it between quotes: no `"`, CR or LF left
/// (each Unicode scalar, whatever character it belongs to).
private func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "%22"
        case "\r": out += "%0D"
        case "\n": out += "%0A"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// Whether a `"`, CR or LF in `text` sits next to a non-ASCII scalar (which can join it into a
/// larger character).
private func joinsNeighbours(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    for (index, scalar) in scalars.enumerated() where scalar == "\"" || scalar == "\r" || scalar == "\n" {
        if index > 0, !scalars[index - 1].isASCII { return true }
        if index + 1 < scalars.count, !scalars[index + 1].isASCII { return true }
    }
    return false
}

/// Printable ASCII without the characters of the header syntax: what the sandbox's reader is for.
private func isPlain(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x3B && $0 != 0x3D }
}

private func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
    for index in start...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
        return index
    }
    return nil
}
