import Foundation

extension DiskCacheStorage {
    /// `$XDG_CACHE_HOME/courier/name`, or `~/.cache/courier/name` when `XDG_CACHE_HOME` is unset
    /// or not absolute (as the XDG base directory spec says): where a program keeps a cache
    /// between runs.
    ///
    /// ```swift
    /// let storage = try DiskCacheStorage(directory: DiskCacheStorage.defaultDirectory(named: "hn"))
    /// ```
    public static func defaultDirectory(named name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("courier", isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }
}
