import Foundation

extension Item: CustomDebugStringConvertible {
    /// The seed's console format: a blank line, the title, `by` the author, the link and a line
    /// of five dashes — what `print(story)` and `print(stories)` show.
    ///
    /// ```swift
    /// print(story)
    /// //
    /// // How Important is the .com TLD?
    /// // by python_kiss
    /// // http://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/
    /// // -----
    /// ```
    ///
    /// The fields come from the network, so no control character of theirs reaches the console:
    /// line breaks and tabs become spaces (a title cannot forge the lines below it), every other
    /// control (ESC, BEL, C1 …) is dropped. A missing title shows as `#id`; a missing author or
    /// link leaves its line out.
    public var debugDescription: String {
        var lines = ["", Self.consoleText(title ?? "#\(id)")]
        if let by { lines.append("by " + Self.consoleText(by)) }
        if let url, !url.isEmpty { lines.append(Self.consoleText(url)) }
        lines.append("-----")
        return lines.joined(separator: "\n")
    }

    /// `text` on one line with no control character: line breaks and tabs as spaces, others dropped.
    static func consoleText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory != .control {
                kept.append(scalar)
            } else if scalar.properties.isWhitespace {
                kept.append(" ")
            }
        }
        return String(kept)
    }
}
