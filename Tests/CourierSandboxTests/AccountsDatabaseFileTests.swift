import Foundation
import Testing

@testable import CourierSandbox

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The accounts database (e-mail addresses, password hashes) is owner-only from the moment it
/// exists, not made so by a chmod after SQLite created it readable by everyone.
@Suite("Sandbox: the accounts database is created 0600")
struct AccountsDatabaseFileTests {
    /// The permission bits of the file at `url`, nil when it does not exist.
    static func mode(_ url: URL) -> mode_t? {
        var status = stat()
        return stat(url.path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    #if os(Linux)
    @Test("the file is created 0600 and its mode is never changed afterwards (inotify sees no IN_ATTRIB); -wal and -shm 0600 too")
    func createdPrivate() async throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let watcher = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(watcher >= 0)
        defer { close(watcher) }
        try #require(inotify_add_watch(watcher, directory.path, UInt32(IN_CREATE | IN_ATTRIB)) >= 0)

        try await withAccountsSandbox(dataDirectory: directory) { sandbox, _ in
            _ = try await sandbox.registerAndLogin()
            let file = directory.appendingPathComponent("accounts.sqlite")
            #expect(Self.mode(file) == 0o600)
            for suffix in ["-wal", "-shm"] {
                let companion = directory.appendingPathComponent("accounts.sqlite" + suffix)
                if let mode = Self.mode(companion) { #expect(mode == 0o600, "\(suffix): \(String(mode, radix: 8))") }
            }
        }

        let events = Self.events(watcher).filter { $0.name == "accounts.sqlite" }
        #expect(events.contains { $0.mask & UInt32(IN_CREATE) != 0 }, "\(events)")
        // SQLite created it 0644 and the sandbox chmod-ed it after: that was an IN_ATTRIB.
        #expect(!events.contains { $0.mask & UInt32(IN_ATTRIB) != 0 }, "the file's mode was changed after it was created: \(events)")
    }

    /// The events queued on `watcher`: name and mask.
    static func events(_ watcher: Int32) -> [(name: String, mask: UInt32)] {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { read(watcher, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        var events: [(name: String, mask: UInt32)] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let (mask, length) = buffer.withUnsafeBytes { raw in
                let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                return (event.mask, Int(event.len))
            }
            let nameBytes = buffer[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }
            events.append((String(decoding: nameBytes, as: UTF8.self), mask))
            offset += header + length
        }
        return events
    }
    #endif

    @Test("a database directory it creates is 0700; a file from before that others can read is made 0600")
    func directoryAndOlderFile() async throws {
        let parent = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let fresh = parent.appendingPathComponent("fresh")
        try await withAccountsSandbox(dataDirectory: fresh) { sandbox, _ in
            _ = try await sandbox.registerAndLogin()
        }
        #expect(Self.mode(fresh) == 0o700)
        #expect(Self.mode(fresh.appendingPathComponent("accounts.sqlite")) == 0o600)

        let older = parent.appendingPathComponent("older")
        try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
        let file = older.appendingPathComponent("accounts.sqlite")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o644]))
        try await withAccountsSandbox(dataDirectory: older) { sandbox, _ in
            _ = try await sandbox.registerAndLogin()
        }
        #expect(Self.mode(file) == 0o600)
    }
}
