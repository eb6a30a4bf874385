extension ICalendarExport {
    /// A reminder before each event: a `VALARM` (`ACTION:DISPLAY`) whose `TRIGGER` is a duration
    /// before the event's start, so a calendar app that imports the file rings — `1d` is
    /// `TRIGGER:-P1D`, `2h` `-PT2H`, `30m` `-PT30M` (RFC 5545 §3.6.6, §3.3.6). The events are
    /// all-day, so the start is midnight of the first day in the calendar's own time zone: `1d`
    /// rings at midnight the day before, `2h` at 22:00.
    ///
    /// ```swift
    /// let calendar = ICalendarExport.document(for: favourites, alarm: ICalendarExport.Alarm("1d"))
    /// ```
    public struct Alarm: Sendable, Hashable, CustomStringConvertible {
        /// The unit of ``amount``.
        public enum Unit: String, Sendable, CaseIterable {
            /// Days (`d`).
            case days = "d"
            /// Hours (`h`).
            case hours = "h"
            /// Minutes (`m`).
            case minutes = "m"

            /// The most of this unit allowed: a year (366 days) in each.
            public var limit: Int {
                switch self {
                case .days: 366
                case .hours: 366 * 24
                case .minutes: 366 * 24 * 60
                }
            }
        }

        /// How many ``unit``s before the start (1 or more, at most ``Unit/limit``).
        public let amount: Int
        /// Days, hours or minutes.
        public let unit: Unit

        /// A reminder `amount` `unit`s before the start; nil when `amount` is below 1 or over
        /// the unit's ``Unit/limit``.
        public init?(amount: Int, unit: Unit) {
            guard (1...unit.limit).contains(amount) else { return nil }
            self.amount = amount
            self.unit = unit
        }

        /// A reminder written as digits and a unit: `1d`, `2h`, `30m` (nil for anything else).
        public init?(_ text: String) {
            guard let last = text.last, let unit = Unit(rawValue: String(last).lowercased()) else { return nil }
            let digits = text.dropLast()
            guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let amount = Int(digits) else { return nil }
            self.init(amount: amount, unit: unit)
        }

        /// The `TRIGGER` value: a negative duration, `-P1D`, `-PT2H`, `-PT30M`.
        public var trigger: String {
            switch unit {
            case .days: "-P\(amount)D"
            case .hours: "-PT\(amount)H"
            case .minutes: "-PT\(amount)M"
            }
        }

        /// As written: `1d`, `2h`, `30m`.
        public var description: String { "\(amount)\(unit.rawValue)" }

        /// The `VALARM` lines for the event `summary` (its text already escaped).
        func lines(summary: String) -> [String] {
            ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:\(trigger)", "DESCRIPTION:\(summary)", "END:VALARM"]
        }
    }
}
