import AsyncHTTPClient
import CourierAsyncHTTPClient
import Testing

@Suite("HTTPClientTransport: how its AsyncHTTPClient is configured")
struct HTTPClientTransportSettingsTests {
    @Test("with no tracer bootstrapped, the client traces nothing (no no-op span per request)")
    func noTracerWhenNoneBootstrapped() async throws {
        let transport = HTTPClientTransport()
        #expect(transport.client.tracer == nil)
        try await transport.shutdown()
    }

    @Test("no idle read timeout unless asked for: the call's deadline bounds a stalled body")
    func readTimeoutIsOptIn() {
        #expect(HTTPClientTransport.Settings().readTimeout == nil)
        var settings = HTTPClientTransport.Settings()
        settings.readTimeout = .seconds(5)
        #expect(settings.readTimeout == .seconds(5))
    }
}
