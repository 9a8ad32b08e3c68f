import Testing

/// Thrown, after recording an issue, by a fake asked for something the test did not set up.
struct UnconfiguredFake: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
        Issue.record("unconfigured fake: \(description)")
    }
}
