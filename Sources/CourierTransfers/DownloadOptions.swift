/// How `NetworkClient/download(_:to:options:progress:)` fetches a file.
///
/// ```swift
/// var options = DownloadOptions()
/// options.checksum = "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
/// let file = try await client.download(Assets.archive, to: target, options: options)
/// ```
public import Courier
import CourierTransportCore

public struct DownloadOptions: Sendable {
    /// Whether an earlier, interrupted download to the same target is continued.
    public enum Resume: Sendable, Equatable {
        /// Always start from the first byte (what was there is replaced at the end, as ever).
        case never
        /// Continue a partial file left by an earlier download of the same URL, when it recorded a
        /// strong validator: asked with `Range` and `If-Range`, so a changed file comes whole.
        case whenValid
        /// As ``whenValid``; and when there is no usable state, take the bytes already there —
        /// the partial file, or else the target file itself — as the file's beginning, asked with
        /// `Range` alone (curl's `--continue-at -`). A complete file is then not fetched again.
        case fromExistingBytes
    }

    /// Whether a finished file is on disk before it takes the target's name.
    public enum Durability: Sendable, Equatable {
        /// The file is synced (`fsync`) before it is renamed over the target, and the directory
        /// after: once the download returns, the file — whole — survives a power loss, and the
        /// target is never left empty or with the new name over missing bytes. While the body
        /// arrives, the kernel is asked to start writing it back every 4 MiB (on Linux), so the
        /// final sync has little left to do.
        case synced
        /// Nothing is synced and no write-back is asked for: the kernel writes the file back when
        /// it chooses, as `curl -o` does. It saves the final sync's wait, which on a slow disk cost
        /// 40% of a 1 GiB download (measured 2026-11-27); on a disk that keeps pace the early
        /// write-back ``synced`` asks for can make synced the faster of the two (measured
        /// 2026-11-28 on ext4 here: a median 1.40 s synced, 1.85 s left to the OS). After a power
        /// loss within the next seconds the target may be missing, empty or hold zeroes where
        /// bytes were. A crash of the process alone loses nothing: the rename still puts the whole
        /// file in place at once.
        case leftToOS
    }

    /// Whether to continue an interrupted download (``Resume/whenValid`` by default).
    public var resume: Resume
    /// The file's expected SHA-256 as `sha256:` and 64 hex digits; checked before the file is
    /// put in place. A mismatch is `FileFailure/checksumMismatch(expected:actual:)` and
    /// nothing is kept.
    public var checksum: String?
    /// No bytes for this long fails the transfer with `.timedOut` (then resumed under the retry
    /// policy); nil waits for ever. The endpoint's timeout bounds only the wait for each head.
    public var idleTimeout: Duration?
    /// A body cut off mid-way is resumed within the same call under this policy's attempts,
    /// backoff and retryable errors; nil takes the client's `RetryMiddleware`'s policy, and a
    /// client without one does not resume within a call (the partial file stays for the next).
    public var retry: RetryPolicy?
    /// The largest file accepted, in bytes; nil accepts any size (the disk is the bound).
    public var maxBytes: Int64?
    /// Whether the file is synced to disk before it is put in place (``Durability/synced`` by
    /// default) or left to the OS (``Durability/leftToOS``, as `curl -o` does).
    public var durability: Durability

    /// Options that resume when they can, with a 60 s idle timeout, no checksum, and the file
    /// synced before it is put in place.
    public init(
        resume: Resume = .whenValid, checksum: String? = nil, idleTimeout: Duration? = .seconds(60),
        retry: RetryPolicy? = nil, maxBytes: Int64? = nil, durability: Durability = .synced
    ) {
        self.resume = resume
        self.checksum = checksum
        self.idleTimeout = idleTimeout
        self.retry = retry
        self.maxBytes = maxBytes
        self.durability = durability
    }
}
