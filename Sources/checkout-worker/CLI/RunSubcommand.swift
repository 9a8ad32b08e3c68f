import ArgumentParser
import CheckoutOperations
import Foundation
import Logging

/// `checkout-worker run`: the worker itself.
struct RunSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Migrate the database, declare the topology and handle commands until SIGTERM or SIGINT (the default).",
        discussion: """
            On SIGTERM or SIGINT it stops taking commands, finishes those in flight within the grace period, and exits 0; \
            if something it waits for still does not answer 5 s later, it exits 1 saying so.
            """
    )

    @OptionGroup(title: "Broker") var broker: BrokerSettings
    @OptionGroup(title: "Database") var database: DatabaseSettings
    @OptionGroup(title: "Payments") var payments: PaymentSettings
    @OptionGroup(title: "Worker") var worker: WorkerSettings

    func run() async throws {
        // A write to a pipe whose reader is gone (a log collector that died) must fail with EPIPE, which
        // costs the lines, not raise SIGPIPE, which kills the process. SwiftNIO ignores SIGPIPE too, but
        // only once it opens its first socket, after the first lines are written.
        signal(SIGPIPE, SIG_IGN)
        let configuration = try readSettings(broker, database, payments, worker, as: WorkerConfiguration.init(reading:))
        LoggingBootstrap.bootstrap(
            format: configuration.logFormat, level: configuration.logLevel, metadataProvider: TracingBackend.logMetadata)
        // Blocks a thread of the task pool, at exit only, when nothing else is left to run on it.
        defer { LogSink.flushStandardError(within: .seconds(2)) }
        let logger = Logger(label: "checkout-worker")
        logger.info("starting", metadata: configuration.loggable)
        let worker: Worker
        do {
            let tracing = try TracingBackend.make(exporting: configuration.exportsTraces, logger: logger)
            if tracing.exporter != nil { logger.info("exporting traces over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT)") }
            worker = try buildWorker(configuration: configuration, logger: logger, metrics: MetricsBootstrap.bootstrap(), tracing: tracing)
        } catch {
            logger.critical("could not start", error: error, metadata: Self.detail(of: error))
            throw ExitCode.failure
        }
        do {
            try await worker.run()
        } catch {
            logger.critical("stopped on an error", error: error, metadata: Self.detail(of: error))
            throw ExitCode.failure
        }
        logger.info("stopped")
    }

    /// What the error's client said, when its text leaves it out (a SQLite or PostgreSQL error under a
    /// step's name): the one line an operator reads to learn why the worker stopped.
    private static func detail(of error: any Error) -> Logger.Metadata {
        let detail = String(reflecting: error)
        return detail == "\(error)" ? [:] : ["error.detail": "\(detail)"]
    }
}
