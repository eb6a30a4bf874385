import Courier
import CourierSandbox
import CourierTestSupport
import Foundation
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    /// Raon's program list through an HTTP cache on disk: read again offline, or served from the
    /// cache when the service fails.
    @Suite("Raon: the program list through a disk cache")
    struct ProgramListCacheTests {
        static func folder() -> URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("courier-raon-cache-\(UUID().uuidString)")
        }

        static func configuration(_ folder: URL, _ policy: CachePolicy) throws -> NetworkClient.Configuration {
            .init(middlewares: [CacheMiddleware(storage: try DiskCacheStorage(directory: folder), defaultPolicy: policy)], timeout: .seconds(120))
        }

        @Test("a list loaded once loads again offline with no request to the service")
        func offlineListSendsNothing() async throws {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await withSeoulSandbox { sandbox in
                let online = try await sandbox.seoul(configuration: Self.configuration(folder, .preferCache)).allPrograms()
                let requests = try await sandbox.seoulStats().requests
                #expect(requests == 5, "the probe and four pages")
                let offline = try await sandbox.seoul(configuration: Self.configuration(folder, .offline)).allPrograms()
                #expect(offline == online)
                #expect(try await sandbox.seoulStats().requests == requests)
            }
        }

        @Test("offline with nothing stored: a 504 from the cache, no request")
        func offlineMissIsGatewayTimeout() async throws {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await withSeoulSandbox { sandbox in
                let client = try sandbox.seoul(configuration: Self.configuration(folder, .offline))
                do throws(SeoulAPIError) {
                    _ = try await client.allPrograms()
                    Issue.record("an empty cache served a list")
                } catch {
                    #expect(error.networkError.statusCode == 504)
                }
                #expect(try await sandbox.seoulStats().requests == 0)
            }
        }

        @Test("offline first: when every page fails, the stored list is served")
        func failingServiceServesStoredList() async throws {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await withSeoulSandbox { sandbox in
                let client = try sandbox.seoul(configuration: Self.configuration(folder, .preferCache))
                let first = try await client.allPrograms()
                try await sandbox.seoulControl(["failStart": 1, "failWith": 503])
                #expect(try await client.allPrograms() == first)
                #expect(try await sandbox.seoulStats().injectedFailures > 0)
                let uncached = sandbox.seoul()
                await #expect(throws: SeoulAPIError.self) { _ = try await uncached.allPrograms() }
            }
        }
    }
}
