import Metrics

extension Dictionary where Key: CaseIterable & RawRepresentable<String>, Value == Counter {
    /// A counter of `label` for every case of `Key`, made up front so that no outcome looks one up in the
    /// factory and every series exists from the start: `dimensions`, then the case as `reason`.
    init(label: String, dimensions: [(String, String)] = [], factory: any MetricsFactory) {
        self.init(
            uniqueKeysWithValues: Key.allCases.map {
                ($0, Counter(label: label, dimensions: dimensions + [("reason", $0.rawValue)], factory: factory))
            })
    }
}
