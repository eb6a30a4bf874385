/// One row of a filter picker: a value a filter can take among loaded programs, and how many of
/// them have it.
public struct FilterChoice: Sendable, Hashable, Codable {
    /// The value, as the programs have it (a ``CulturalProgram/category`` or ``CulturalProgram/district``).
    public var name: String
    /// How many programs have it.
    public var count: Int

    /// A choice of `name`, held by `count` programs.
    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}

extension ProgramQuery {
    /// Seoul's 25 autonomous districts (자치구), as `GUNAME` writes them, in 가나다 order: a
    /// district picker before any program is loaded (the app's onboarding asked for one).
    public static let seoulDistricts = [
        "강남구", "강동구", "강북구", "강서구", "관악구", "광진구", "구로구", "금천구", "노원구", "도봉구", "동대문구", "동작구", "마포구",
        "서대문구", "서초구", "성동구", "성북구", "송파구", "양천구", "영등포구", "용산구", "은평구", "종로구", "중구", "중랑구",
    ]

    /// The categories (`CODENAME`) a category picker offers: those of the `programs` that pass
    /// every other filter of this query, with how many each has, by name. A program without a
    /// category is not counted (no picker row selects it).
    ///
    /// ```swift
    /// let query = ProgramQuery(district: "종로구")
    /// let rows = query.categoryChoices(in: programs)   // [FilterChoice(name: "클래식", count: 12), …]
    /// ```
    public func categoryChoices(in programs: [CulturalProgram]) -> [FilterChoice] {
        var others = self
        others.category = nil
        return Self.choices(programs.lazy.filter(others.matches).map(\.category))
    }

    /// The districts (`GUNAME`) a district picker offers: those of the `programs` that pass every
    /// other filter of this query, with how many each has, by name (``categoryChoices(in:)``).
    public func districtChoices(in programs: [CulturalProgram]) -> [FilterChoice] {
        var others = self
        others.district = nil
        return Self.choices(programs.lazy.filter(others.matches).map(\.district))
    }

    /// Each non-empty name of `names` with its count, by name.
    static func choices(_ names: some Sequence<String>) -> [FilterChoice] {
        var counts: [String: Int] = [:]
        for name in names where !name.isEmpty { counts[name, default: 0] += 1 }
        return counts.map { FilterChoice(name: $0.key, count: $0.value) }.sorted { $0.name < $1.name }
    }
}
