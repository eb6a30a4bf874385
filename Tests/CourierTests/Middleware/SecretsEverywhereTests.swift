import Courier
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Secrets never reach an error, a dump or a log line.
@Suite("Secrets everywhere")
struct SecretsEverywhereTests {
    @Test("a failed call's NetworkError carries no URL and so no key", arguments: TransportKind.allCases)
    func errorsCarryNoURL(_ kind: TransportKind) async throws {
        let refusing = RefusingPort()
        let client = NetworkClient(transport: kind.make())
        let endpoint = TestEndpoint(refusing.baseURL, "/data/SECRET-IN-PATH", query: ["serviceKey": "SECRET-IN-QUERY"])
        let error = await #expect(throws: NetworkError.self) { try await client.response(endpoint) }
        withExtendedLifetime(refusing) {}
        var dumped = ""
        dump(error, to: &dumped)
        for text in [dumped, "\(String(describing: error))", error?.localizedDescription ?? "", "\(error.map { $0 as NSError } as Any)"] {
            #expect(!text.contains("SECRET"), "\(text)")
        }
    }

    @Test("tokens print, interpolate and dump redacted")
    func tokensRedacted() {
        let token = BearerTokenMiddleware.Token("SECRET-TOKEN-VALUE", expiresAt: nil)
        var dumped = ""
        dump(token, to: &dumped)
        #expect(!dumped.contains("SECRET"))
        #expect(!"\(token)".contains("SECRET"))
        #expect(!String(reflecting: token).contains("SECRET"))
    }

    @Test("the redactor masks user:password@, key-like query names and URLs in Location, Referer and Content-Location")
    func redactorCoverage() {
        let redactor = Redactor()
        #expect(redactor.url("https://alice:hunter2@example.com/a?b=1") == "https://<redacted>@example.com/a?b=1")
        // Only the authority's user info: an `@` in the path or the query is the URL's own; the last `@` ends it.
        #expect(redactor.url("https://example.com/users/@me?to=a@b.example") == "https://example.com/users/@me?to=a@b.example")
        #expect(redactor.url("http://a@b:pw@[::1]:8080/x") == "http://<redacted>@[::1]:8080/x")
        #expect(redactor.url("https://x.example#@frag") == "https://x.example#@frag")
        #expect(redactor.url("no scheme: user@example.com") == "no scheme: user@example.com")
        for name in ["serviceKey", "api_key", "apikey", "access_token", "client_secret"] {
            #expect(redactor.url("https://x.example/p?\(name)=SECRET&page=2") == "https://x.example/p?\(name)=<redacted>&page=2")
        }
        for header in ["Location", "Referer", "Content-Location"] {
            let shown = redactor.header(header, "https://u:SECRET@x.example/cb?access_token=SECRET&state=1")
            #expect(!shown.contains("SECRET"), "\(header): \(shown)")
            #expect(shown.contains("state=1"))
        }
        #expect(redactor.header("X-Other", "plain") == "plain")
    }
}
