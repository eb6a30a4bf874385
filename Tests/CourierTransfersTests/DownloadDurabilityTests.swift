import Courier
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import Testing

/// `DownloadOptions.durability`: synced before the rename (the default) or left to the OS, as
/// `curl -o` does — the same file either way, resumable either way.
@Suite("Downloads: synced or left to the OS")
struct DownloadDurabilityTests {
    @Test(
        "synced or left to the OS, a file over several write-back steps arrives whole, and the next download of it starts at once",
        arguments: [DownloadOptions.Durability.synced, .leftToOS])
    func wholeEitherWay(_ durability: DownloadOptions.Durability) async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient()
            let size: Int64 = 13 << 20
            let target = scratch.file("d.bin")
            let options = DownloadOptions(resume: .never, durability: durability)
            for seed: UInt64 in [3, 4] {
                // The second download takes the partial's lock right after the first released it
                // (the write-back's own descriptor may still be open: it holds no lock).
                let file = try await client.download(routes.file("d.bin", ["size": size, "seed": Int(seed)]), to: target, options: options)
                #expect(file.bytes == size && file.bytesFetched == size)
                #expect(try Data(contentsOf: target) == TransferRoutes.content(size: size, seed: seed))
                #expect(scratch.names == ["d.bin"])
            }
        }
    }

    @Test("left to the OS, a cut download still leaves its partial and state, and the next call resumes it")
    func leftToOSResumes() async throws {
        try await withSandbox { sandbox in
            let routes = TransferRoutes(sandbox: sandbox)
            let scratch = try ScratchDirectory()
            let client = NetworkClient()
            let (size, cut): (Int64, Int64) = (3 << 20, 1_234_567)
            let endpoint = routes.file("r.bin", ["size": size, "cutAt": cut, "cuts": 1, "key": transferKey("durability")])
            let target = scratch.file("r.bin")
            let options = DownloadOptions(retry: RetryPolicy(maxAttempts: 1), durability: .leftToOS)
            await #expect(throws: NetworkError.networkError(URLError(.networkConnectionLost))) {
                _ = try await client.download(endpoint, to: target, options: options)
            }
            #expect(scratch.names == ["r.bin.courier-partial", "r.bin.courier-resume"])
            let file = try await client.download(endpoint, to: target, options: options)
            #expect(file.resumedFrom > 0 && file.bytes == size)
            #expect(try Data(contentsOf: target) == TransferRoutes.content(size: size))
            #expect(scratch.names == ["r.bin"])
        }
    }
}
