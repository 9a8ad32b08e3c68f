/// Which dead letters an operation acts on.
public enum DeadLetterSelection: Sendable, Equatable {
    case all
    /// Those with this `x-error-reason`.
    case reason(String)
    /// Those named, by position or `message_id` (every dead letter with that id).
    case ids([DeadLetterID])

    public func selects(_ letter: DeadLetter) -> Bool {
        switch self {
        case .all:
            return true
        case .reason(let reason):
            return letter.reason == reason
        case .ids(let ids):
            return ids.contains { id in
                switch id {
                case .position(let position): letter.position == position
                case .messageID(let messageID): letter.messageID == messageID
                }
            }
        }
    }

    var namesPositions: Bool {
        guard case .ids(let ids) = self else { return false }
        return ids.contains { if case .position = $0 { true } else { false } }
    }

    /// The last position that can be selected, so that reading can stop there; nil when any can.
    var lastPosition: Int? {
        guard case .ids(let ids) = self else { return nil }
        var last = 0
        for id in ids {
            guard case .position(let position) = id else { return nil }
            last = max(last, position)
        }
        return last
    }
}
