import Courier
import CourierTransportCore
public import Foundation

/// A finished download: the file in place and how it got there.
public struct DownloadedFile: Sendable, Equatable {
    /// Where the file is (the target the caller gave).
    public var url: URL
    /// The file's size in bytes.
    public var bytes: Int64
    /// Bytes that were already there from an earlier, interrupted download (0 when none were kept).
    public var resumedFrom: Int64
    /// Bytes fetched over the network by this call (over every request it made).
    public var bytesFetched: Int64
    /// The file's SHA-256 (lowercase hex) when a checksum was asked for.
    public var sha256: String?

    /// Creates a result.
    public init(url: URL, bytes: Int64, resumedFrom: Int64, bytesFetched: Int64, sha256: String?) {
        self.url = url
        self.bytes = bytes
        self.resumedFrom = resumedFrom
        self.bytesFetched = bytesFetched
        self.sha256 = sha256
    }
}
