import Foundation

/// One repair that was applied to turn a model's answer into valid JSON.
///
/// Repairs are reported in the order they were first applied; each kind appears once per report.
public enum Repair: Sendable, Hashable, CustomStringConvertible {
    /// A Markdown code fence (three backticks, often followed by `json`) around the JSON was removed.
    case strippedFence
    /// Prose before or after the JSON was removed.
    case strippedProse
    /// A citation marker such as `[(출처133)](https://…)` or `【1†source】` outside a string was removed.
    case removedCitation
    /// Markdown emphasis (`**`) outside a string was removed.
    case removedMarkdown
    /// A comma before a closing `}` or `]` was removed.
    case removedTrailingComma
    /// A doubled or leading comma was removed.
    case removedDoubledComma
    /// A missing comma between two values or members was inserted.
    case insertedMissingComma
    /// A missing colon between a key and its value was inserted.
    case insertedMissingColon
    /// Single quotes or typographic quotes used as string delimiters were converted to `"`.
    case convertedQuotes
    /// An unquoted object key was quoted.
    case quotedKey
    /// An unquoted text value after a key was quoted.
    case quotedValue
    /// An object or array that ran into non-JSON text was closed before that text.
    case closedUnterminated
    /// A Python or JavaScript literal (the associated value, e.g. `True`, `None`, `NaN`) was converted.
    case convertedLiteral(String)
    /// A number written in a non-JSON form (e.g. `+1`, `.5`, `007`) was normalised.
    case normalizedNumber(String)
    /// A raw newline, tab or other control character inside a string was escaped.
    case escapedControlCharacter
    /// A quote inside a string that did not end the string was escaped.
    case escapedInnerQuote
    /// An escape sequence that JSON does not allow (e.g. `\'`) was fixed.
    case fixedInvalidEscape
    /// A `//` or `/* */` comment outside a string was removed.
    case removedComment
    /// A Markdown link `[text](url)` used as a value was replaced by its URL string.
    case convertedMarkdownLink
    /// The answer ended early; open strings, arrays and objects were closed.
    case closedTruncated
    /// A closing bracket that did not match the open container was corrected.
    case fixedMismatchedBracket
    /// Objects that followed a member without a key were put into an array under `key`.
    case wrappedOrphanedObjects(key: String)
    /// A sequence of top-level values (or a lone object) was wrapped into an array.
    case wrappedInArray
    /// The JSON was found inside a JSON string (escaped JSON) and decoded from it.
    case unwrappedNestedString
    /// The answer was taken from the field with this key of an enclosing object.
    case unwrappedField(String)
    /// The answer was the only element of an array and was taken out of it.
    case unwrappedSingleElementArray

    /// A one-line human-readable description of the repair.
    public var description: String {
        switch self {
        case .strippedFence: return "stripped code fence"
        case .strippedProse: return "stripped surrounding prose"
        case .removedCitation: return "removed citation marker"
        case .removedMarkdown: return "removed markdown emphasis"
        case .removedTrailingComma: return "removed trailing comma"
        case .removedDoubledComma: return "removed doubled comma"
        case .insertedMissingComma: return "inserted missing comma"
        case .insertedMissingColon: return "inserted missing colon"
        case .convertedQuotes: return "converted quotes to \""
        case .quotedKey: return "quoted unquoted key"
        case .quotedValue: return "quoted unquoted value"
        case .closedUnterminated: return "closed unterminated object or array before trailing text"
        case .convertedLiteral(let word): return "converted literal \(word)"
        case .normalizedNumber(let text): return "normalized number \(text)"
        case .escapedControlCharacter: return "escaped control character in string"
        case .escapedInnerQuote: return "escaped inner quote in string"
        case .fixedInvalidEscape: return "fixed invalid escape sequence"
        case .removedComment: return "removed comment"
        case .convertedMarkdownLink: return "converted markdown link to URL string"
        case .closedTruncated: return "closed truncated JSON"
        case .fixedMismatchedBracket: return "fixed mismatched bracket"
        case .wrappedOrphanedObjects(let key): return "wrapped orphaned objects under \"\(key)\""
        case .wrappedInArray: return "wrapped value(s) in an array"
        case .unwrappedNestedString: return "decoded JSON nested in a string"
        case .unwrappedField(let key): return "unwrapped field \"\(key)\""
        case .unwrappedSingleElementArray: return "unwrapped single-element array"
        }
    }
}

extension Repair {
    /// A distinct bit for each repair without an associated value (cheap de-duplication).
    var flag: UInt64? {
        switch self {
        case .convertedLiteral, .normalizedNumber, .wrappedOrphanedObjects, .unwrappedField: return nil
        case .strippedFence: return 1 << 0
        case .strippedProse: return 1 << 1
        case .removedCitation: return 1 << 2
        case .removedMarkdown: return 1 << 3
        case .removedTrailingComma: return 1 << 4
        case .removedDoubledComma: return 1 << 5
        case .insertedMissingComma: return 1 << 6
        case .insertedMissingColon: return 1 << 7
        case .convertedQuotes: return 1 << 8
        case .quotedKey: return 1 << 9
        case .quotedValue: return 1 << 10
        case .closedUnterminated: return 1 << 11
        case .escapedControlCharacter: return 1 << 12
        case .escapedInnerQuote: return 1 << 13
        case .fixedInvalidEscape: return 1 << 14
        case .removedComment: return 1 << 15
        case .convertedMarkdownLink: return 1 << 16
        case .closedTruncated: return 1 << 17
        case .fixedMismatchedBracket: return 1 << 18
        case .wrappedInArray: return 1 << 19
        case .unwrappedNestedString: return 1 << 20
        case .unwrappedSingleElementArray: return 1 << 21
        }
    }
}
