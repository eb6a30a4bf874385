import Foundation

@testable import CourierLLM

/// A seeded generator (SplitMix64), so a failing chunking can be reproduced from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

enum Chunking {
    /// `bytes` cut at random places: mostly small chunks (as tokens arrive), sometimes large ones.
    static func random(_ bytes: [UInt8], using generator: inout SeededGenerator) -> [ArraySlice<UInt8>] {
        var chunks: [ArraySlice<UInt8>] = []
        var index = 0
        while index < bytes.count {
            let size =
                Int.random(in: 0..<8, using: &generator) == 0 ? Int.random(in: 1...256, using: &generator) : Int.random(in: 1...12, using: &generator)
            chunks.append(bytes[index..<min(bytes.count, index + size)])
            index += size
        }
        return chunks
    }

    /// The result of streaming `chunks`: every update, then the final one (or the error).
    static func stream(
        _ chunks: [ArraySlice<UInt8>], schema: JSONSchema? = nil
    ) -> (updates: [PartialJSONUpdate], final: Result<PartialJSONUpdate, LLMDecodingError>, restarts: Int) {
        var decoder = PartialJSONDecoder(schema: schema)
        var updates: [PartialJSONUpdate] = []
        for chunk in chunks {
            if let update = decoder.feed(chunk) { updates.append(update) }
        }
        let final = Result { () throws(LLMDecodingError) in try decoder.finish() }
        return (updates, final, decoder.restarts)
    }
}
