import ArgumentParser
import CourierSandbox
import Foundation
import Logging

/// `courier serve`: run the sandbox server in the foreground.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the sandbox server (fault routes, probes, sample data, the User API).",
        discussion: """
            Stops cleanly on Ctrl-C (SIGINT) or SIGTERM. Logs each request (the path only: queries may hold keys).
            Answers only requests whose Host is 127.0.0.1, localhost or [::1] (with its port or none), the --host \
            address, or a --host-name: any other name gets 421, so a web page cannot drive the sandbox through \
            DNS rebinding. Bodies of the JSON routes must be sent as application/json (else 415).
            Example: courier serve --host 0.0.0.0 --host-name devbox.local
            """
    )

    @Option(name: .long, help: "Port to listen on.") var port: Int = 8080
    @Option(name: .long, help: "Interface to bind (loopback by default); unless 0.0.0.0 or ::, also a name it answers to.") var host: String =
        "127.0.0.1"
    @Option(
        name: .customLong("host-name"),
        help: ArgumentHelp(
            "Another name clients may use in Host, e.g. the machine's LAN name (repeatable; no port).", valueName: "name"))
    var hostNames: [String] = []
    @Option(name: .long, help: "Where the accounts database lives (default: $XDG_DATA_HOME/courier or ~/.local/share/courier).") var dataDir: String?

    func validate() throws {
        for name in hostNames where name.isEmpty || name.contains("/") || Self.hasPort(name) {
            throw ValidationError("--host-name '\(name)' must be a host name or address without a port (the port is always --port)")
        }
    }

    func run() async throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        var options = SandboxServer.Options()
        options.host = host
        options.port = port
        options.logRequests = true
        options.extraHostNames = hostNames
        let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? DataHome.courierDirectory
        // 0700, as the XDG base directory spec asks: it holds the accounts database.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        options.dataDirectory = directory
        let logger = { () -> Logger in
            // Request lines quote what clients sent: escaped when stderr is a terminal.
            var logger = Logger(label: "courier.sandbox") { StreamLogHandler(label: $0, stream: Terminal.StandardError(), metadataProvider: nil) }
            logger.logLevel = .info
            return logger
        }()
        // The address to type: a wildcard is not one (and its Host would be refused), an IPv6 one goes in brackets.
        let host =
            ["0.0.0.0", "::", ""].contains(self.host)
            ? "127.0.0.1" : self.host.contains(":") && !self.host.hasPrefix("[") ? "[\(self.host)]" : self.host
        try await SandboxServer.run(options: options, logger: logger) { port in
            logger.info("sandbox listening on http://\(host):\(port) (data: \(directory.path)) — Ctrl-C to stop")
        }
        logger.info("sandbox stopped")
    }
}

extension ServeCommand {
    /// Whether `name` carries a port: `host:80`, `[::1]:80` (a bare IPv6 address has two colons or more).
    static func hasPort(_ name: String) -> Bool {
        if name.hasPrefix("[") { return name.contains("]:") }
        return name.filter { $0 == ":" }.count == 1
    }
}

/// The user's data home for Courier's files.
enum DataHome {
    static var courierDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("courier")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/courier")
    }
}
