public import Foundation
public import Logging
public import Metrics
public import RabbitMQ
public import ServiceLifecycle
import Synchronization
public import Tracing

/// Consumes both command queues and handles their deliveries, at most `concurrency` at once.
///
/// Consuming is RabbitMQ's; what becomes of a delivery is ``CommandHandler``'s, which needs only a
/// ``MessageBroker`` and so is tested without one.
///
/// `run()` declares the topology, then consumes until graceful shutdown: it stops taking deliveries,
/// finishes those it holds (each ends acked, or unacked and so redelivered), and returns. Cancellation
/// stops at once; the broker redelivers whatever was not acked.
///
/// Reading and handling prefer the connection's executor, so a command's delivery, event publish, confirm
/// and ack stay on the broker connection's thread; database and payment calls hop to their own clients'
/// threads and come back.
public final class CommandWorker: Service {
    private let connection: AMQPConnection
    private let configuration: MessagingConfiguration
    private let handler: CommandHandler
    private let logger: Logger
    /// The consumers while `run()` consumes; empty before and after.
    private let consumers = Mutex<[AMQPConsumer]>([])

    public init(
        connection: AMQPConnection,
        configuration: MessagingConfiguration,
        useCases: UseCaseFactory,
        retrySigner: RetrySigner,
        logger: Logger,
        metrics: any MetricsFactory,
        tracer: any Tracer,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.connection = connection
        self.configuration = configuration
        self.logger = logger
        handler = CommandHandler(
            broker: connection,
            configuration: configuration,
            useCases: useCases,
            retrySigner: retrySigner,
            logger: logger,
            metrics: metrics,
            tracer: tracer,
            pauseBeforeRequeue: .seconds(1),
            now: now
        )
    }

    /// Whether both consumers are subscribed (for `/health/ready`): false until `run()` subscribed them,
    /// and while the broker has cancelled one (its queue was deleted) until it is declared and subscribed again.
    public var isConsuming: Bool {
        consumers.withLock { !$0.isEmpty && $0.allSatisfy(\.isSubscribed) }
    }

    public func run() async throws {
        try await connection.declare(CheckoutTopology.make(configuration))
        var consumers: [(CommandKind, AMQPConsumer)] = []
        for kind in CommandKind.allCases {
            consumers.append(
                (
                    kind,
                    try await connection.consume(
                        queue: configuration.queue(for: kind), prefetch: configuration.prefetch,
                        maximumBodyBytes: configuration.maximumBodyBytes)
                ))
        }
        for (_, consumer) in consumers {
            logger.info(
                "consuming",
                metadata: [
                    "messaging.destination.name": "\(consumer.queue)", "checkout.prefetch": .stringConvertible(configuration.prefetch),
                ])
        }

        let (deliveries, delivered) = AsyncStream.makeStream(of: (CommandKind, AMQPDelivery).self)
        // Reading runs apart from handling so that shutdown can stop the one and let the other finish.
        let reading = Task(executorPreference: connection.executor) { [consumers] in
            await withTaskGroup(of: Void.self) { readers in
                for (kind, consumer) in consumers {
                    readers.addTask {
                        for await delivery in consumer { delivered.yield((kind, delivery)) }
                    }
                }
            }
            delivered.finish()
        }
        self.consumers.withLock { $0 = consumers.map(\.1) }
        defer { self.consumers.withLock { $0 = [] } }

        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withTaskExecutorPreference(connection.executor) {
                    await handle(deliveries)
                }
            } onGracefulShutdown: { [logger] in
                logger.info("shutting down: no new deliveries, finishing the commands in flight")
                reading.cancel()
            }
        } onCancel: {
            reading.cancel()
        }
        logger.info("stopped consuming")
    }

    private func handle(_ deliveries: AsyncStream<(CommandKind, AMQPDelivery)>) async {
        let limit = max(configuration.concurrency, 1)
        await withTaskGroup(of: Void.self) { handlers in
            var inFlight = 0
            for await (kind, delivery) in deliveries {
                if inFlight >= limit {
                    await handlers.next()
                    inFlight -= 1
                }
                inFlight += 1
                handlers.addTask { [handler] in await handler.handle(delivery, kind: kind) }
            }
        }
    }
}
