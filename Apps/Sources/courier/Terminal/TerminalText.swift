import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The CLI's one terminal layer for text that came from outside — API text, error bodies, header
/// values, URLs, LLM answers: it escapes what a terminal would obey, measures text in display
/// cells and wraps it (`TerminalText+Width.swift`, `TerminalText+Wrap.swift`).
///
/// A server must not be able to drive the user's terminal: write the clipboard (OSC 52), set the
/// title (`ESC]0;…BEL`), make the terminal type an answer (DSR `ESC[6n`), redefine keys (DCS) or
/// overwrite what was shown (CR, cursor moves). Every such sequence starts with a control
/// character, so the escaping is per character and needs no parser of sequences: with its `ESC`
/// shown instead of sent, a sequence is inert text — and a sequence split across two writes (LLM
/// tokens, chunks) is caught as well. Controls are shown, not dropped, so the user sees that the
/// server sent something and what:
///
/// | sent                                   | shown                                              |
/// |----------------------------------------|----------------------------------------------------|
/// | C0 control U+0000–U+001F but `\n`, `\t` | its Control Picture, U+2400 + code: `␛` `␇` `␀` `␍` |
/// | DEL U+007F                              | `␡`                                                |
/// | C1 control U+0080–U+009F                | `␛` and its 7-bit form (ECMA-48 §5.3: 0x80+n is ESC 0x40+n), so CSI U+009B is `␛[`, OSC U+009D `␛]` |
/// | CR LF                                   | kept: a line ending, it moves nothing back over shown text |
///
/// `ESC]52;c;aGk=BEL` is thus shown as `␛]52;c;aGk=␇`. Only text bound for a terminal is escaped
/// (``shown(_:on:)``); piped or redirected output gets the bytes unchanged.
enum TerminalText {
    /// Where text goes: decides whether it is escaped.
    enum Destination: Sendable {
        case stdout, stderr

        /// The file descriptor.
        var descriptor: Int32 { self == .stdout ? STDOUT_FILENO : STDERR_FILENO }

        /// Whether it is a terminal (not a pipe or a file). Asked once: it does not change while
        /// the command runs.
        var isTerminal: Bool { self == .stdout ? Self.stdoutIsTerminal : Self.stderrIsTerminal }

        private static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        private static let stderrIsTerminal = isatty(STDERR_FILENO) == 1
    }

    /// `text` escaped when `destination` is a terminal, else unchanged.
    static func shown(_ text: some StringProtocol, on destination: Destination) -> String {
        shown(text, toTerminal: destination.isTerminal)
    }

    /// `text` escaped when it goes to a terminal, else unchanged (the bytes a pipe expects).
    static func shown(_ text: some StringProtocol, toTerminal: Bool) -> String {
        toTerminal ? escaped(text) : String(text)
    }

    /// `text` with every control character but newline and tab shown as a visible character
    /// (the table in ``TerminalText``), so no escape sequence in it reaches the terminal.
    static func escaped(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        guard scalars.contains(where: isControl) else { return String(text) }
        var result = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" {
                result.append(contentsOf: ["\r", "\n"])
                index = scalars.index(after: next)
                continue
            }
            result.append(contentsOf: visible(scalar))
            index = next
        }
        return String(result)
    }

    /// Whether a terminal would act on `scalar` rather than show it: C0 but newline and tab, DEL, C1.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// What `scalar` is shown as: itself, or its visible form when it is a control.
    private static func visible(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        guard isControl(scalar) else { return [scalar] }
        switch scalar.value {
        case 0x7F: return ["\u{2421}"]
        case 0x80...0x9F: return ["\u{241B}", Unicode.Scalar(UInt8(scalar.value - 0x40))]
        default: return [Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"]
        }
    }

    /// JSON text for a terminal: every control character escaped as JSON escapes it (`\u001b`),
    /// so the output is still JSON with the same values. Encoders escape C0 themselves but leave
    /// DEL and C1 (U+009B is an 8-bit CSI to some terminals) as they are; in valid JSON a control
    /// can only be inside a string, where `\u00XX` means the same.
    static func json(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        guard scalars.contains(where: isControl) else { return String(text) }
        var result = ""
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" {
                result += "\r\n"
                index = scalars.index(after: next)
                continue
            }
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
            index = next
        }
        return result
    }

    /// `text` (escaped) as an OSC 8 hyperlink to `url`; terminals without OSC 8 show the text.
    ///
    /// Only `http(s)` targets become links — a server's `file:` or custom-scheme URL stays text a
    /// click cannot open — and the target is percent-encoded down to printable ASCII (what OSC 8
    /// allows), so nothing in it can end the sequence early (`ESC \`, BEL, U+009C) and start
    /// another.
    static func link(_ text: some StringProtocol, to url: String) -> String {
        let shownText = escaped(text)
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return shownText }
        return "\u{1B}]8;;\(linkTarget(url))\u{1B}\\\(shownText)\u{1B}]8;;\u{1B}\\"
    }

    /// `url` with every byte outside printable ASCII (and space) percent-encoded.
    static func linkTarget(_ url: String) -> String {
        var result = ""
        for byte in url.utf8 {
            if (0x21...0x7E).contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return result
    }
}
