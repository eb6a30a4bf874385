import Courier
import CourierCache
import CourierSandbox
import Foundation
import IntegrationTestSupport
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

        @Test("a poster read once comes from the disk cache afterwards, also for a new client on the folder")
        func posterIsCached() async throws {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await withSeoulSandbox { sandbox in
                let key = "poster-\(UUID().uuidString.prefix(8))"
                let link = sandbox.baseURL.absoluteString + "/cache/\(key)?bytes=30000&cc=max-age%3D86400"
                let program = try CulturalProgram(
                    row: CulturalEventRow(title: "포스터 시험", mainImage: link, startDate: "2026-11-20", endDate: "2026-11-30"))
                let first = try await sandbox.seoul(configuration: Self.configuration(folder, .standard)).poster(of: program)
                let second = try await sandbox.seoul(configuration: Self.configuration(folder, .standard)).poster(of: program)
                #expect(first?.count == 30_000)
                #expect(second == first)
                let stats = try await NetworkClient().request(TestEndpoint(sandbox.baseURL, "/cache/\(key)/stats"), as: CacheStats.self)
                #expect(stats.hits == 1)
                let bare = try CulturalProgram(row: CulturalEventRow(title: "포스터 없음", startDate: "2026-11-20"))
                #expect(try await sandbox.seoul().poster(of: bare) == nil)
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
