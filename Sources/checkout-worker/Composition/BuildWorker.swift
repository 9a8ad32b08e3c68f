import AsyncHTTPClient
import CheckoutDomain
import CheckoutMessaging
import CheckoutObservability
import CheckoutOperations
import CheckoutPayments
import CheckoutPersistence
import Foundation
import Logging
import Metrics
import RabbitMQ
import ServiceLifecycle
import Tracing
import UnixSignals

/// The composition root: builds every part of the worker from its configuration and wires them. It
/// connects to nothing: the service group it returns runs every client, in order, and stops them in
/// reverse order, so that what the command handling uses closes only after it finished.
///
/// Both `checkout-worker run` and the end-to-end tests call it, so the tests run what ships.
func buildWorker(
    configuration: WorkerConfiguration,
    logger: Logger,
    metrics: MetricsBootstrap,
    tracing: TracingBackend = .propagatingOnly
) throws -> Worker {
    let store = try CheckoutStore(configuration.databaseURL, poolSize: configuration.databasePoolSize, logger: logger)

    var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
    let payments: any PaymentProcessor
    switch configuration.paymentProcessor {
    case .sandbox:
        payments = SandboxPaymentProcessor()
    case .stripe(let stripe):
        let httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: stripe.httpClientConfiguration(concurrentCharges: configuration.messaging.concurrency))
        services.append(failingGracefully(ClosingService(description: "payment gateway client") { try? await httpClient.shutdown() }))
        payments = StripePaymentProcessor(configuration: stripe, httpClient: httpClient, logger: logger)
    }

    Gauge(label: "checkout_build_info", dimensions: [("version", CheckoutWorkerVersion.current)], factory: metrics.factory).record(1)
    let reconnects = Counter(label: "checkout_broker_reconnects_total", factory: metrics.factory)
    let connection = AMQPConnection(configuration.amqp, logger: logger, onReconnect: { reconnects.increment() })

    let useCases = useCases(store: store, payments: payments, claimLease: configuration.claimLease, metrics: metrics.factory)
    let handling = CommandHandlingService(store: store, connection: connection, catalogFile: configuration.catalogFile, logger: logger) {
        retrySigner in
        CommandWorker(
            connection: connection,
            configuration: configuration.messaging,
            useCases: useCases,
            retrySigner: retrySigner,
            logger: logger,
            metrics: metrics.factory,
            tracer: tracing.tracer
        )
    }
    let operations = OperationsServer(
        port: configuration.httpPort,
        readinessChecks: [
            // A thread held for seconds (a C call, a task blocking on the executor) serves no deliveries.
            ReadinessCheck("broker") { connection.isConnected && connection.stalledFor < .seconds(10) },
            ReadinessCheck("database") {
                try await store.checkReachable(); return true
            },
            ReadinessCheck("consumers") { handling.isConsuming },
        ],
        // Held past twice the watchdog's limit, the thread did not come back when the watchdog shut its
        // socket: something blocks it that only a restart ends.
        isAlive: { connection.stalledFor < connection.stallLimit * 2 },
        registry: metrics.registry,
        logger: logger
    )
    // Started in this order and stopped in reverse: the deadline starts counting first, the command
    // handling drains, the clients it used close after it, and the health endpoints answer until the end.
    services.insert(contentsOf: [failingGracefully(operations), failingGracefully(store)], at: 0)
    services.append(failingGracefully(connection))
    if let exporter = tracing.exporter { services.append(failingGracefully(exporter)) }
    services.append(failingGracefully(SampledMetricsService(connection: connection, database: store.statistics, factory: metrics.factory)))
    // Its end, when consuming stopped for good, is the worker's.
    services.append(
        .init(service: handling, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup)
    )
    let deadline = ShutdownDeadline(gracePeriod: configuration.shutdownGracePeriod, cancellationLimit: .seconds(5), logger: logger)
    services.append(failingGracefully(deadline))
    var groupConfiguration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
    return Worker(serviceGroup: ServiceGroup(configuration: groupConfiguration), operations: operations, deadline: deadline)
}

/// A service whose failure stops the others gracefully: a failure at start-up (a port in use) then ends
/// the waits of the rest (the broker's, the database's) as SIGTERM does, and the group throws it, where
/// cancelling them would leave a wait that only a graceful shutdown ends to ``ShutdownDeadline``. One
/// that returns unasked still cancels the group, which throws that it finished unexpectedly.
private func failingGracefully(_ service: some Service) -> ServiceGroupConfiguration.ServiceConfiguration {
    .init(service: service, failureTerminationBehavior: .gracefullyShutdownGroup)
}

/// The use cases as the worker runs them: over the store and the payment processor, with their
/// outputs and themselves wrapped in logging and metrics.
private func useCases(
    store: CheckoutStore, payments: any PaymentProcessor, claimLease: Duration, metrics: any MetricsFactory
) -> UseCaseFactory {
    let lease = Double(claimLease.components.seconds) + Double(claimLease.components.attoseconds) / 1e18
    let syncCartMetrics = SyncCartMetrics(factory: metrics)
    let placeOrderMetrics = PlaceOrderMetrics(factory: metrics)
    return UseCaseFactory(
        syncCart: { output, logger in
            InstrumentedSyncCart(
                SyncCartUseCase(
                    store: store.syncCarts,
                    output: InstrumentedSyncCartOutput(output, logger: logger, metrics: syncCartMetrics),
                    now: Date.init
                ),
                logger: logger,
                metrics: syncCartMetrics
            )
        },
        placeOrder: { output, logger in
            InstrumentedPlaceOrder(
                PlaceOrderUseCase(
                    store: store.placeOrders,
                    catalog: store.catalog,
                    orders: store.orders,
                    payments: payments,
                    charges: store.charges,
                    processedCommands: store.placeOrderCommands,
                    output: InstrumentedPlaceOrderOutput(output, logger: logger, metrics: placeOrderMetrics),
                    now: Date.init,
                    claimLease: lease
                ),
                logger: logger,
                metrics: placeOrderMetrics
            )
        }
    )
}
