import Foundation

/// The suite's header fix-ups (test-engine/lib/header-fixup.mjs): numbers in date fields become
/// HTTP dates relative to the origin's now; `magic_locations` prefixes locations with the test URL.
enum HeaderFixup {
    static let dateFields: Set<String> = ["date", "expires", "last-modified", "if-modified-since", "if-unmodified-since"]
    static let locationFields: Set<String> = ["location", "content-location"]

    static func value(_ spec: HeaderSpec, serverNowMs: Int?, baseURL: String?, step: TestStep) -> String {
        let name = spec.name.lowercased()
        var text: String
        switch spec.value {
        case .delta(let seconds):
            if dateFields.contains(name), let serverNowMs {
                let instant = Date(timeIntervalSince1970: Double(serverNowMs) / 1000 + Double(seconds))
                return format(instant, rfc850: step.rfc850.contains(name))
            }
            text = String(seconds)
        case .text(let value):
            text = value
        }
        if locationFields.contains(name), step.magicLocations, let baseURL {
            text = text.isEmpty ? baseURL : baseURL + "/" + text
        }
        return text
    }

    /// An IMF-fixdate, or the RFC 850 form.
    static func format(_ date: Date, rfc850: Bool) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = rfc850 ? "EEEE, dd-MMM-yy HH:mm:ss 'GMT'" : "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
