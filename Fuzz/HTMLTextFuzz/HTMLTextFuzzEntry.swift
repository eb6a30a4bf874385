import Foundation

@testable import HackerNewsAPI

// libFuzzer entry for Hacker News' HTML → text conversion (HTMLText.plainText and
// decodingEntities, with HTMLTextRenderer: the real code compiled from Sources/HackerNewsAPI).
//
// Checked: no crash, and what comes out holds no control character a terminal would act on —
// C0 controls other than newline and tab, DEL, C1 controls — whether the HTML had it raw or as an
// entity (`&#x1b;`, `&#155;`). Switch: FUZZ_HTMLTEXT_CONTROLS=0 leaves only the crash check.

@_cdecl("LLVMFuzzerTestOneInput")
public func htmlTextFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let html = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let text = HTMLText.plainText(html)
    let decoded = HTMLText.decodingEntities(html)
    if fuzzCheck("HTMLTEXT_CONTROLS") {
        expectNoControls(text, "plainText", html)
        expectNoControls(decoded, "decodingEntities", html)
    }
    return 0
}

private func expectNoControls(_ output: String, _ function: String, _ html: String) {
    for scalar in output.unicodeScalars {
        switch scalar.value {
        case 0x09, 0x0A: continue
        case 0x00...0x1F, 0x7F...0x9F:
            fuzzFailure(
                "HTMLText.\(function) let U+\(String(scalar.value, radix: 16, uppercase: true)) through: \(html.debugDescription) → \(output.debugDescription)"
            )
        default: continue
        }
    }
}
