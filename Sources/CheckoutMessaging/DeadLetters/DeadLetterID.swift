/// How an operator names a dead letter: by its position in the queue, as `list` shows it, or by its
/// `message_id`. Dead letters of input without a `message_id` can only be named by position.
public enum DeadLetterID: Hashable, Sendable, CustomStringConvertible {
    /// 1 for the head of the queue. Positions move as messages before it are removed.
    case position(Int)
    case messageID(String)

    /// A whole number from 1 is a position; `id:` followed by anything is that `message_id` (for ids
    /// that are numbers); anything else is a `message_id`.
    public init(_ argument: String) {
        if argument.hasPrefix("id:") {
            self = .messageID(String(argument.dropFirst(3)))
        } else if let position = Int(argument), position >= 1 {
            self = .position(position)
        } else {
            self = .messageID(argument)
        }
    }

    public var description: String {
        switch self {
        case .position(let position): "position \(position)"
        case .messageID(let messageID): "message_id \(messageID)"
        }
    }
}
