public import RabbitMQ

/// The deliveries the worker handles: a consumer's, settled on the connection that received them.
extension AMQPDelivery: MessageDelivery {}
