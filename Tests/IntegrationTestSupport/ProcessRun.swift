import Foundation

/// What a finished process left.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var output: String
    public var errors: String
}

/// Runs `executable arguments…` to its end (through ``ChildProcess``: its end is awaited off the
/// concurrency pool, which has only two threads here); its output and errors go through files in
/// `scratch`.
public func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil, scratch: URL) async throws -> ProcessRun {
    let outputFile = scratch.appendingPathComponent("out-\(UUID().uuidString)")
    let errorFile = scratch.appendingPathComponent("err-\(UUID().uuidString)")
    let ended = try await ChildProcess.run(executable, arguments, environment: environment, stdout: .file(outputFile), stderr: .file(errorFile))
    return ProcessRun(
        status: ended.status,
        output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
        errors: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
    )
}
