import ArgumentParser
import Courier
import CourierCache
import Foundation

/// `--cache DIR`, `--no-cache` and `--offline` for a command that reads an API through an HTTP
/// cache on disk (`courier hn`, `courier raon`): by default answers are kept in
/// `$XDG_CACHE_HOME/courier/NAME` (or `~/.cache/courier/NAME`) and served stale when the network
/// fails; `--offline` reads only what is kept there.
struct CacheOptions: ParsableArguments {
    @Option(name: .long, help: "Keep answers in an HTTP cache in this folder (default: $XDG_CACHE_HOME/courier/… or ~/.cache/courier/…).")
    var cache: String?
    @Flag(name: .long, help: "Keep no HTTP cache: every read goes to the network.") var noCache = false
    @Flag(name: .long, help: "Read only what the cache holds (what was read before); send nothing to the network.") var offline = false

    func validate() throws {
        if noCache, offline { throw ValidationError("--offline reads the cache: it cannot be combined with --no-cache") }
        if noCache, cache != nil { throw ValidationError("--cache and --no-cache contradict each other") }
    }

    /// The folder in use for a command named `name`, or nil without a cache. With `inMemoryByDefault`
    /// (a stand-in on a new port each run) there is no default folder.
    func directory(named name: String, inMemoryByDefault: Bool = false) -> URL? {
        if noCache { return nil }
        if let cache { return URL(fileURLWithPath: cache, isDirectory: true) }
        return inMemoryByDefault ? nil : DiskCacheStorage.defaultDirectory(named: name)
    }

    /// The cache middleware for `name`: offline first (stale answers when the network fails), or
    /// offline only with `--offline`; nil with `--no-cache` (and by default with `inMemoryByDefault`).
    func middleware(named name: String, inMemoryByDefault: Bool = false) throws -> CacheMiddleware? {
        guard let directory = directory(named: name, inMemoryByDefault: inMemoryByDefault) else { return nil }
        do {
            let storage = try DiskCacheStorage(directory: directory)
            return CacheMiddleware(storage: storage, defaultPolicy: offline ? .offline : .preferCache)
        } catch {
            throw ValidationError("--cache: cannot use '\(directory.path)' as a cache folder (\(error.localizedDescription))")
        }
    }

    /// What to say when an `--offline` read found nothing stored (the cache answers 504), else nil.
    func offlineMiss(_ error: NetworkError, name: String) -> String? {
        guard offline, error.statusCode == 504 else { return nil }
        let folder = directory(named: name)?.path ?? "the cache"
        return "not in the cache (\(folder)): read it once without --offline first"
    }
}

/// Runs `body`, then — however it ends — waits for the writes a disk cache makes off the caller's
/// path (a 304's update of an entry): the process may exit right after, and the library installs
/// no exit handler of its own. `cache` is the command's cache middleware, nil without one.
func flushingCache<T>(_ cache: CacheMiddleware?, _ body: () async throws -> T) async throws -> T {
    let disk = cache?.storage as? DiskCacheStorage
    do {
        let value = try await body()
        await disk?.flush()
        return value
    } catch {
        await disk?.flush()
        throw error
    }
}
