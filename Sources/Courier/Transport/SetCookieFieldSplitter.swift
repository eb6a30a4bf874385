import Foundation

/// Splits a `Set-Cookie` value that URLSession joined from several fields (`HTTPURLResponse`
/// keeps one value per name, several `Set-Cookie` fields joined with ", ") back into the fields.
///
/// A comma separates two cookies when what follows it, up to the next `;` or `,`, holds an `=`
/// (the next cookie's `name=value`); a comma inside an `Expires` date ("Wed, 09 Jun 2021 …") is
/// followed by no `=` and is kept. A cookie value that itself holds ", x=…" cannot be told apart —
/// no one can, once the fields are joined.
enum SetCookieFieldSplitter {
    static func split(_ joined: String) -> [String] {
        let bytes = Array(joined.utf8)
        var fields: [String] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ","), startsCookie(bytes, after: index) {
                fields.append(trimmed(bytes[start..<index]))
                start = index + 1
            }
            index += 1
        }
        fields.append(trimmed(bytes[start..<bytes.count]))
        return fields.filter { !$0.isEmpty }
    }

    /// Whether the text after the comma at `comma`, up to the next `;` or `,`, holds an `=`.
    private static func startsCookie(_ bytes: [UInt8], after comma: Int) -> Bool {
        var index = comma + 1
        while index < bytes.count, bytes[index] != UInt8(ascii: ";"), bytes[index] != UInt8(ascii: ",") {
            if bytes[index] == UInt8(ascii: "=") { return true }
            index += 1
        }
        return false
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
