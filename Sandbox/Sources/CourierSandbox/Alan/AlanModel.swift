import Foundation

/// The Alan stand-in's deterministic "model": it recognises the coin report's three prompts by
/// the struct they paste (`struct CoinOverview`, `CoinWeekly`, `CoinTodayNews`) and answers them
/// with the seeds' real breakages; anything else gets a short answer that names the turn of the
/// conversation and carries an apostrophe and a footnote (`^[490]^`).
///
/// Markers in the prompt choose a behaviour: `#breakage:NAME` (see ``Breakage``),
/// `#tokens:N` (an answer of exactly N streamed tokens, for benchmarks) and, for today's
/// section, `#mood:WORD` (the `marketMood` written; `none` leaves the key out; `positive` by
/// default, the seed's "호재").
enum AlanModel {
    /// What a prompt asks for.
    enum Kind: String {
        case overview, weekly, today, other
    }

    /// How an answer is broken, as the seeds saw them.
    enum Breakage: String, CaseIterable {
        /// Plain JSON.
        case clean
        /// ```` ```json ```` fence with prose around it (the overview's default).
        case fence
        /// Prose before and after bare JSON.
        case prose
        /// Citations `[(출처133)](https://…)` after values (the weekly default).
        case citation
        /// Single-quoted keys and strings.
        case singleQuotes
        /// Today: the article objects follow the summary string directly, no `"articles": [`.
        case missingArticlesKey
        /// Today: `"articles": {…}, {…}, {…}]` — the key is there, its `[` is not (today's default).
        case missingArticlesBracket
        /// Today: `"articles": {…}, {…}, {…}` — neither `[` nor `]`.
        case missingArticlesBrackets
        /// No JSON at all: a refusal in plain Korean.
        case refusal
    }

    struct Answer {
        var actionName: String
        var speak: String
        var tokens: [String]
        var content: String { tokens.joined() }
    }

    static func kind(of prompt: String) -> Kind {
        if prompt.contains("struct CoinOverview") { return .overview }
        if prompt.contains("struct CoinWeekly") { return .weekly }
        if prompt.contains("struct CoinTodayNews") { return .today }
        return .other
    }

    static func breakage(in prompt: String) -> Breakage? {
        marker("#breakage:", in: prompt).flatMap(Breakage.init(rawValue:))
    }

    static func marker(_ name: String, in prompt: String) -> String? {
        guard let range = prompt.range(of: name) else { return nil }
        return String(prompt[range.upperBound...].prefix { $0.isLetter || $0.isNumber })
    }

    /// The answer to `prompt` as the `turn`-th question of its conversation.
    static func answer(to prompt: String, turn: Int) -> Answer {
        if let count = marker("#tokens:", in: prompt).flatMap(Int.init), count > 0 {
            let tokens = (0..<min(count, 1_000_000)).map { $0 % 50 == 49 ? "It's " : "안녕 " }
            return Answer(actionName: "", speak: "긴 답변을 쓰고 있어요.", tokens: tokens)
        }
        let kind = kind(of: prompt)
        let subject = subject(of: prompt)
        let text: String
        switch kind {
        case .overview: text = CoinAnswers.overview(subject: subject, breakage: breakage(in: prompt) ?? .fence)
        case .weekly: text = CoinAnswers.weekly(subject: subject, breakage: breakage(in: prompt) ?? .citation)
        case .today:
            let mood = marker("#mood:", in: prompt) ?? "positive"
            text = CoinAnswers.today(subject: subject, breakage: breakage(in: prompt) ?? .missingArticlesBracket, mood: mood == "none" ? nil : mood)
        case .other:
            let quoted = prompt.count > 40 ? String(prompt.prefix(40)) + "…" : prompt
            text = "“\(quoted)”에 대한 샌드박스의 답변이에요. 이 대화의 \(turn)번째 질문이고, it's a deterministic stand-in, not a model.^[490]^"
        }
        return Answer(
            actionName: kind == .other ? "" : "search_web",
            speak: kind == .other ? "질문의 의도를 이해하고 있어요." : "웹에서 최신 정보를 찾고 있어요.",
            tokens: tokens(of: text))
    }

    /// The coin's name in `"…"에 대한`, as the report's prompts end; "비트코인" otherwise.
    static func subject(of prompt: String) -> String {
        guard let end = prompt.range(of: "\"에 대한", options: .backwards),
            let start = prompt[..<end.lowerBound].lastIndex(of: "\"")
        else { return "비트코인" }
        return String(prompt[prompt.index(after: start)..<end.lowerBound])
    }

    /// `text` in pieces of up to three characters, as a model streams it.
    static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if current.count == 3 || character == " " || character == "\n" {
                tokens.append(current)
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }
}
