import ArgumentParser
import CourierSandbox
import Foundation
import Logging

/// `courier serve`: run the sandbox server in the foreground.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the sandbox server (fault routes, probes, sample data, the User API).",
        discussion: "Stops cleanly on Ctrl-C (SIGINT) or SIGTERM. Logs each request (the path only: queries may hold keys)."
    )

    @Option(name: .long, help: "Port to listen on.") var port: Int = 8080
    @Option(name: .long, help: "Interface to bind (loopback by default).") var host: String = "127.0.0.1"
    @Option(name: .long, help: "Where the accounts database lives (default: $XDG_DATA_HOME/courier or ~/.local/share/courier).") var dataDir: String?

    func run() async throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        var options = SandboxServer.Options()
        options.host = host
        options.port = port
        options.logRequests = true
        let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? DataHome.courierDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        options.dataDirectory = directory
        let logger = { () -> Logger in
            // Request lines quote what clients sent: escaped when stderr is a terminal.
            var logger = Logger(label: "courier.sandbox") { StreamLogHandler(label: $0, stream: Terminal.StandardError(), metadataProvider: nil) }
            logger.logLevel = .info
            return logger
        }()
        let host = self.host
        try await SandboxServer.run(options: options, logger: logger) { port in
            logger.info("sandbox listening on http://\(host):\(port) (data: \(directory.path)) — Ctrl-C to stop")
        }
        logger.info("sandbox stopped")
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
