import ArgumentParser
import Foundation
import Testing

@testable import courier

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Secrets from a file or the environment instead of a flag `ps` shows: `SecretSource` and the
/// options that use it.
@Suite("CLI secrets: --…-file options and environment variables")
struct SecretSourceTests {
    /// A new file holding `text` with `mode`, in a folder removed by `cleanUp`.
    static func file(_ text: String, mode: mode_t = 0o600) throws -> (path: String, cleanUp: @Sendable () -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("secret")
        try Data(text.utf8).write(to: file)
        chmod(file.path, mode)
        return (file.path, { try? FileManager.default.removeItem(at: directory) })
    }

    @Test("a secret file: its one line without the line break (LF or CRLF); a trailing space stays")
    func readsOneLine() throws {
        for (text, expected) in [
            ("KEY123\n", "KEY123"), ("KEY123", "KEY123"), ("KEY123\r\n", "KEY123"), ("pass word \n\n", "pass word "), ("비밀번호1\n", "비밀번호1"),
        ] {
            let (path, cleanUp) = try Self.file(text)
            defer { cleanUp() }
            #expect(try SecretSource.read(path, option: "--key-file") == expected, "\(text.debugDescription)")
        }
    }

    @Test("an empty file, two lines, a missing file, a huge file, bytes that are not UTF-8: refused, naming the option")
    func refusals() throws {
        for text in ["", "\n", "KEY\nMORE\n", String(repeating: "k", count: SecretSource.maxFileBytes + 1)] {
            let (path, cleanUp) = try Self.file(text)
            defer { cleanUp() }
            #expect(throws: ValidationError.self, "\(text.prefix(20).debugDescription)") { try SecretSource.read(path, option: "--key-file") }
        }
        do {
            _ = try SecretSource.read("/nonexistent/secret", option: "--key-file")
            Issue.record("a missing file was read")
        } catch let error as ValidationError {
            #expect(error.message.hasPrefix("--key-file /nonexistent/secret: "), "\(error.message)")
        }
        let (path, cleanUp) = try Self.file("")
        defer { cleanUp() }
        try Data([0x4B, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        #expect(throws: ValidationError.self) { try SecretSource.read(path, option: "--key-file") }
    }

    @Test("the flag wins, then the file, then the first environment variable that is set and not empty; flag and file together is a usage error")
    func precedence() throws {
        let (path, cleanUp) = try Self.file("FROM-FILE\n")
        defer { cleanUp() }
        let environment = ["EMPTY": "", "SECOND": "FROM-ENV"]
        let resolve = { (flag: String?, file: String?) in
            try SecretSource.resolve(
                flag: flag, flagName: "--key", file: file, fileName: "--key-file", environment: ["UNSET", "EMPTY", "SECOND"], from: environment)
        }
        #expect(try resolve("FROM-FLAG", nil) == "FROM-FLAG")
        #expect(try resolve(nil, path) == "FROM-FILE")
        #expect(try resolve(nil, nil) == "FROM-ENV")
        #expect(
            try SecretSource.resolve(flag: nil, flagName: "--key", file: nil, fileName: "--key-file", environment: ["UNSET"], from: environment)
                == nil)
        #expect(throws: ValidationError.self) { try resolve("FROM-FLAG", path) }
    }

    @Test("courier alan/coin: --client-id-file gives the client_id of the command's task")
    func alanClientIDFile() throws {
        let (path, cleanUp) = try Self.file("client-from-file\n")
        defer { cleanUp() }
        let options = try AlanOptions.parse(["--client-id-file", path])
        #expect(try options.keys(for: .coinReport).clientID(for: .coinReport) == "client-from-file")
        #expect(throws: ValidationError.self) { try AlanOptions.parse(["--client-id-file", path, "--client-id", "x"]).keys(for: .general) }
    }

    @Test("courier users: --password-file, then $COURIER_PASSWORD; one password option at a time")
    func passwordSources() throws {
        let (path, cleanUp) = try Self.file("Passw0rd! \n")
        defer { cleanUp() }
        let fromFile = try UsersPasswordOptions.parse(["--password-file", path])
        #expect(try fromFile.read(confirm: true, environment: ["COURIER_PASSWORD": "ignored"]) == "Passw0rd! ")
        let fromEnvironment = try UsersPasswordOptions.parse([])
        #expect(try fromEnvironment.read(confirm: true, environment: ["COURIER_PASSWORD": "FromEnv1"]) == "FromEnv1")
        #expect(throws: (any Error).self) { try UsersPasswordOptions.parse(["--password-file", path, "--password-stdin"]) }
        #expect(throws: (any Error).self) { try UsersPasswordOptions.parse(["--password-file", path, "--password", "x"]) }
    }

    @Test("courier request: --header @FILE reads header lines, --query name@FILE one value; name=value with an @ stays a value")
    func requestFiles() throws {
        let (headers, cleanUpHeaders) = try Self.file("Authorization: Bearer SECRET-TOKEN\r\nX-Other: 1\n\n")
        defer { cleanUpHeaders() }
        #expect(
            try RequestCommand.headerLines(["Accept: text/plain", "@" + headers]) == [
                "Accept: text/plain", "Authorization: Bearer SECRET-TOKEN", "X-Other: 1",
            ])
        #expect(throws: ValidationError.self) { try RequestCommand.headerLines(["@/nonexistent/headers"]) }
    }

    @Test("courier serve --host-name: a port in the name is refused")
    func hostNamePorts() {
        for name in ["devbox.local:8080", "[::1]:8080", "10.0.0.1:80"] { #expect(ServeCommand.hasPort(name), "\(name)") }
        for name in ["devbox.local", "::1", "[::1]", "fe80::1:2", "10.0.0.1"] { #expect(!ServeCommand.hasPort(name), "\(name)") }
    }
}
