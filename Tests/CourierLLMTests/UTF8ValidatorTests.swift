import Foundation
import Testing

@testable import CourierLLM

@Suite("UTF-8 validation")
struct UTF8ValidatorTests {
    /// Agrees with the standard library (`String(validating:as:)`) on every one- and two-byte
    /// input, on edge sequences, and on random mixes of ASCII, lead and continuation bytes.
    @Test func agreesWithTheStandardLibrary() {
        func check(_ bytes: [UInt8]) {
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(UTF8Validator.isValid(bytes) == expected, "\(bytes.map { String($0, radix: 16) })")
        }
        for first in 0...255 {
            check([UInt8(first)])
            for second in 0...255 { check([UInt8(first), UInt8(second)]) }
        }
        let edges: [[UInt8]] = [
            [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE2, 0x80], [0xF0, 0x90, 0x80],
            Array("물론입니다! 요청하신 JSON입니다. 😀".utf8),
        ]
        for edge in edges {
            check(edge)
            check(Array("12345678".utf8) + edge + Array("abcdefghij".utf8))
        }
        var generator = SystemRandomNumberGenerator()
        let pieces: [UInt8] = [
            0x41, 0x20, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...24, using: &generator)
            var bytes: [UInt8] = []
            for _ in 0..<count {
                if Bool.random(using: &generator) {
                    bytes.append(contentsOf: Array("abcdefgh".utf8).prefix(Int.random(in: 1...8, using: &generator)))
                } else {
                    bytes.append(pieces.randomElement(using: &generator)!)
                }
            }
            check(bytes)
        }
    }
}
