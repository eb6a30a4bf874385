/// Which domains are public suffixes (`com`, `co.uk`, `github.io`): names under which anyone may
/// register, so a cookie for one would reach every site below it. The rules are the Public Suffix
/// List's, generated once into `PublicSuffixList+Rules.swift` as a compact table (`Scripts/generate-public-suffixes.py`).
///
/// The list's algorithm: a rule matches a domain label by label (`*` matches any one label); an
/// exception rule (`!www.ck`) makes that name not a suffix; a name no rule matches is a suffix only
/// when it is a single label (the implicit `*` rule).
import Courier
import CourierTransportCore

enum PublicSuffixList {
    private struct Rules: Sendable {
        var exact: Set<String> = []
        /// `*.x` rules, by `x`.
        var wildcard: Set<String> = []
        var exceptions: Set<String> = []
    }

    private static let rules: Rules = {
        var rules = Rules()
        for line in rulesText.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            if line.hasPrefix("!") {
                rules.exceptions.insert(String(line.dropFirst()))
            } else if line.hasPrefix("*.") {
                rules.wildcard.insert(String(line.dropFirst(2)))
            } else {
                rules.exact.insert(String(line))
            }
        }
        return rules
    }()

    /// Whether `domain` (lowercase, no trailing dot) is a public suffix.
    static func isPublicSuffix(_ domain: String) -> Bool {
        let rules = self.rules
        if rules.exceptions.contains(domain) { return false }
        if rules.exact.contains(domain) { return true }
        guard let dot = domain.firstIndex(of: ".") else { return true }
        return rules.wildcard.contains(String(domain[domain.index(after: dot)...]))
    }
}
