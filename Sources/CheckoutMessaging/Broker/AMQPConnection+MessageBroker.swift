public import RabbitMQ

/// The broker the worker runs over: the connection already publishes with confirm.
extension AMQPConnection: MessageBroker {}
