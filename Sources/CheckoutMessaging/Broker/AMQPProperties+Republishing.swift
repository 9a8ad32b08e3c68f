import RabbitMQ

extension AMQPProperties {
    /// These properties for a message the worker publishes again (a retry copy, a dead letter, a
    /// replay), without what a client set that would have it expire (`expiration`: the copy would vanish
    /// from its queue), refused (`user_id`: RabbitMQ closes the channel of a publish whose `user_id` is
    /// not the worker's own user) or routed elsewhere (the `CC` and `BCC` headers), nor the headers the
    /// broker writes itself when it dead-letters or redelivers, which it writes again as needed: it reads
    /// `x-death` back when a retry queue hands a copy on, and one a client forged (an array of strings)
    /// crashes the retry queue, with every copy in it.
    var republishable: AMQPProperties {
        var copy = self
        copy.expiration = nil
        copy.userID = nil
        copy.headers = headers?.filter { !Self.routingHeaders.contains($0.key) && !Self.isBrokerHeader($0.key) }
        return copy
    }

    /// Sender-selected distribution (RabbitMQ's extension to AMQP): more routing keys for a publish.
    private static let routingHeaders: Set<String> = ["CC", "BCC"]

    /// What RabbitMQ records on a message it dead-letters (`x-death`, `x-first-death-*`, `x-last-death-*`)
    /// or a quorum queue redelivers (`x-delivery-count`).
    private static func isBrokerHeader(_ name: String) -> Bool {
        name == "x-death" || name == "x-delivery-count" || name.hasPrefix("x-first-death-") || name.hasPrefix("x-last-death-")
    }
}
