import Courier
import Foundation

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
