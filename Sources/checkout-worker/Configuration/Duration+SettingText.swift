import CheckoutMessaging

extension Duration {
    /// Reads a duration as every setting and flag takes it: a whole number and a unit, `500ms`, `30s`,
    /// `2m` or `1h`, up to a day.
    init?(settingText text: String) {
        guard let delay = try? RetryDelays.Delay(parsing: text) else { return nil }
        self = delay.duration
    }

    /// The duration as settings are written, in the largest unit that divides it: `1500ms`, `30s`, `2m`.
    var settingText: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        let units: [(suffix: String, milliseconds: Int64)] = [("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        guard milliseconds > 0, let unit = units.first(where: { milliseconds % $0.milliseconds == 0 }) else { return "\(milliseconds)ms" }
        return "\(milliseconds / unit.milliseconds)\(unit.suffix)"
    }
}
