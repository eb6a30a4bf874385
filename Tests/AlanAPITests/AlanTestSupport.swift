import AlanAPI
import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Logging

/// The stand-in's root on a running sandbox.
func alanRoot(_ sandbox: RunningSandbox) -> URL { sandbox.baseURL.appendingPathComponent("alan") }

/// A client for the stand-in with `clientID` for every task (unless `keys` is given).
func alanClient(
    _ sandbox: RunningSandbox, clientID: String = "test-client-7f3a", keys: AlanClientIDs? = nil,
    maxURLLength: Int = AlanClient.defaultMaxURLLength, configuration: NetworkClient.Configuration = .init()
) -> AlanClient {
    AlanClient(baseURL: alanRoot(sandbox), clientIDs: keys ?? .single(clientID), maxURLLength: maxURLLength, configuration: configuration)
}

/// Sets the stand-in's behaviour.
func control(_ sandbox: RunningSandbox, _ settings: AlanSandboxControl.Settings) async throws {
    await sandbox.alan.configure(settings)
}

/// The stand-in's counters (and `clientID`'s conversation).
func stats(_ sandbox: RunningSandbox, clientID: String? = nil) async throws -> AlanStats {
    await sandbox.alan.stats(clientID: clientID)
}

/// Collects a stream's events.
func collect(_ stream: AlanStream) async throws(NetworkError) -> [AlanStreamEvent] {
    var events: [AlanStreamEvent] = []
    for try await event in stream { events.append(event) }
    return events
}
