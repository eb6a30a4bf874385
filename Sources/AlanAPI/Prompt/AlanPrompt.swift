import CourierLLM

/// Builds the coin app's prompts: the DTO as a Swift struct with a `///` comment per field,
/// numbered rules, and the closing line "위 JSON 형식으로 작성 (마크다운 금지, 출처 제외)".
///
/// ```swift
/// let prompt = AlanPrompt.make(for: CoinWeekly.self, subject: "비트코인",
///                              rules: ["현재 국내 시간을 기준으로 일주일 동안의 정보 사용"])
/// let weekly = try await alan.ask(prompt, as: CoinWeekly.self)
/// ```
public enum AlanPrompt {
    /// The seed's closing instruction.
    public static let closingRule = "위 JSON 형식으로 작성 (마크다운 금지, 출처 제외)"

    /// The prompt asking for a `T` about `subject`, following `rules`.
    public static func make<T: PromptDescribable>(for type: T.Type, subject: String, rules: [String]) -> String {
        var text = structText(of: type)
        for nested in type.nestedPromptTypes {
            text += "\n\n" + structText(of: nested)
        }
        if !rules.isEmpty {
            text += "\n\n" + rules.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        }
        text += "\n\n위 조건에 따라 \"\(subject)\"에 대한 내용을 \(closingRule)"
        return text
    }

    /// `type` as Swift source: `struct Name: Codable {` then, per field, its comment and
    /// `let name: Type`. Names, types and optionality come from the type's `Decodable` shape;
    /// fields without a description are listed after the described ones.
    public static func structText(of type: any PromptDescribable.Type) -> String {
        let schema = JSONSchema.inferred(from: type)
        let properties = schema?.properties ?? [:]
        let required = Set(schema?.required ?? [])
        var names = type.promptFields.map(\.name).filter { properties[$0] != nil || schema == nil }
        names += properties.keys.filter { !names.contains($0) }.sorted()
        var lines = ["struct \(type.promptTypeName): Codable {"]
        for (index, name) in names.enumerated() {
            if index > 0 { lines.append("") }
            if let field = type.promptFields.first(where: { $0.name == name }) {
                lines.append(contentsOf: field.description.split(separator: "\n").map { "    /// \($0)" })
            }
            let swiftType = properties[name].map { typeName($0, nested: type.nestedPromptTypes) } ?? "String"
            let optional = schema != nil && !required.contains(name) && !swiftType.hasSuffix("?")
            lines.append("    let \(name): \(swiftType)\(optional ? "?" : "")")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The Swift spelling of a schema: `String`, `Int`, `[CoinArticle]` …
    static func typeName(_ schema: JSONSchema, nested: [any PromptDescribable.Type]) -> String {
        let types = schema.types.filter { $0 != "null" }
        let optional = schema.types.contains("null") || schema.alternatives.contains { $0.types == ["null"] }
        let base: String
        if schema.types.isEmpty, let first = schema.alternatives.first(where: { $0.types != ["null"] }) {
            base = typeName(first, nested: nested)
        } else {
            switch types.first {
            case "string": base = "String"
            case "integer": base = "Int"
            case "number": base = "Double"
            case "boolean": base = "Bool"
            case "array": base = "[\(schema.items.map { typeName($0, nested: nested) } ?? "String")]"
            case "object":
                let keys = Set(schema.properties.keys)
                let match = nested.first { candidate in JSONSchema.inferred(from: candidate).map { Set($0.properties.keys) == keys } ?? false }
                base = match?.promptTypeName ?? "[String: String]"
            default: base = "String"
            }
        }
        return optional && !base.hasSuffix("?") ? base + "?" : base
    }
}
