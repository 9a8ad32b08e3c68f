public import RabbitMQ

/// The exchanges, queues and bindings of contract v1, declared idempotently at start-up and after
/// every reconnection.
public enum CheckoutTopology {
    public static func make(_ configuration: MessagingConfiguration) -> AMQPTopology {
        let queueArguments: AMQPFieldTable = ["x-queue-type": .string(configuration.queueType.rawValue)]
        var topology = AMQPTopology(
            exchanges: [
                .init(name: configuration.commandsExchange, type: "topic"),
                .init(name: configuration.eventsExchange, type: "topic"),
                .init(name: configuration.deadLetter, type: "topic"),
            ],
            queues: [.init(name: configuration.deadLetter, arguments: queueArguments)],
            bindings: [.init(queue: configuration.deadLetter, exchange: configuration.deadLetter, routingKey: "#")]
        )
        for kind in CommandKind.allCases {
            let queue = configuration.queue(for: kind)
            topology.queues.append(.init(name: queue, arguments: queueArguments))
            topology.bindings.append(.init(queue: queue, exchange: configuration.commandsExchange, routingKey: kind.routingKey))
            for (retry, delay) in configuration.retryDelays.delays.enumerated() {
                topology.queues.append(
                    .init(
                        name: configuration.retryQueue(for: kind, retry: retry),
                        arguments: retryQueueArguments(backTo: queue, after: delay, configuration.queueType)
                    ))
            }
        }
        return topology
    }

    /// A retry queue holds each message for its delay, then the broker dead-letters it back to the
    /// work queue through the default exchange. Quorum queues dead-letter at-least-once, which needs
    /// publishes refused rather than messages dropped when the queue is full.
    private static func retryQueueArguments(backTo queue: String, after delay: RetryDelays.Delay, _ type: QueueType) -> AMQPFieldTable {
        var arguments: AMQPFieldTable = [
            "x-queue-type": .string(type.rawValue),
            "x-message-ttl": .int64(Int64(delay.milliseconds)),
            "x-dead-letter-exchange": .string(""),
            "x-dead-letter-routing-key": .string(queue),
        ]
        if type == .quorum {
            arguments["x-dead-letter-strategy"] = .string("at-least-once")
            arguments["x-overflow"] = .string("reject-publish")
        }
        return arguments
    }
}
