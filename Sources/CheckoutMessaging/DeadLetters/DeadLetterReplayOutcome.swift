/// What a replay did with one selected dead letter (with `dryRun`, what it would do).
public enum DeadLetterReplayOutcome: Sendable {
    /// Published to the commands exchange, confirmed by the broker, then removed from the queue.
    case replayed(DeadLetter)
    /// The same command (routing key, `message_id` and body) as the dead letter at `position`, replayed
    /// just before: removed without a second copy. A replay interrupted between a confirm and its ack
    /// and run again meets such pairs once the worker dead-lettered the first copy again.
    case duplicate(DeadLetter, of: Int)
    /// Left in the queue, for the reason given.
    case kept(DeadLetter, because: String)
}
