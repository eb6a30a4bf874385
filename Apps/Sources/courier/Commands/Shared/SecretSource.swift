import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a secret (a key, a client id, a password, a token) comes from besides its flag: a file
/// (`--key-file PATH`) or the environment.
///
/// A flag's value is in every other user's `ps` and in the shell's history; a file's or an
/// environment variable's is not (`/proc/PID/environ` is readable by the same user only). So every
/// option that takes a secret has a `…-file` twin and an environment variable, and says so in its help.
enum SecretSource {
    /// The largest secret file read; a longer one (or `/dev/zero`) is refused, not read to the end.
    static let maxFileBytes = 64 * 1024

    /// The secret for one option: `flag` (its value on the command line), else the contents of
    /// `file`, else the first set and non-empty of `environment`; nil when none is given.
    /// Giving both the flag and the file is a usage error.
    static func resolve(
        flag: String?, flagName: String, file: String?, fileName: String, environment variables: [String] = [],
        from environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String? {
        if flag != nil, file != nil { throw ValidationError("use either \(flagName) or \(fileName), not both") }
        if let flag { return flag }
        if let file { return try read(file, option: fileName) }
        return variables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
    }

    /// The secret in the file at `path`: one line, its line break removed (nothing else: a
    /// password may end in a space). Refused when empty, longer than ``maxFileBytes``, not UTF-8
    /// or more than one line; a warning on stderr when other users can read the file.
    static func read(_ path: String, option: String) throws -> String {
        let text = try readText(path, option: option)
        let secret = text.trimmingSuffix { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard !secret.isEmpty else { throw ValidationError("\(option) \(path) is empty") }
        guard !secret.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            throw ValidationError("\(option) \(path) must hold one line (the secret alone)")
        }
        return secret
    }

    /// The whole text of the file at `path` (at most ``maxFileBytes``, UTF-8), as for ``read(_:option:)``.
    static func readText(_ path: String, option: String) throws -> String {
        let bytes = try readBytes(path, option: option)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ValidationError("\(option) \(path): not UTF-8 text") }
        return text
    }

    /// Every byte of the file at `path` (at most ``maxFileBytes``; binary allowed, as a PKCS#12
    /// bundle), with the same warning when other users can read it.
    static func readBytes(_ path: String, option: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ValidationError("\(option) \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o044 != 0 {
            // A warning, not a refusal: container secrets (Docker's, Kubernetes') are mounted 0444/0644.
            let mode = String(status.st_mode & 0o777, radix: 8)
            Terminal.error("warning: \(option) \(path) can be read by other users (mode \(mode)); chmod 600 it")
        }
        return try readAll(descriptor, path: path, option: option)
    }

    /// Every byte up to ``maxFileBytes`` + 1 (a pipe, as from `<(pass show key)`, arrives in pieces).
    private static func readAll(_ descriptor: Int32, path: String, option: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= maxFileBytes {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw ValidationError("\(option) \(path): \(String(cString: strerror(errno)))")
            }
            bytes += chunk[..<count]
        }
        throw ValidationError("\(option) \(path) is longer than \(maxFileBytes) bytes: not a secret")
    }
}

/// `read(2)` (inside ``SecretSource`` the name is its own `read(_:option:)`).
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

extension String {
    /// Without the characters at the end that satisfy `remove`.
    fileprivate func trimmingSuffix(while remove: (Character) -> Bool) -> String {
        var end = endIndex
        while end > startIndex, remove(self[index(before: end)]) { end = index(before: end) }
        return String(self[..<end])
    }
}
