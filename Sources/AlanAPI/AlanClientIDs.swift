public import Courier
public import Foundation

/// The `client_id` of each ``AlanTask``, with an optional fallback for tasks without their own.
/// A task with no key is `NetworkError.invalidAPIKey` before anything is sent. Keys never
/// appear in ``description`` (so not in logs or string interpolation either).
///
/// ```swift
/// let keys = AlanClientIDs.environment()   // ALAN_CLIENT_ID, ALAN_CLIENT_ID_COIN_REPORT …
/// let id = try keys.clientID(for: .coinReport)
/// ```
public struct AlanClientIDs: Sendable, CustomStringConvertible, CustomReflectable {
    private var byTask: [AlanTask: String]
    /// The key for tasks without their own.
    private var fallback: String?

    /// Keys per task and an optional fallback for the others. Empty keys count as missing.
    public init(_ byTask: [AlanTask: String] = [:], fallback: String? = nil) {
        self.byTask = byTask.filter { !$0.value.isEmpty }
        self.fallback = fallback.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The same key for every task.
    public static func single(_ clientID: String) -> AlanClientIDs { AlanClientIDs(fallback: clientID) }

    /// Keys from `environment`: `ALAN_CLIENT_ID` for every task, `ALAN_CLIENT_ID_<TASK>` (e.g.
    /// `ALAN_CLIENT_ID_COIN_REPORT`) for one task, taking precedence.
    public static func environment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        tasks: [AlanTask] = AlanTask.seedTasks + [.general]
    ) -> AlanClientIDs {
        var byTask: [AlanTask: String] = [:]
        for task in tasks {
            if let key = environment[task.environmentName] { byTask[task] = key }
        }
        return AlanClientIDs(byTask, fallback: environment["ALAN_CLIENT_ID"])
    }

    /// This set with `clientID` for `task`.
    public func setting(_ clientID: String, for task: AlanTask) -> AlanClientIDs {
        var copy = self
        if !clientID.isEmpty { copy.byTask[task] = clientID }
        return copy
    }

    /// The key for `task`, or `NetworkError.invalidAPIKey` when there is none.
    public func clientID(for task: AlanTask) throws(NetworkError) -> String {
        guard let key = byTask[task] ?? fallback else { throw .invalidAPIKey }
        return key
    }

    /// Whether `task` has a key.
    public func hasKey(for task: AlanTask) -> Bool { byTask[task] != nil || fallback != nil }

    /// Every key (for redaction).
    public var allKeys: [String] { Array(byTask.values) + (fallback.map { [$0] } ?? []) }

    /// The tasks with their own key, keys hidden.
    public var description: String {
        let tasks = byTask.keys.map(\.rawValue).sorted()
        return "AlanClientIDs(tasks: \(tasks), fallback: \(fallback == nil ? "none" : Redactor.mask))"
    }

    /// What `dump` shows: the tasks, never a key.
    public var customMirror: Mirror {
        Mirror(self, children: ["tasks": byTask.keys.map(\.rawValue).sorted(), "fallback": fallback == nil ? "none" : Redactor.mask])
    }
}
