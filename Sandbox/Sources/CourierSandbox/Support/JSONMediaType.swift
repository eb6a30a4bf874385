/// Whether a request says its body is JSON, for the routes that decode one.
///
/// Those routes refuse a body under any other type (or none) with 415: a web page may send any
/// site a `text/plain` or form body without asking first (a CORS "simple" request), but not an
/// `application/json` one — so a JSON route that read any body as JSON could be driven from a page.
enum JSONMediaType {
    /// `application/json` or a `…/…+json` type (`application/merge-patch+json`), any parameters
    /// (`; charset=utf-8`) and case; false for nil.
    static func matches(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let essence = contentType.prefix { $0 != ";" }.trimmingWhitespace().lowercased()
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        return essence == "application/json" || (parts[1].hasSuffix("+json") && parts[1].count > "+json".count)
    }
}

extension Substring {
    /// Without spaces and tabs at either end (the whitespace of a header value).
    fileprivate func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
