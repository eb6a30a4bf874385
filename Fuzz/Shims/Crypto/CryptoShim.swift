import Foundation

// FUZZ BUILDS ONLY. A stand-in for swift-crypto's `Crypto` module with just the declarations
// Courier's sources name (Sources/CourierCache/CacheCredentials.swift and
// Sources/CourierTransportCore/SHA256Hasher.swift), so the Courier files the harnesses need
// compile without building BoringSSL (minutes, beyond the CI budget).
//
// SHA-256 is real: a plain FIPS 180-4 implementation (below), because the outbox entry decoder
// checks every body's SHA-256 (OutboxEntryFuzz) — a harness cannot get past that check without
// one. It is checked against the FIPS 180-2 / NIST known answers (whole and fed in pieces) by
// `SHA256.selfTest()`, which OutboxEntryFuzz runs before fuzzing; a wrong digest stops the run.
// Everything else (HMAC, SymmetricKey) computes nothing: every entry point traps with a clear
// message, so no harness can ever run — or pass on — fake cryptography. If Courier starts using
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
        let bytes: [UInt8]
        public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }
    }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// Bytes not yet compressed (fewer than 64).
    private var pending: [UInt8] = []
    /// Bytes hashed so far.
    private var length: UInt64 = 0

    public init() {}

    public mutating func update<D: DataProtocol>(data: D) {
        for region in data.regions {
            region.withUnsafeBytes { raw in
                length &+= UInt64(raw.count)
                var offset = 0
                if !pending.isEmpty {
                    let take = min(64 - pending.count, raw.count)
                    pending.append(contentsOf: raw[0..<take])
                    offset = take
                    if pending.count == 64 {
                        let block = pending
                        pending.removeAll(keepingCapacity: true)
                        block.withUnsafeBytes { compress($0) }
                    }
                }
                while raw.count - offset >= 64 {
                    compress(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + 64)]))
                    offset += 64
                }
                pending.append(contentsOf: raw[offset...])
            }
        }
    }

    public func finalize() -> Digest {
        var copy = self
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        tail += [UInt8](repeating: 0, count: (119 - pending.count) % 64)
        tail += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
        copy.update(data: tail)
        precondition(copy.pending.isEmpty, "SHA256 padding")
        return Digest(bytes: copy.state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } })
    }

    public static func hash<D: DataProtocol>(data: D) -> Digest {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        var w = [UInt32](repeating: 0, count: 64)
        for i in 0..<16 {
            w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ SHA256.k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    /// Checks the implementation against the FIPS 180-2 known answers ("", "abc", the 448-bit
    /// message, a million 'a's), each also fed in uneven pieces; traps on a wrong digest.
    public static func selfTest() {
        let vectors: [([UInt8], String)] = [
            ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8),
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
            ([UInt8](repeating: 0x61, count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ]
        func hex(_ digest: Digest) -> String { digest.map { String(format: "%02x", $0) }.joined() }
        for (message, expected) in vectors {
            let whole = hex(hash(data: message))
            var pieces = SHA256()
            var start = 0
            var size = 1
            while start < message.count {
                let end = min(message.count, start + size)
                pieces.update(data: message[start..<end])
                start = end
                size = size % 131 + 1
            }
            let inPieces = hex(pieces.finalize())
            guard whole == expected, inPieces == expected else {
                fatalError("Fuzz/Shims/Crypto: SHA-256 of \(message.count) bytes is \(whole) (in pieces \(inPieces)), not \(expected)")
            }
        }
    }
}

public struct HMAC<H: HashFunction> {
    public struct MAC: Sequence, Sendable {
        public func makeIterator() -> Array<UInt8>.Iterator { unavailable("HMAC.MAC") }
    }
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> MAC {
        unavailable("HMAC.authenticationCode")
    }
}
