/// Reads a sample out of the Prometheus text format the workers serve on `/metrics`.
enum PrometheusText {
    /// The sum of every sample of `metric` (all its label sets), or nil if it has none.
    static func value(of metric: String, in text: String) -> Double? {
        var total: Double?
        for line in text.split(separator: "\n") where line.hasPrefix(metric) {
            var rest = line.dropFirst(metric.count)
            if rest.first == "{", let end = rest.lastIndex(of: "}") {
                rest = rest[rest.index(after: end)...]
            }
            guard rest.first == " ", let value = rest.split(separator: " ").first.flatMap({ Double($0) }) else { continue }
            total = (total ?? 0) + value
        }
        return total
    }
}
