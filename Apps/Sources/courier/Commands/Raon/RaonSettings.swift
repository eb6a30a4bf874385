import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `courier raon`'s settings (the app's favourite district): a small JSON file,
/// `$XDG_CONFIG_HOME/courier/raon/settings.json` (default `~/.config/courier/raon/settings.json`).
///
/// Written whole or not at all: the new text goes to a temporary file beside it, is flushed to
/// the disk, then renamed over the old one (`rename(2)` is atomic), so a reader — another
/// `courier` at the same moment, or the next run after a crash or a full disk — sees the old
/// settings or the new, never half of either.
struct RaonSettings: Codable, Equatable {
    /// The district `raon list` shows when no `--district` is given; nil: every district.
    var district: String?

    /// Every setting written, an unset one as `null` (the file shows what can be set).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(district, forKey: .district)
    }

    /// The largest settings file read (a bigger one is not settings).
    static let maxFileBytes = 64 * 1024

    /// Why the settings file cannot be used.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The settings file for `environment`.
    static func file(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return base.appendingPathComponent("courier/raon/settings.json")
    }

    /// The settings in `file`; empty ones when there is no file yet.
    static func load(from file: URL = file()) throws(Failure) -> RaonSettings {
        guard FileManager.default.fileExists(atPath: file.path) else { return RaonSettings() }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
        } catch {
            throw Failure(description: "\(file.path) cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= maxFileBytes else { throw Failure(description: "\(file.path) is larger than \(maxFileBytes) bytes: not settings") }
        do {
            return try JSONDecoder().decode(RaonSettings.self, from: data)
        } catch {
            throw Failure(description: "\(file.path) is not valid settings (\(error.localizedDescription)); set them again to replace it")
        }
    }

    /// ``load(from:)``, or empty settings and a warning on stderr when the file cannot be used.
    static func loadOrWarn(from file: URL = file()) -> RaonSettings {
        do {
            return try load(from: file)
        } catch {
            Terminal.error("warning: settings ignored: \(error)")
            return RaonSettings()
        }
    }

    /// Writes these settings to `file`, whole or not at all (see ``RaonSettings``).
    func save(to file: URL = file()) throws(Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try Self.writeAtomically(try encoder.encode(self) + Data("\n".utf8), to: file)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(file.path) cannot be written: \(error.localizedDescription)")
        }
    }

    /// `data` to `file` through a temporary file in the same folder: written, `fsync`ed, renamed
    /// over `file`, and the folder `fsync`ed so the rename itself survives a crash. On any
    /// failure the temporary file is removed and `file` is as it was.
    static func writeAtomically(_ data: Data, to file: URL) throws {
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary.path)") }
        var placed = false
        defer { if !placed { unlink(temporary.path) } }
        var failed: String?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    failed = "cannot write \(temporary.path)"
                    return
                }
                offset += written
            }
        }
        if failed == nil, fsync(descriptor) != 0 { failed = "cannot flush \(temporary.path)" }
        let failedErrno = errno
        if close(descriptor) != 0, failed == nil { failed = "cannot close \(temporary.path)" }
        if let failed {
            errno = failedErrno
            throw failure(failed)
        }
        guard rename(temporary.path, file.path) == 0 else { throw failure("cannot replace \(file.path)") }
        placed = true
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// A ``Failure`` saying `what` failed, with `errno`'s reason.
    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
