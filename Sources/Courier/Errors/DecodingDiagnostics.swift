package import Foundation

/// The body excerpt Courier attaches to a decoding failure, as the `underlyingError` of the
/// `DecodingError`'s context; read it through `NetworkError.bodyExcerpt` and
/// `NetworkError.codingPathDescription`.
package struct DecodingDiagnostics: Error, Sendable, CustomStringConvertible {
    /// At most ~200 characters of the response body, for a developer's eyes.
    let bodyExcerpt: String
    /// The decoder's own underlying error, if any, as text.
    let underlying: String?

    /// A description with the excerpt.
    package var description: String { "body: \(bodyExcerpt)" }

    /// Returns `error` with the same kind, coding path and description, carrying an excerpt of `body`.
    package static func attach(to error: DecodingError, body: Data) -> DecodingError {
        let text = String(decoding: body.prefix(400), as: UTF8.self)
        func context(_ c: DecodingError.Context) -> DecodingError.Context {
            .init(
                codingPath: c.codingPath,
                debugDescription: c.debugDescription,
                underlyingError: DecodingDiagnostics(
                    bodyExcerpt: excerpt(text, limit: 200),
                    underlying: c.underlyingError.map { String(describing: $0) }
                )
            )
        }
        switch error {
        case .typeMismatch(let type, let c): return .typeMismatch(type, context(c))
        case .valueNotFound(let type, let c): return .valueNotFound(type, context(c))
        case .keyNotFound(let key, let c): return .keyNotFound(key, context(c))
        case .dataCorrupted(let c): return .dataCorrupted(context(c))
        @unknown default: return error
        }
    }

    static func context(of error: DecodingError) -> DecodingError.Context? {
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            return c
        @unknown default:
            return nil
        }
    }

    /// `debugDescription` plus the coding path, e.g. `Expected String but found Int instead (at data.items[2].name)`.
    static func summary(of error: DecodingError) -> String {
        guard let c = context(of: error) else { return String(describing: error) }
        var text = c.debugDescription
        if case .keyNotFound(let key, _) = error, !text.contains(key.stringValue) {
            text += " (key \(key.stringValue))"
        }
        let path = codingPath(c.codingPath)
        if !path.isEmpty { text += " at \(path)" }
        return text
    }

    /// `data.items[2].name` for a coding path.
    static func codingPath(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                if !out.isEmpty { out += "." }
                out += key.stringValue
            }
        }
        return out
    }

    /// The first `limit` characters of `text` on one line, with an ellipsis when cut.
    static func excerpt(_ text: String, limit: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        if flat.count <= limit { return flat }
        return String(flat.prefix(limit)) + "…"
    }
}

extension NetworkError {
    /// For ``decodingError(_:)``: a short excerpt of the body that failed to decode.
    public var bodyExcerpt: String? {
        guard case .decodingError(let error) = self,
            let diagnostics = DecodingDiagnostics.context(of: error)?.underlyingError as? DecodingDiagnostics
        else { return nil }
        return diagnostics.bodyExcerpt
    }

    /// For ``decodingError(_:)``: where decoding failed, e.g. `data.articles[1].title`.
    public var codingPathDescription: String? {
        guard case .decodingError(let error) = self, let c = DecodingDiagnostics.context(of: error) else { return nil }
        return DecodingDiagnostics.codingPath(c.codingPath)
    }
}
