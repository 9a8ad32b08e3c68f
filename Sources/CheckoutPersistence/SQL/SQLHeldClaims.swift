import Synchronization

/// The claims that attempts in this worker process hold or are taking, by kind and command id.
///
/// A claim of this worker's that no attempt holds was left behind by one whose release failed (the
/// database was unreachable as it ended): the command's next delivery takes it over at once instead of
/// waiting out the lease, while a duplicate delivered during an attempt still finds it in progress.
final class SQLHeldClaims: Sendable {
    private let keys = Mutex<Set<String>>([])

    /// Marks the claim as being taken; false when another attempt in this process holds or takes it.
    func begin(kind: String, commandID: String) -> Bool {
        keys.withLock { $0.insert(Self.key(kind, commandID)).inserted }
    }

    /// The attempt let go of the claim: it recorded an outcome, released it, or did not get it.
    func end(kind: String, commandID: String) {
        _ = keys.withLock { $0.remove(Self.key(kind, commandID)) }
    }

    /// Whether no attempt holds a claim: so it is between commands, since every attempt lets go as it ends.
    var isEmpty: Bool {
        keys.withLock { $0.isEmpty }
    }

    private static func key(_ kind: String, _ commandID: String) -> String {
        "\(kind) \(commandID)"
    }
}
