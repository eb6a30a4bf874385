import Courier
import CourierTransportCore
import Foundation

extension DiskCacheStorage {
    /// One entry's files on disk: its entry file and body files (the names share a hash), or
    /// body files left without one.
    struct FileGroup {
        var files: [URL] = []
        var size = 0
        /// The latest modification among its files: reads touch the entry file.
        var accessed = Date.distantPast
    }

    /// Removes the least recently used entries, with their body files, until the files take at
    /// most 80% of the bound (the margin keeps a full cache from scanning on every write), and
    /// temporary files a crashed writer left over an hour ago.
    func evict() {
        let files = Self.scan(directory)
        var groups: [Substring: FileGroup] = [:]
        for file in files {
            let name = file.url.lastPathComponent
            let hash = name.prefix(DiskEntryFormat.hashLength)
            groups[hash, default: FileGroup()].files.append(file.url)
            groups[hash, default: FileGroup()].size += file.size
            groups[hash, default: FileGroup()].accessed = max(groups[hash, default: FileGroup()].accessed, file.accessed)
        }
        var total = files.reduce(0) { $0 + $1.size }
        let target = maxBytes / 10 * 8
        for group in groups.values.sorted(by: { $0.accessed < $1.accessed }) where total > target {
            for url in group.files { try? FileManager.default.removeItem(at: url) }
            total -= group.size
        }
        removeStaleTemporaries()
        setWritten(total)
    }

    /// Removes `.tmp-` files older than an hour: writers that crashed (a live writer is seconds old).
    private func removeStaleTemporaries() {
        let keys: [URLResourceKey] = [.contentModificationDateKey]
        let options: FileManager.DirectoryEnumerationOptions = []
        let urls = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys, options: options)) ?? []
        let cutoff = Date().addingTimeInterval(-3600)
        for url in urls where url.lastPathComponent.hasPrefix(".tmp-") {
            if let modified = try? url.resourceValues(forKeys: Set(keys)).contentModificationDate, modified < cutoff {
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    /// The entry and body files with their sizes and last access.
    static func scan(_ directory: URL) -> [(url: URL, size: Int, accessed: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        return urls.compactMap { url in
            let kind = url.pathExtension
            guard kind == DiskEntryFormat.fileExtension || kind == DiskEntryFormat.bodyExtension,
                let values = try? url.resourceValues(forKeys: Set(keys))
            else { return nil }
            return (url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }
    }
}
