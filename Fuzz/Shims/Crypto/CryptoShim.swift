import Foundation

// FUZZ BUILDS ONLY. A stand-in for swift-crypto's `Crypto` module with just the declarations
// Courier's sources name (Sources/CourierCache/CacheCredentials.swift and
// Sources/CourierTransportCore/SHA256Hasher.swift), so the Courier files the
// harnesses need compile without building BoringSSL (minutes, beyond the CI budget). Nothing here
// computes anything: every entry point traps with a clear message, so no harness can ever run —
// or pass on — fake cryptography. The parsers under test never reach it. If Courier starts using
// more of Crypto, the fuzz build fails to compile (loudly), never silently.

private func unavailable(_ what: String) -> Never {
    fatalError("Crypto.\(what) is not available in fuzz builds (Fuzz/Shims/Crypto): a harness reached code that needs swift-crypto")
}

public struct SymmetricKeySize: Sendable {
    public let bitCount: Int
    public init(bitCount: Int) { self.bitCount = bitCount }
    public static var bits128: SymmetricKeySize { SymmetricKeySize(bitCount: 128) }
    public static var bits192: SymmetricKeySize { SymmetricKeySize(bitCount: 192) }
    public static var bits256: SymmetricKeySize { SymmetricKeySize(bitCount: 256) }
}

public struct SymmetricKey: Sendable {
    public init<D: ContiguousBytes>(data: D) { unavailable("SymmetricKey(data:)") }
    public init(size: SymmetricKeySize) { unavailable("SymmetricKey(size:)") }
    public var bitCount: Int { unavailable("SymmetricKey.bitCount") }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { unavailable("SymmetricKey.withUnsafeBytes") }
}

public protocol HashFunction {
    associatedtype Digest: Sequence where Digest.Element == UInt8
}

public struct SHA256: HashFunction {
    public struct Digest: Sequence, Sendable {
        public func makeIterator() -> Array<UInt8>.Iterator { unavailable("SHA256.Digest") }
    }
    public init() { unavailable("SHA256()") }
    public mutating func update<D: DataProtocol>(data: D) { unavailable("SHA256.update") }
    public func finalize() -> Digest { unavailable("SHA256.finalize") }
    public static func hash<D: DataProtocol>(data: D) -> Digest { unavailable("SHA256.hash") }
}

public struct HMAC<H: HashFunction> {
    public struct MAC: Sequence, Sendable {
        public func makeIterator() -> Array<UInt8>.Iterator { unavailable("HMAC.MAC") }
    }
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> MAC {
        unavailable("HMAC.authenticationCode")
    }
}
