import Foundation
import Testing

@testable import CourierSandbox

/// The cache routes' `Date`/`Last-Modified`/`Expires` values, formatted by arithmetic.
@Suite("Cache routes: IMF-fixdate")
struct CacheRoutesDateTests {
    @Test(
        "formatting agrees with a DateFormatter across eras, leap days and times of day; parse reads it back",
        arguments: [
            0.0, 784_111_777, 951_782_400, 1_709_164_799, 1_795_000_000.5, -86_401, 4_102_444_800, 253_402_300_799,
        ])
    func agreesWithFormatter(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(CacheRoutes.format(date) == formatter.string(from: date))
        #expect(CacheRoutes.parse(CacheRoutes.format(date)) == Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    @Test("RFC 9110's example")
    func example() {
        #expect(CacheRoutes.format(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
