import Testing

/// Thrown, after recording an issue, by a fake asked for something the test did not set up.
public struct UnconfiguredFake: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
        Issue.record("unconfigured fake: \(description)")
    }
}
