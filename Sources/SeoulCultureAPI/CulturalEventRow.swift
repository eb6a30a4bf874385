/// One row of `culturalEventInfo`, as the service sends it: every field a string, keys in
/// upper case. A missing or null field decodes as `""`. ``CulturalProgram`` is the typed model.
public struct CulturalEventRow: Codable, Sendable, Equatable {
    /// `CODENAME`: the category, e.g. `"클래식"`, `"축제-문화/예술"`.
    public var codeName: String
    /// `GUNAME`: the district, e.g. `"종로구"`.
    public var district: String
    /// `TITLE`.
    public var title: String
    /// `DATE`: `"YYYY-MM-DD~YYYY-MM-DD"`.
    public var dateRange: String
    /// `PLACE`.
    public var place: String
    /// `ORG_NAME`: the organiser.
    public var organization: String
    /// `USE_TRGT`: who may attend.
    public var target: String
    /// `USE_FEE`: the fee as text.
    public var fee: String
    /// `INQUIRY`: where to ask.
    public var inquiry: String
    /// `PLAYER`: performers.
    public var player: String
    /// `PROGRAM`: the programme.
    public var program: String
    /// `ETC_DESC`: other notes.
    public var etcDescription: String
    /// `ORG_LINK`: the organiser's page (often the ticket page).
    public var orgLink: String
    /// `MAIN_IMG`: the poster.
    public var mainImage: String
    /// `RGSTDATE`: when the row was registered.
    public var registered: String
    /// `TICKET`: who sells tickets (`"기관"`, `"시민"`).
    public var ticket: String
    /// `STRTDATE`: `"2026-03-16 00:00:00.0"`.
    public var startDate: String
    /// `END_DATE`: `"2026-03-16 00:00:00.0"`.
    public var endDate: String
    /// `THEMECODE`.
    public var themeCode: String
    /// `LOT`: meant to be the longitude — not reliably (see ``CulturalProgram``).
    public var lot: String
    /// `LAT`: meant to be the latitude — not reliably.
    public var lat: String
    /// `IS_FREE`: `"무료"` or `"유료"`.
    public var isFree: String
    /// `HMPG_ADDR`: the program's page on the Seoul culture portal.
    public var homepage: String
    /// `PRO_TIME`: opening hours.
    public var time: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case codeName = "CODENAME"
        case district = "GUNAME"
        case title = "TITLE"
        case dateRange = "DATE"
        case place = "PLACE"
        case organization = "ORG_NAME"
        case target = "USE_TRGT"
        case fee = "USE_FEE"
        case inquiry = "INQUIRY"
        case player = "PLAYER"
        case program = "PROGRAM"
        case etcDescription = "ETC_DESC"
        case orgLink = "ORG_LINK"
        case mainImage = "MAIN_IMG"
        case registered = "RGSTDATE"
        case ticket = "TICKET"
        case startDate = "STRTDATE"
        case endDate = "END_DATE"
        case themeCode = "THEMECODE"
        case lot = "LOT"
        case lat = "LAT"
        case isFree = "IS_FREE"
        case homepage = "HMPG_ADDR"
        case time = "PRO_TIME"
    }

    /// A row; every field defaults to `""`.
    public init(
        codeName: String = "", district: String = "", title: String = "", dateRange: String = "", place: String = "",
        organization: String = "", target: String = "", fee: String = "", inquiry: String = "", player: String = "",
        program: String = "", etcDescription: String = "", orgLink: String = "", mainImage: String = "", registered: String = "",
        ticket: String = "", startDate: String = "", endDate: String = "", themeCode: String = "", lot: String = "",
        lat: String = "", isFree: String = "", homepage: String = "", time: String = ""
    ) {
        self.codeName = codeName
        self.district = district
        self.title = title
        self.dateRange = dateRange
        self.place = place
        self.organization = organization
        self.target = target
        self.fee = fee
        self.inquiry = inquiry
        self.player = player
        self.program = program
        self.etcDescription = etcDescription
        self.orgLink = orgLink
        self.mainImage = mainImage
        self.registered = registered
        self.ticket = ticket
        self.startDate = startDate
        self.endDate = endDate
        self.themeCode = themeCode
        self.lot = lot
        self.lat = lat
        self.isFree = isFree
        self.homepage = homepage
        self.time = time
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String {
            // The service sends strings; a number (LAT as 37.5) or null is tolerated.
            if let value = try? container.decodeIfPresent(String.self, forKey: key) { return value }
            if let value = try? container.decodeIfPresent(Double.self, forKey: key) { return String(value) }
            return ""
        }
        self.init(
            codeName: try text(.codeName), district: try text(.district), title: try text(.title), dateRange: try text(.dateRange),
            place: try text(.place), organization: try text(.organization), target: try text(.target), fee: try text(.fee),
            inquiry: try text(.inquiry), player: try text(.player), program: try text(.program), etcDescription: try text(.etcDescription),
            orgLink: try text(.orgLink), mainImage: try text(.mainImage), registered: try text(.registered), ticket: try text(.ticket),
            startDate: try text(.startDate), endDate: try text(.endDate), themeCode: try text(.themeCode), lot: try text(.lot),
            lat: try text(.lat), isFree: try text(.isFree), homepage: try text(.homepage), time: try text(.time)
        )
    }
}

extension CulturalEventRow {
    /// Sets the field at `index` of ``CodingKeys/allCases`` (the scanner's way in, without a
    /// per-row array or key paths).
    mutating func setField(_ index: Int, _ value: String) {
        switch index {
        case 0: codeName = value
        case 1: district = value
        case 2: title = value
        case 3: dateRange = value
        case 4: place = value
        case 5: organization = value
        case 6: target = value
        case 7: fee = value
        case 8: inquiry = value
        case 9: player = value
        case 10: program = value
        case 11: etcDescription = value
        case 12: orgLink = value
        case 13: mainImage = value
        case 14: registered = value
        case 15: ticket = value
        case 16: startDate = value
        case 17: endDate = value
        case 18: themeCode = value
        case 19: lot = value
        case 20: lat = value
        case 21: isFree = value
        case 22: homepage = value
        case 23: time = value
        default: break
        }
    }
}
