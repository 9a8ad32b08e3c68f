/// One condition the worker needs to do its job, asked by `GET /health/ready`.
///
/// A check answers `true` when its dependency is usable; `false`, a thrown error, or no answer
/// within the server's check timeout all count as not ready.
public struct ReadinessCheck: Sendable {
    /// The name in the probe's body, such as `broker`, `database` or `consumers`.
    public let name: String
    let probe: @Sendable () async throws -> Bool

    /// - Parameters:
    ///   - name: The name in the probe's body.
    ///   - probe: Answers whether the dependency is usable. It should return promptly and honour task
    ///     cancellation; one that hangs regardless is abandoned at the timeout, still running.
    public init(_ name: String, probe: @escaping @Sendable () async throws -> Bool) {
        self.name = name
        self.probe = probe
    }
}
