extension Duration {
    /// Whole milliseconds, rounded toward zero; saturates at `Int64`'s bounds.
    package var milliseconds: Int64 {
        let (whole, overflow) = components.seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return components.seconds < 0 ? .min : .max }
        let (sum, carried) = whole.addingReportingOverflow(components.attoseconds / 1_000_000_000_000_000)
        return carried ? (whole < 0 ? .min : .max) : sum
    }

    /// Seconds as a `Double` (for rates and display; not exact below a nanosecond).
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
