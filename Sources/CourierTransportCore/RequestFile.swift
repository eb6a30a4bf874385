package import OpenAPIRuntime

/// A call's request body that is a file (an upload from a file), so a transport that can send a
/// file itself — URLSession's `uploadTask(with:fromFile:)`, which FoundationNetworking on Linux
/// streams from disk — does so instead of reading the body through. In the call's
/// ``CallContext/requestFile``; it applies only to the very `body` it names (a middleware that
/// replaces the body sends its own).
package struct RequestFile: Sendable {
    /// The body the call sends, which reads the file.
    package let body: HTTPBody
    /// The file's path.
    package let path: String
    /// Where a transport that sends the file itself reports the bytes it sends (an upload's progress).
    package let progress: (any ByteProgress)?

    package init(body: HTTPBody, path: String, progress: (any ByteProgress)? = nil) {
        self.body = body
        self.path = path
        self.progress = progress
    }

    /// The file `body` reads, when it is this one's body.
    package func of(_ body: HTTPBody) -> RequestFile? { self.body === body ? self : nil }
}

/// Counts bytes as they move (an upload's or a download's progress).
package protocol ByteProgress: Sendable {
    /// A transfer (or a replay of it) starts: `done` bytes so far of `expected`, if known.
    func begin(done: Int64, expected: Int64?)
    /// `count` more bytes moved.
    func add(_ count: Int)
}
