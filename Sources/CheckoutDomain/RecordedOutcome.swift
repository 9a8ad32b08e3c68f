/// A handled command's outcome as stored, with the digest of the body it was recorded for.
public struct RecordedOutcome<Outcome: Sendable & Equatable>: Sendable, Equatable {
    public let outcome: Outcome
    /// Nil for outcomes stored before digests were: they match any body.
    public let digest: CommandDigest?

    public init(_ outcome: Outcome, digest: CommandDigest?) {
        self.outcome = outcome
        self.digest = digest
    }

    /// Whether a command with `digest` is the one this outcome was recorded for, and is owed it again;
    /// otherwise it re-uses the id and is owed nothing of it.
    public func belongs(to digest: CommandDigest?) -> Bool {
        CommandLog<Outcome>.matches(self.digest, digest)
    }
}
