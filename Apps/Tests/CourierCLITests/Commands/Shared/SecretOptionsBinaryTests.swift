import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `courier` taking its secrets from files and the environment, as a script would give
/// them, against a real sandbox.
@Suite("courier: secrets from files and the environment, end to end", .serialized)
struct SecretOptionsBinaryTests {
    /// A scratch folder (its own HOME and XDG folders) for one test, removed afterwards.
    struct Scratch {
        let directory: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-secrets-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        /// A file named `name` holding `text`, with `mode`; its path.
        func file(_ name: String, _ text: String, mode: mode_t = 0o600) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            chmod(url.path, mode)
            return url.path
        }

        /// Runs the built `courier` with `arguments` and `environment` on top of a clean one:
        /// status, stdout, stderr.
        func courier(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String, errors: String) {
            var base = ProcessInfo.processInfo.environment.filter {
                !$0.key.hasPrefix("ALAN_CLIENT_ID") && !["SEOUL_API_KEY", "COURIER_PASSWORD"].contains($0.key)
            }
            for (name, folder) in [("HOME", "home"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")] {
                base[name] = directory.appendingPathComponent(folder).path
            }
            let run = UUID().uuidString
            let output = directory.appendingPathComponent("out-\(run)")
            let errors = directory.appendingPathComponent("err-\(run)")
            let status = try await ChildProcess.run(
                try ChildProcess.courierBinary(), arguments, environment: base.merging(environment) { $1 },
                stdout: .file(output), stderr: .file(errors)
            ).status
            return (
                status, String(decoding: try Data(contentsOf: output), as: UTF8.self), String(decoding: try Data(contentsOf: errors), as: UTF8.self)
            )
        }
    }

    @Test("courier users: register with --password-file, log in with $COURIER_PASSWORD; a wrong one is refused")
    func usersPasswordFromFileAndEnvironment() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sandbox = try await SandboxServer.start()
        do {
            let server = [
                "--server", sandbox.baseURL.absoluteString, "--credentials", scratch.directory.appendingPathComponent("credentials.json").path,
            ]
            let name = "secrets_\(UUID().uuidString.prefix(8).lowercased())"
            let password = try scratch.file("password", "Passw0rd!\n")
            let registered = try await scratch.courier(
                [
                    "users", "register", "--username", name, "--name", "홍길동", "--email", "hong@example.com",
                    "--age", "25", "--password-file", password,
                ] + server)
            #expect(registered.status == 0, "\(registered.errors)")
            let login = try await scratch.courier(["users", "login", "--username", name] + server, environment: ["COURIER_PASSWORD": "Passw0rd!"])
            #expect(login.status == 0 && login.output.contains(name), "\(login.errors)")
            let wrong = try await scratch.courier(["users", "login", "--username", name] + server, environment: ["COURIER_PASSWORD": "Wrong0pass"])
            #expect(wrong.status == 13, "\(wrong.errors)")
            let both = try await scratch.courier(["users", "login", "--username", name, "--password", "x", "--password-file", password] + server)
            #expect(both.status == 64 && both.errors.contains("--password-file"), "\(both.errors)")
        } catch {
            await sandbox.stop()
            throw error
        }
        await sandbox.stop()
    }

    @Test("courier raon --key-file: the key read from the file; a loose file warns; a missing one is a usage error")
    func raonKeyFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let list = ["raon", "list", "--sandbox", "--today", "2026-11-20", "--json"]
        let good = try scratch.file("key", "CourierSandboxKey20261120demo\n")
        let listed = try await scratch.courier(list + ["--key-file", good])
        #expect(listed.status == 0 && listed.output.hasPrefix("["), "\(listed.errors)")
        #expect(!listed.errors.contains("warning"))
        // The stand-in refuses a short key (INFO-100): the file's key was sent, not the sandbox's own.
        let bad = try scratch.file("bad-key", "short\n")
        #expect(try await scratch.courier(list + ["--key-file", bad]).status == 13)
        let loose = try scratch.file("loose-key", "CourierSandboxKey20261120demo\n", mode: 0o644)
        let warned = try await scratch.courier(list + ["--key-file", loose])
        #expect(warned.status == 0 && warned.errors.contains("can be read by other users (mode 644)"), "\(warned.errors)")
        let missing = try await scratch.courier(list + ["--key-file", scratch.directory.appendingPathComponent("none").path])
        #expect(missing.status == 64 && missing.errors.contains("--key-file"), "\(missing.errors)")
    }

    @Test("courier alan --client-id-file: a missing file ends before anything is sent (64)")
    func alanClientIDFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let missing = try await scratch.courier(["alan", "ask", "hi", "--sandbox", "--client-id-file", "/nonexistent/client-id"])
        #expect(missing.status == 64 && missing.errors.contains("--client-id-file /nonexistent/client-id"), "\(missing.errors)")
        let file = try scratch.file("client-id", "from-a-file\n")
        let asked = try await scratch.courier(["alan", "ask", "비트코인이 뭐야?", "--sandbox", "--client-id-file", file])
        #expect(asked.status == 0, "\(asked.errors)")
    }

    @Test("courier request: --header @FILE and --query name@FILE reach the server; the secrets are not in the arguments")
    func requestFromFiles() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let headers = try scratch.file("headers", "Authorization: Bearer TOKEN-FROM-FILE\nX-Api-Key: KEY-FROM-FILE\n")
        let key = try scratch.file("key", "QUERY-KEY-FROM-FILE\n")
        let sandbox = try await SandboxServer.start()
        let result: (status: Int32, output: String, errors: String)
        do {
            result = try await scratch.courier([
                "request", "GET", sandbox.baseURL.absoluteString + "/echo",
                "--header", "@" + headers, "--query", "serviceKey@" + key, "--query", "email=a@b.example",
            ])
        } catch {
            await sandbox.stop()
            throw error
        }
        await sandbox.stop()
        #expect(result.status == 0, "\(result.errors)")
        let echo = try JSONDecoder().decode(EchoAnswer.self, from: Data(result.output.utf8))
        #expect(echo.headers["authorization"] == "Bearer TOKEN-FROM-FILE" && echo.headers["x-api-key"] == "KEY-FROM-FILE")
        #expect(echo.query.sorted { $0[0] < $1[0] } == [["email", "a@b.example"], ["serviceKey", "QUERY-KEY-FROM-FILE"]])
    }
}
