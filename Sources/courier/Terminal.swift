import Courier
import Foundation
import HTTPTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the CLI writes: stdout for results, stderr for diagnostics.
///
/// Writes go through `write(2)`, not `FileHandle.write`: SwiftNIO ignores SIGPIPE, so a reader
/// that has gone (`courier raon list | head -3`) turns into EPIPE, on which `FileHandle.write`
/// traps. Here a closed stdout ends the program quietly with status 0, as Unix filters do; a
/// closed stderr just stops diagnostics.
enum Terminal {
    static func output(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: STDOUT_FILENO)
    }

    static func error(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: STDERR_FILENO)
    }

    /// `text` exactly as given (no newline added) to `descriptor`, all of it.
    static func write(_ text: String, to descriptor: Int32) {
        brokenPipeIsAnError.touch()
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written >= 0 {
                offset += written
                continue
            }
            if errno == EINTR { continue }
            if errno == EPIPE, descriptor == STDOUT_FILENO { exit(0) }
            return
        }
    }
}

/// SIGPIPE ignored, once, before the first write: a command without SwiftNIO (`courier json
/// extract`) was killed by the signal (status 141) where the others saw EPIPE and ended with 0.
private struct BrokenPipeIsAnError: Sendable {
    init() { signal(SIGPIPE, SIG_IGN) }
    func touch() {}
}

private let brokenPipeIsAnError = BrokenPipeIsAnError()

/// `write(2)`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}

/// Renders a body for a person: JSON pretty-printed, text as is, binary summarised.
enum BodyPrinter {
    static func render(_ body: Data, contentType: String?) -> String {
        if body.isEmpty { return "" }
        if let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]) {
            return String(decoding: pretty, as: UTF8.self)
        }
        if let text = String(data: body, encoding: .utf8) { return text }
        return "<\(body.count) bytes of \(contentType ?? "binary data")>"
    }
}

/// `--verbose` lines: request line and headers, status line and headers, secrets redacted.
enum VerboseLines {
    static func exchange(_ response: NetworkResponse, baseURL: URL, redactor: Redactor) -> String {
        var lines: [String] = []
        let target = redactor.url(baseURL.absoluteString + (response.request.path ?? "/"))
        lines.append("> \(response.request.method.rawValue) \(target)")
        for field in response.request.headerFields {
            lines.append("> \(field.name.rawName): \(redactor.header(field.name.rawName, field.value))")
        }
        lines.append("< \(response.statusCode) \(response.head.status.reasonPhrase)")
        for field in response.headers {
            lines.append("< \(field.name.rawName): \(redactor.header(field.name.rawName, field.value))")
        }
        return lines.joined(separator: "\n")
    }
}
