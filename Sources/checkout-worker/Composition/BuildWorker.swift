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

/// The composition root: builds every part of the worker from its configuration and wires them.
///
/// Both `checkout-worker run` and the end-to-end tests call it, so the tests run what ships.
///
/// - Parameter sharedStore: An open store to use instead of opening `CHECKOUT_DATABASE_URL`, for tests that run
///   several workers on one in-memory database as several processes would share PostgreSQL; the caller closes it.
func buildWorker(
    configuration: WorkerConfiguration,
    logger: Logger,
    metrics: MetricsBootstrap,
    tracing: TracingBackend = .propagatingOnly,
    sharedStore: CheckoutStore? = nil
) async throws -> Worker {
    var resources: [ClosingService] = []
    let store: CheckoutStore
    if let sharedStore {
        store = sharedStore
    } else {
        store = try await CheckoutStore.open(configuration.databaseURL, poolSize: configuration.databasePoolSize, logger: logger)
        resources.append(ClosingService(description: "database") { await store.close() })
    }
    let retrySigner: RetrySigner
    do {
        try await store.renewLiveness(first: true)
        retrySigner = RetrySigner(key: try await store.retrySigningKey())
    } catch {
        for resource in resources { await resource.close() }
        throw error
    }

    if let catalogFile = configuration.catalogFile {
        do {
            let report = try await store.importCatalog(try CatalogFileReader.products(at: catalogFile))
            logger.info(
                "imported the start-up catalog",
                metadata: [
                    "file.path": "\(catalogFile)", "catalog.inserted": .stringConvertible(report.inserted),
                    "catalog.updated": .stringConvertible(report.updated),
                ])
        } catch {
            for resource in resources { await resource.close() }
            throw SubcommandFailure("\(WorkerSettings.catalogFile.environmentName): nothing imported: \(error)")
        }
    }

    let payments: any PaymentProcessor
    switch configuration.paymentProcessor {
    case .sandbox:
        payments = SandboxPaymentProcessor()
    case .stripe(let stripe):
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: stripe.httpClientConfiguration)
        resources.append(ClosingService(description: "payment gateway client") { try? await httpClient.shutdown() })
        payments = StripePaymentProcessor(configuration: stripe, httpClient: httpClient, logger: logger)
    }

    Gauge(label: "checkout_build_info", dimensions: [("version", CheckoutWorkerVersion.current)], factory: metrics.factory).record(1)
    let connection: AMQPConnection
    let reconnects = Counter(label: "checkout_broker_reconnects_total", factory: metrics.factory)
    do {
        connection = try await AMQPConnection.connect(configuration.amqp, logger: logger, onReconnect: { reconnects.increment() })
    } catch {
        for resource in resources { await resource.close() }
        throw error
    }
    resources.append(ClosingService(description: "broker connection") { await connection.close() })

    let commands = CommandWorker(
        connection: connection,
        configuration: configuration.messaging,
        useCases: useCases(store: store, payments: payments, claimLease: configuration.claimLease, metrics: metrics.factory),
        retrySigner: retrySigner,
        logger: logger,
        metrics: metrics.factory,
        tracer: tracing.tracer
    )
    let operations = OperationsServer(
        port: configuration.httpPort,
        readinessChecks: [
            ReadinessCheck("broker") { connection.isConnected },
            ReadinessCheck("database") {
                try await store.checkReachable(); return true
            },
            ReadinessCheck("consumers") { commands.isConsuming },
        ],
        registry: metrics.registry,
        logger: logger
    )
    // Started in this order and stopped in reverse: the worker drains first, the resources it used
    // close after it, and the health endpoints answer until the end.
    var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: operations)]
    services += resources.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
    services.append(.init(service: LivenessService(store: store, logger: logger)))
    if let exporter = tracing.exporter { services.append(.init(service: exporter)) }
    services.append(.init(service: SampledMetricsService(connection: connection, database: store.statistics, factory: metrics.factory)))
    services.append(
        .init(service: commands, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup)
    )
    var groupConfiguration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
    groupConfiguration.maximumCancellationDuration = .seconds(5)
    return Worker(store: store, serviceGroup: ServiceGroup(configuration: groupConfiguration))
}

/// The use cases as the worker runs them: over the store and the payment processor, with their
/// outputs and themselves wrapped in logging and metrics.
private func useCases(
    store: CheckoutStore, payments: any PaymentProcessor, claimLease: Duration, metrics: any MetricsFactory
) -> UseCaseFactory {
    let lease = Double(claimLease.components.seconds) + Double(claimLease.components.attoseconds) / 1e18
    return UseCaseFactory(
        syncCart: { output, logger in
            InstrumentedSyncCart(
                SyncCartUseCase(
                    store: store.syncCarts,
                    output: InstrumentedSyncCartOutput(output, logger: logger, metrics: metrics),
                    now: Date.init
                ),
                logger: logger,
                metrics: metrics
            )
        },
        placeOrder: { output, logger in
            InstrumentedPlaceOrder(
                PlaceOrderUseCase(
                    carts: store.carts,
                    catalog: store.catalog,
                    orders: store.orders,
                    payments: payments,
                    charges: store.charges,
                    processedCommands: store.placeOrderCommands,
                    output: InstrumentedPlaceOrderOutput(output, logger: logger, metrics: metrics),
                    now: Date.init,
                    claimLease: lease
                ),
                logger: logger,
                metrics: metrics
            )
        }
    )
}
