/// A DTO the model is asked to fill: its Swift shape (field names, types, optionality — learned
/// from its `Decodable` conformance) plus a description per field become the prompt, as the
/// coin app pasted the struct with its comments into the question.
///
/// ```swift
/// struct CoinWeekly: Codable, PromptDescribable {
///     let priceTrend: String
///     let volumeChange: String
///     let reason: String
///     static let promptFields: [PromptField] = [
///         PromptField("priceTrend", "최근 일주일 가격 추이"),
///         PromptField("volumeChange", "최근 일주일 거래량 변화"),
///         PromptField("reason", "지난 일주일간 가격 추이와 거래량 변화의 주요 원인"),
///     ]
/// }
/// ```
public protocol PromptDescribable: Decodable {
    /// The struct's name in the prompt; the type's name by default.
    static var promptTypeName: String { get }
    /// One description per field, in the order the prompt lists them.
    static var promptFields: [PromptField] { get }
    /// Types of nested objects (`[CoinArticle]`), described after this one.
    static var nestedPromptTypes: [any PromptDescribable.Type] { get }
}

extension PromptDescribable {
    /// The type's own name.
    public static var promptTypeName: String { String(describing: Self.self) }
    /// None.
    public static var nestedPromptTypes: [any PromptDescribable.Type] { [] }
}

/// A field of a ``PromptDescribable`` and what the model should put in it.
public struct PromptField: Sendable, Equatable {
    /// The coding key.
    public var name: String
    /// The comment above the field: what to write, an example, a count.
    public var description: String

    /// A field `name` described as `description`.
    public init(_ name: String, _ description: String) {
        self.name = name
        self.description = description
    }
}
