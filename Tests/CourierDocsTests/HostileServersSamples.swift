// Mirrors: Sources/Courier/Courier.docc/Articles/hostile-servers.md
import Courier
import Testing

@Suite("Docs: limits and hostile servers")
struct HostileServersSamples {
    @Test("the limits and the redirect policy are set on the configuration")
    func limits() {
        var configuration = NetworkClient.Configuration()
        configuration.limits.maxResponseBytes = 64 * 1024 * 1024
        configuration.limits.maxRedirects = 3
        configuration.redirects = RedirectPolicy { from, to, _ in from.host == to.host }
        let client = NetworkClient(configuration: configuration)
        #expect(client.configuration.maxResponseBytes == 64 * 1024 * 1024)
        #expect(client.configuration.limits.maxRedirects == 3)
        #expect(client.configuration.redirects.decide != nil)
    }
}
