extension Array where Element == Double {
    /// The middle value, the mean of the two middle ones for an even count, NaN for none: robust to
    /// the one round that the shared machine slowed down.
    var median: Double {
        let sorted = self.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
