import Courier
import CourierCache
import CourierCookies
import CourierSandbox
import CourierTesting
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// A cache keeps callers apart and never writes a credential: answers to requests with
/// credentials are keyed by an HMAC of them under the directory's own key, `Set-Cookie` is never
/// stored, and the directory is the user's alone.
@Suite("Cache privacy")
struct CachePrivacyTests {
    /// Every byte of every file in `directory`.
    func everything(in directory: URL) throws -> Data {
        var all = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            all.append(try Data(contentsOf: directory.appendingPathComponent(name)))
        }
        return all
    }

    @Test("two users' answers are stored apart; no token, cookie or Vary value reaches the disk", arguments: [nil, "Authorization"])
    func usersApart(vary: String?) async throws {
        try await withSandbox { sandbox in
            let directory = temporaryCacheDirectory()
            let rig = CacheRig(sandbox, .disk, storage: try DiskCacheStorage(directory: directory))
            var query: RequestParameters = ["cc": "public, max-age=600"]
            if let vary { query["vary"] = vary }
            func fetch(_ token: String) async throws -> NetworkResponse {
                try await rig.client.response(rig.endpoint(query, headers: ["Authorization": "Bearer \(token)", "Cookie": "sid=\(token)-cookie"]))
            }
            _ = try await fetch("TOKEN-ALICE-1234")
            _ = try await fetch("TOKEN-BOB-5678")
            let again = try await fetch("TOKEN-ALICE-1234")
            #expect(again.headers[HTTPField.Name("X-Hit")!] == "1", "Alice's second call is her stored answer")
            #expect(try await rig.stats().hits == 2, "Bob's call was not answered with Alice's entry")
            let disk = String(decoding: try everything(in: directory), as: UTF8.self)
            // With `Vary: Authorization` the sandbox's body echoes the token ("variant"): that copy
            // is the content. The Vary value and the key must add none.
            let inBody = vary == nil ? 0 : 1
            for secret in ["TOKEN-ALICE", "TOKEN-BOB"] {
                #expect(disk.components(separatedBy: secret).count - 1 == inBody, "\(secret) on disk")
            }
            #expect(!disk.contains("-cookie"), "a cookie on disk")
        }
    }

    @Test("Set-Cookie is never stored; the answer still carries it the first time")
    func setCookieNotStored() async throws {
        let stub = StubTransport()
        stub.on(.get, "/profile", .status(200, body: "{}", headers: [.cacheControl: "max-age=600", .setCookie: "sid=SECRET-SESSION"]))
        let directory = temporaryCacheDirectory()
        let cache = CacheMiddleware(storage: try DiskCacheStorage(directory: directory))
        let client = NetworkClient(configuration: .init(baseURL: URL(string: "https://api.example.com")!, transport: stub, middlewares: [cache]))
        let endpoint = TestEndpoint(baseURL: URL(string: "https://api.example.com")!, path: "/profile")
        let first = try await client.response(endpoint)
        #expect(first.headers[.setCookie] == "sid=SECRET-SESSION")
        let second = try await client.response(endpoint)
        #expect(second.headers[.setCookie] == nil, "a stored answer has no cookie")
        #expect(!String(decoding: try everything(in: directory), as: UTF8.self).contains("SECRET-SESSION"))
    }

    @Test("the directory is created 0700 with a 0600 key that every store on it shares")
    func directoryAndKey() throws {
        let directory = temporaryCacheDirectory()
        let first = try DiskCacheStorage(directory: directory)
        let second = try DiskCacheStorage(directory: directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let key = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(".courier-key").path)
        #expect((key[.posixPermissions] as? Int) == 0o600)
        #expect(first.credentialKey.count == 32)
        #expect(first.credentialKey == second.credentialKey)
        #expect(first.credentialKey != (try DiskCacheStorage(directory: temporaryCacheDirectory())).credentialKey)
    }

    @Test("a directory writable by others or a symbolic link is refused")
    func refusedDirectories() throws {
        let open = temporaryCacheDirectory()
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        chmod(open.path, 0o777)
        #expect(throws: DiskCacheStorage.DirectoryError.writableByOthers(path: open.path)) { try DiskCacheStorage(directory: open) }
        let link = temporaryCacheDirectory()
        let target = temporaryCacheDirectory()
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: DiskCacheStorage.DirectoryError.notADirectory(path: link.path)) { try DiskCacheStorage(directory: link) }
    }
}
