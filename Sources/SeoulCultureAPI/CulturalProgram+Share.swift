extension CulturalProgram {
    /// The program as plain text to share — what an app hands to a share sheet: the title, the
    /// dates (`YYYY-MM-DD`, as ``SeoulDay`` writes them), the place and district, free or the fee,
    /// and the homepage link, one to a line.
    ///
    /// ```
    /// 서울시향 정기공연
    /// 2026-11-20 ~ 2026-11-29
    /// 세종문화회관 대극장, 종로구
    /// 유료 · R석 50,000원
    /// https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=150001&menuNo=200009
    /// ```
    ///
    /// The fields come from the network, so the text is made safe to paste anywhere: no control
    /// character (C0, DEL, C1 — nothing a terminal would obey) survives, a line break inside a
    /// field becomes a space, and a link holding one is left out.
    public var shareText: String {
        var lines = [Self.shareLine(title)]
        lines.append(startDate == endDate ? startDate.description : "\(startDate) ~ \(endDate)")
        let location = [Self.shareLine(place), Self.shareLine(district)].filter { !$0.isEmpty }.joined(separator: ", ")
        if !location.isEmpty { lines.append(location) }
        let fee = Self.shareLine(fee)
        if isFree {
            lines.append(fee.isEmpty || fee == "무료" ? "무료" : "무료 · \(fee)")
        } else {
            lines.append(fee.isEmpty ? "유료" : "유료 · \(fee)")
        }
        if let link = homepageLink, !link.unicodeScalars.contains(where: Self.isControlOrSpace) { lines.append(link) }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// `text` on one line: every control character and line break a space, runs of white space
    /// one space, the ends trimmed.
    static func shareLine(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isControlOrSpace(scalar) {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        return String(result)
    }

    /// C0, DEL, C1, or Unicode white space (U+2028, U+3000 …).
    private static func isControlOrSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x20, 0x7F...0x9F: true
        default: FieldText.isWhiteSpace(scalar)
        }
    }
}
