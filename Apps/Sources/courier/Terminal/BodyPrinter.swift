import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Renders a body for a person: JSON pretty-printed, text as is, binary kept as bytes.
enum BodyPrinter {
    /// What a body is, as printed.
    enum Rendering: Equatable {
        case json(String)
        case text(String)
        /// Not text: not UTF-8, or with a NUL byte (as curl judges "binary output").
        case binary(Data)
    }

    static func render(_ body: Data, contentType: String?) -> Rendering {
        if body.isEmpty { return .text("") }
        if let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let pretty = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        {
            return .json(String(decoding: pretty, as: UTF8.self))
        }
        if !body.contains(0), let text = String(data: body, encoding: .utf8) { return .text(text) }
        return .binary(body)
    }

    /// Prints `body` on stdout. Piped or redirected: the bytes exactly as received (no newline
    /// added, nothing reformatted — what `curl -s` writes), unless `pretty` asks for JSON
    /// pretty-printed. On a terminal: JSON pretty-printed and text escaped, each with a newline;
    /// binary bytes never, since they could be anything — a hint on stderr says how to save them.
    static func show(_ body: Data, contentType: String?, pretty: Bool = false) {
        let terminal = TerminalText.Destination.stdout.isTerminal
        guard terminal || pretty else { return Terminal.write(body, to: STDOUT_FILENO) }
        switch render(body, contentType: contentType) {
        case .json(let json): Terminal.outputJSON(json)
        case .text(let text): terminal ? Terminal.output(text) : Terminal.write(body, to: STDOUT_FILENO)
        case .binary(let bytes):
            if terminal {
                Terminal.error(binaryHint(bytes.count, contentType: contentType))
            } else {
                Terminal.write(bytes, to: STDOUT_FILENO)
            }
        }
    }

    /// Prints a head (``RequestCommand/head(_:)``: lines ending in CRLF, then a blank line) on
    /// stdout: as it is when piped; on a terminal each line escaped, the blank line kept.
    static func showHead(_ head: String) {
        guard TerminalText.Destination.stdout.isTerminal else { return Terminal.write(head, to: STDOUT_FILENO) }
        for line in head.components(separatedBy: "\r\n").dropLast() { Terminal.output(line) }
    }

    /// Why a binary body was not printed, and how to get it.
    static func binaryHint(_ count: Int, contentType: String?) -> String {
        let type = contentType.map { " (\($0))" } ?? ""
        return
            "courier: the body is \(count) bytes of binary data\(type), not printed to the terminal; redirect stdout to a file to save it: courier request … > FILE"
    }
}
