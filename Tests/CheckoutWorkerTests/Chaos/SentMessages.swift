import Synchronization

/// What a chaos run's client published: each command and malformed message once, and how often
/// it had to publish again.
final class SentMessages: Sendable {
    private struct State {
        var commands: [String: ChaosCommand] = [:]
        var malformed: [String: MalformedMessage] = [:]
        var publishes = 0
        var resends = 0
        var publishRetries = 0
    }

    private let state = Mutex(State())

    func record(_ command: ChaosCommand) {
        state.withLock {
            $0.commands[command.id] = command
            $0.publishes += 1
        }
    }

    func record(_ message: MalformedMessage) {
        state.withLock {
            $0.malformed[message.tag] = message
            $0.publishes += 1
        }
    }

    /// A command published again because no answer came in time, as a client would.
    func recordResend() { state.withLock { $0.resends += 1 } }

    /// A publish that failed (the broker was away) and was tried again.
    func recordPublishRetry() { state.withLock { $0.publishRetries += 1 } }

    var commands: [String: ChaosCommand] { state.withLock { $0.commands } }
    var malformed: [String: MalformedMessage] { state.withLock { $0.malformed } }
    /// Every publish of a command or malformed message that the broker confirmed.
    var publishes: Int { state.withLock { $0.publishes } }
    var resends: Int { state.withLock { $0.resends } }
    var publishRetries: Int { state.withLock { $0.publishRetries } }
}
