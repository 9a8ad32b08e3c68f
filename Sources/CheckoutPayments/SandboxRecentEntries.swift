/// A dictionary that keeps only its `capacity` newest entries, in the order they were inserted, so
/// that the sandbox does not grow with every order of a long-running worker.
struct SandboxRecentEntries<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let capacity: Int
    private var values: [Key: Value] = [:]
    /// The keys in insertion order once rotated by `oldest`: a ring, once full.
    private var keys: [Key] = []
    private var oldest = 0

    init(capacity: Int) {
        precondition(capacity > 0, "the sandbox must remember at least one entry")
        self.capacity = capacity
    }

    subscript(key: Key) -> Value? {
        values[key]
    }

    /// Adds a new key's value, forgetting the oldest entry when full; a known key keeps its place.
    mutating func insert(_ value: Value, for key: Key) {
        guard values.updateValue(value, forKey: key) == nil else { return }
        if keys.count < capacity {
            keys.append(key)
            return
        }
        values[keys[oldest]] = nil
        keys[oldest] = key
        oldest = (oldest + 1) % capacity
    }

    /// The entries, oldest first.
    var entries: [(key: Key, value: Value)] {
        (keys[oldest...] + keys[..<oldest]).compactMap { key in values[key].map { (key, $0) } }
    }
}
