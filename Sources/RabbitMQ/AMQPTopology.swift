/// Exchanges, queues and bindings to declare; the connection re-declares them after every recovery.
public struct AMQPTopology: Sendable, Hashable {
    public struct Exchange: Sendable, Hashable {
        public var name: String
        public var type: String
        public var durable: Bool
        public var autoDelete: Bool
        public var arguments: AMQPFieldTable

        public init(
            name: String, type: String = "topic", durable: Bool = true, autoDelete: Bool = false,
            arguments: AMQPFieldTable = [:]
        ) {
            self.name = name
            self.type = type
            self.durable = durable
            self.autoDelete = autoDelete
            self.arguments = arguments
        }
    }

    public struct Queue: Sendable, Hashable {
        public var name: String
        public var durable: Bool
        public var exclusive: Bool
        public var autoDelete: Bool
        /// `x-queue-type`, `x-dead-letter-exchange`, `x-message-ttl` and the like.
        public var arguments: AMQPFieldTable

        public init(
            name: String, durable: Bool = true, exclusive: Bool = false, autoDelete: Bool = false,
            arguments: AMQPFieldTable = [:]
        ) {
            self.name = name
            self.durable = durable
            self.exclusive = exclusive
            self.autoDelete = autoDelete
            self.arguments = arguments
        }
    }

    public struct Binding: Sendable, Hashable {
        public var queue: String
        public var exchange: String
        public var routingKey: String
        public var arguments: AMQPFieldTable

        public init(queue: String, exchange: String, routingKey: String, arguments: AMQPFieldTable = [:]) {
            self.queue = queue
            self.exchange = exchange
            self.routingKey = routingKey
            self.arguments = arguments
        }
    }

    public var exchanges: [Exchange]
    public var queues: [Queue]
    public var bindings: [Binding]

    public init(exchanges: [Exchange] = [], queues: [Queue] = [], bindings: [Binding] = []) {
        self.exchanges = exchanges
        self.queues = queues
        self.bindings = bindings
    }
}

extension AMQPTopology {
    /// Adds what `other` declares, so that recovery re-declares everything declared so far, once.
    mutating func merge(_ other: AMQPTopology) {
        for exchange in other.exchanges where !exchanges.contains(exchange) { exchanges.append(exchange) }
        for queue in other.queues where !queues.contains(queue) { queues.append(queue) }
        for binding in other.bindings where !bindings.contains(binding) { bindings.append(binding) }
    }
}
