import Synchronization

/// What a chaos run's client published: each command and malformed message once, and how often
/// it had to publish again.
final class SentMessages: Sendable {
    private struct State {
        var commands: [String: ChaosCommand] = [:]
        var publishCounts: [String: Int] = [:]
        var firstConfirmed: [String: ContinuousClock.Instant] = [:]
        var malformed: [String: MalformedMessage] = [:]
        var publishes = 0
        var clientResends: Set<String> = []
        var publishRetries = 0
    }

    private let state = Mutex(State())

    func record(_ command: ChaosCommand) {
        state.withLock {
            $0.commands[command.id] = command
            $0.publishCounts[command.id, default: 0] += 1
            if $0.firstConfirmed[command.id] == nil { $0.firstConfirmed[command.id] = .now }
            $0.publishes += 1
        }
    }

    func record(_ message: MalformedMessage) {
        state.withLock {
            $0.malformed[message.tag] = message
            $0.publishes += 1
        }
    }

    /// A command that the named client resend published again because no answer came in time.
    func recordClientResend(_ id: String) { state.withLock { _ = $0.clientResends.insert(id) } }

    /// A publish that failed (the broker was away) and was tried again.
    func recordPublishRetry() { state.withLock { $0.publishRetries += 1 } }

    var commands: [String: ChaosCommand] { state.withLock { $0.commands } }
    var malformed: [String: MalformedMessage] { state.withLock { $0.malformed } }
    /// How often each command was published (more than once: a client's deliberate duplicate).
    var publishCounts: [String: Int] { state.withLock { $0.publishCounts } }
    /// Every publish of a command or malformed message that the broker confirmed.
    var publishes: Int { state.withLock { $0.publishes } }
    /// The ids of the commands the named client resend published again.
    var clientResends: Set<String> { state.withLock { $0.clientResends } }
    var publishRetries: Int { state.withLock { $0.publishRetries } }
    /// When the broker first confirmed command `id`.
    func firstConfirmed(_ id: String) -> ContinuousClock.Instant? { state.withLock { $0.firstConfirmed[id] } }
}
