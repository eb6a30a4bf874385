import AlanAPI
import ArgumentParser
import Courier
import CourierSandbox
import Foundation

/// Options every Alan command (`courier alan …`, `courier coin report`) takes.
struct AlanOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "The service root (default https://kdt-api-function.azurewebsites.net; `courier serve`'s stand-in: http://127.0.0.1:8080/alan).")
    var baseURL: String = AlanAPI.defaultBaseURL.absoluteString
    @Flag(name: .long, help: "Start the sandbox in-process and use its Alan stand-in (no network, no key needed).")
    var sandbox = false
    @Option(
        name: .long,
        help:
            "The client_id for the task this command uses (visible in `ps`: prefer --client-id-file, or $ALAN_CLIENT_ID_<TASK>, then $ALAN_CLIENT_ID)."
    )
    var clientID: String?
    @Option(
        name: .customLong("client-id-file"),
        help: ArgumentHelp("A file holding the client_id for the task this command uses (one line).", valueName: "path"))
    var clientIDFile: String?
    @Option(name: .long, help: "The URL length limit in bytes; longer prompts fail before sending.")
    var maxURLLength: Int = AlanClient.defaultMaxURLLength
    @Flag(name: .long, help: "Allow plain http:// to a non-loopback host.")
    var allowInsecure = false

    func validate() throws {
        _ = try rootURL()
        guard maxURLLength >= 64 else { throw ValidationError("--max-url-length must be at least 64") }
    }

    /// `--base-url`, checked.
    func rootURL() throws -> URL {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--base-url must be an http:// or https:// URL, e.g. https://kdt-api-function.azurewebsites.net")
        }
        return url
    }

    /// The keys: the environment's, `--client-id` or `--client-id-file` for `task`, and a sandbox
    /// key when none is set.
    func keys(for task: AlanTask) throws -> AlanClientIDs {
        var keys = AlanClientIDs.environment()
        let given = try SecretSource.resolve(flag: clientID, flagName: "--client-id", file: clientIDFile, fileName: "--client-id-file")
        if let given { keys = keys.setting(given, for: task) }
        if sandbox, !keys.hasKey(for: task) { keys = keys.setting("sandbox-demo-key", for: task) }
        return keys
    }

    /// Runs `body` with a client for `--base-url` or the in-process sandbox's stand-in (and the
    /// stand-in's root, for its control routes); a ``NetworkError`` becomes its message and exit code.
    func withClient(
        task: AlanTask, settings: AlanSandboxControl.Settings? = nil,
        _ body: (AlanClient, URL?) async throws -> Void
    ) async throws {
        var root = try rootURL()
        let keys = try self.keys(for: task)  // before a sandbox starts: a bad --client-id-file ends here
        var running: RunningSandbox?
        if sandbox {
            let started = try await SandboxServer.start()
            running = started
            root = started.baseURL.appendingPathComponent("alan")
            if let settings { await started.alan.configure(settings) }
        }
        var configuration = NetworkClient.Configuration()
        if allowInsecure, let host = root.host { configuration.insecureHostsAllowed.insert(host.lowercased()) }
        let alan = AlanClient(
            baseURL: root, clientIDs: keys, defaultTask: task, maxURLLength: maxURLLength,
            configuration: configuration)
        do {
            try await body(alan, running == nil ? nil : root)
            await running?.stop()
        } catch let error as NetworkError {
            await running?.stop()
            Terminal.error(error.log(file: "courier", function: "alan"))
            switch error {
            case .invalidAPIKey:
                Terminal.error(
                    "no client_id for the task \(task): set \(task.environmentName) or ALAN_CLIENT_ID, or pass --client-id-file PATH (or --client-id)"
                )
            case .quotaExceeded:
                Terminal.error("the quota of this client_id is used up (the service answered 401)")
            default:
                Terminal.error(error.userMessage(in: .preferred))
            }
            throw ExitCode(ExitCodes.code(for: error.family))
        } catch {
            await running?.stop()
            throw error
        }
    }
}
