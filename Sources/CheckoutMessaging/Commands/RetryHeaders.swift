/// The headers the worker adds to retried and dead-lettered copies of a command.
public enum RetryHeaders {
    /// How many times the command was sent back for a retry.
    public static let retryCount = "x-retry-count"
    /// The worker's signature of the retry count (``RetrySigner``); a count without it is not believed.
    public static let retrySignature = "x-retry-signature"
    /// The routing key the client published with.
    public static let originalRoutingKey = "x-original-routing-key"
    /// Why the command was dead-lettered: a ``MalformedCommand/Code``, `retries-exhausted` or `failed-permanently`.
    public static let errorReason = "x-error-reason"
    /// What exactly was wrong, for people.
    public static let errorDetail = "x-error-detail"
    /// When the worker dead-lettered it.
    public static let deadLetteredAt = "x-dead-lettered-at"

    /// Every header above: what a replayed dead letter sheds to become the client's command again.
    public static let all: Set<String> = [retryCount, retrySignature, originalRoutingKey, errorReason, errorDetail, deadLetteredAt]
}
