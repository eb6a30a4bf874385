import Foundation

// Helpers shared by every harness (compiled into each harness module by Fuzz/fuzz-common.sh).

/// Ends the run as a crash libFuzzer records (the input is saved as an artifact), with `message`.
func fuzzFailure(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    let text = "FUZZ INVARIANT BROKEN (\(file):\(line)): \(message())\n"
    FileHandle.standardError.write(Data(text.utf8))
    fatalError("fuzz invariant broken")
}

/// Whether the invariant check named `name` is on: `FUZZ_<NAME>=0` turns it off (to keep fuzzing
/// past a known finding), anything else or nothing leaves it on.
func fuzzCheck(_ name: String) -> Bool {
    ProcessInfo.processInfo.environment["FUZZ_\(name)"] != "0"
}

/// The input as a byte array.
func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// A deterministic generator (SplitMix64) seeded from the input, so a crash reproduces.
struct FuzzRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// `bytes` cut into pieces whose sizes `random` picks (1…maxPiece, now and then an empty piece).
func fuzzChunks(_ bytes: [UInt8], random: inout FuzzRandom, maxPiece: Int) -> [ArraySlice<UInt8>] {
    var chunks: [ArraySlice<UInt8>] = []
    var start = 0
    while start < bytes.count {
        if random.below(8) == 0 { chunks.append(bytes[start..<start]) }
        let size = 1 + random.below(max(1, maxPiece))
        let end = min(bytes.count, start + size)
        chunks.append(bytes[start..<end])
        start = end
    }
    return chunks
}

/// A short printable rendering of `bytes` for failure messages.
func fuzzShow(_ bytes: some Collection<UInt8>, limit: Int = 300) -> String {
    String(decoding: bytes.prefix(limit), as: UTF8.self).debugDescription + (bytes.count > limit ? "…(\(bytes.count) bytes)" : "")
}
