import ArgumentParser
import Foundation
import SeoulCultureAPI

/// The filters of `courier raon list`, also taken by `categories` and `districts` (whose counts
/// are of the programs these filters leave, but their own): the query, with the default district
/// from `raon settings` when `--district` is not given.
struct RaonFilterOptions: ParsableArguments {
    @Option(name: .long, help: "Text anywhere in the title (ignoring case).") var search: String?
    @Option(name: .long, help: "Exact category, e.g. 클래식, 전시/미술, 축제-문화/예술 (see `courier raon categories`).") var category: String?
    @Option(
        name: .long,
        help:
            "Exact district, e.g. 종로구 (see `courier raon districts`); `all` for every district. Default: the one set with `courier raon settings district`."
    ) var district: String?
    @Flag(name: .long, help: "Only free programs.") var free = false
    @Option(name: .long, help: "Only programs running on this day (YYYY-MM-DD).") var date: String?

    /// The value of `--district` that lifts the default district.
    static let allDistricts = "all"

    func validate() throws {
        if let date, SeoulDay(date) == nil || date.count != 10 { throw ValidationError("--date must be a date like 2026-11-23") }
    }

    /// The query these options make, and the default district it took from the settings (nil when
    /// `--district` was given or no default is set). Unreadable settings are a warning, not a failure.
    func query() -> (query: ProgramQuery, defaultDistrict: String?) {
        var query = ProgramQuery(search: search, category: category, isFreeOnly: free, day: date.flatMap { SeoulDay($0) })
        var fromSettings: String?
        if let district {
            query.district = district.lowercased() == Self.allDistricts ? nil : district
        } else if let saved = RaonSettings.loadOrWarn().district {
            query.district = saved
            fromSettings = saved
        }
        return (query, fromSettings)
    }

    /// On stderr: that the list is the default district's, and how to see every district.
    static func noteDefault(_ district: String?) {
        guard let district else { return }
        Terminal.error("district: \(district) (your default: courier raon settings; --district all for every district)")
    }
}
