import Foundation

/// The stand-in model's answers to the coin report's three prompts, broken as asked.
enum CoinAnswers {
    static let refusal = "현재 \"%@\"에 대한 최신 뉴스를 가져오는 데 어려움이 있습니다. 대신 %@ 시장의 일반적인 경향이나 다른 정보를 제공해드릴 수 있으니, 다른 질문이 있다면 말씀해 주세요."
    static let citation = " [(출처133)](https://kr.beincrypto.com/base-news/124941/)"

    static func overview(subject: String, breakage: AlanModel.Breakage) -> String {
        let known: [String: (String, String?, String)] = [
            "비트코인": ("BTC", "https://bitcoin.org/ko/", "2009.01."),
            "이더리움": ("ETH", "https://ethereum.org/ko/", "2015.07."),
        ]
        let (symbol, website, launch) = known[subject] ?? (subject, nil, "2017.01.")
        let description = "\(subject)은(는) 블록체인 기반의 디지털 자산입니다. 중앙 기관 없이 네트워크 참여자들이 거래를 검증하며, 'P2P' 방식으로 전송됩니다."
        return render(
            [("symbol", symbol), ("websiteURL", website), ("launchDate", launch), ("description", description)],
            subject: subject, breakage: breakage)
    }

    static func weekly(subject: String, breakage: AlanModel.Breakage) -> String {
        render(
            [
                ("priceTrend", "\(subject)의 가격은 일주일 동안 약 2.8% 하락하였으며, 113,000달러대에서 변동을 보였습니다."),
                ("volumeChange", "가격 하락 시기에 '저가 매수' 활동이 늘며 거래량이 일시적으로 증가했습니다."),
                ("reason", "미국 소비자물가지수(CPI) 발표를 앞둔 경계감과 ETF 자금 유출이 주요 원인입니다."),
            ], subject: subject, breakage: breakage)
    }

    static let articles: [[(String, String?)]] = [
        [
            ("title", "암호화폐 시가총액 4조 달러 돌파"), ("summary", "시장 전반이 상승세를 이어가고 있습니다."),
            ("newsSourceURL", "https://kr.beincrypto.com/base-news/124941/"),
        ],
        [
            ("title", "이더리움 4,300달러 돌파, 2021년 말 이후 최고"), ("summary", "기관 매수세가 이어지고 있습니다."),
            ("newsSourceURL", "https://www.panewslab.com/ko/articles/4431e392-7b32-415d-a4b7-28e1be388e5d"),
        ],
        [
            ("title", "애플 투자 발표에 증시·암호화폐 동반 반등"), ("summary", "위험 자산 선호가 되살아났습니다."),
            ("newsSourceURL", "http://www.theonetcv.kr/news/articleView.html?idxno=243820"),
        ],
    ]

    /// Today's answer; `mood` is written as the `marketMood` value (nil: the key left out, as a
    /// model that ignores the field would).
    static func today(subject: String, breakage: AlanModel.Breakage, mood: String? = "positive") -> String {
        let summary = "\(subject)은(는) CPI 발표를 앞두고 '신중한' 분위기입니다. 변동성이 커져 투자자들의 주의가 필요합니다."
        if breakage == .refusal { return String(format: refusal, subject, subject) }
        let quote = breakage == .singleQuotes ? "'" : "\""
        let objects = articles.map { object(of: $0, quote: quote, citations: false, indent: "    ") }.joined(separator: ",\n")
        var head = "{\n  \(key("summaryOfTodaysMarketSentiment", quote)): \(value(summary, quote))"
        if let mood { head += ",\n  \(key("marketMood", quote)): \(value(mood, quote))" }
        let json: String
        switch breakage {
        case .missingArticlesKey: json = head + "\n  \(objects)\n}"
        case .missingArticlesBracket: json = head + ",\n  \(key("articles", quote)): \(objects)\n  ]\n}"
        case .missingArticlesBrackets: json = head + ",\n  \(key("articles", quote)): \(objects)\n}"
        default: json = head + ",\n  \(key("articles", quote)): [\n\(objects)\n  ]\n}"
        }
        return wrap(json, breakage: breakage)
    }

    /// An object of `pairs` broken as `breakage` says, with prose or a fence around it.
    static func render(_ pairs: [(String, String?)], subject: String, breakage: AlanModel.Breakage) -> String {
        if breakage == .refusal { return String(format: refusal, subject, subject) }
        let quote = breakage == .singleQuotes ? "'" : "\""
        return wrap(object(of: pairs, quote: quote, citations: breakage == .citation, indent: ""), breakage: breakage)
    }

    static func wrap(_ json: String, breakage: AlanModel.Breakage) -> String {
        switch breakage {
        case .fence: "다음은 요청하신 정보입니다:\n\n```json\n\(json)\n```\n\n추가로 궁금한 점이 있으면 말씀해 주세요."
        case .prose: "요청하신 내용을 정리했어요.\n\n\(json)\n\n시장 상황은 빠르게 변할 수 있습니다."
        default: json
        }
    }

    static func object(of pairs: [(String, String?)], quote: String, citations: Bool, indent: String) -> String {
        let members = pairs.map { name, text in
            "\(indent)  \(key(name, quote)): \(text.map { value($0, quote) } ?? "null")\(citations && text != nil ? citation : "")"
        }
        return "\(indent){\n" + members.joined(separator: ",\n") + "\n\(indent)}"
    }

    static func key(_ name: String, _ quote: String) -> String { quote + name + quote }

    /// A JSON string, or with `'` quotes a single-quoted one (inner `'` escaped).
    static func value(_ text: String, _ quote: String) -> String {
        if quote == "'" { return "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
