import Courier
import Foundation
import HTTPTypes

/// Where the CLI writes: stdout for results, stderr for diagnostics.
enum Terminal {
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
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
