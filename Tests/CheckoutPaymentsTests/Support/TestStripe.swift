import AsyncHTTPClient
import CheckoutPayments
import CheckoutPaymentsTesting
import Foundation
import Logging

/// Starts what a Stripe test needs (the fake server, an HTTP client, the processor) and always shuts it down.
enum TestStripe {
    static let logger: Logger = {
        var logger = Logger(label: "payments-tests")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    /// Runs `body` with a fake Stripe started with `options`, shut down afterwards.
    static func withServer<T>(
        _ options: FakeStripeOptions = FakeStripeOptions(), _ body: (FakeStripeServer) async throws -> T
    ) async throws -> T {
        let server = try await FakeStripeServer.start(options: options)
        do {
            let result = try await body(server)
            try await server.shutdown()
            return result
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    /// Runs `body` with a processor for the Stripe API at `baseURL`, its HTTP client shut down afterwards.
    static func withProcessor<T>(
        baseURL: String,
        apiKey: String,
        readTimeout: Duration = .seconds(10),
        logger: Logger = logger,
        _ body: (StripePaymentProcessor) async throws -> T
    ) async throws -> T {
        let configuration = try StripeConfiguration(apiKey: apiKey, baseURL: baseURL, connectTimeout: .seconds(2), readTimeout: readTimeout)
        // As many charges at once as a worker of the default concurrency makes.
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: configuration.httpClientConfiguration(concurrentCharges: 100))
        do {
            let result = try await body(StripePaymentProcessor(configuration: configuration, httpClient: client, logger: logger))
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Runs `body` with a processor talking to a fake Stripe started with `options`.
    static func withFakeStripe<T>(
        _ options: FakeStripeOptions = FakeStripeOptions(),
        readTimeout: Duration = .seconds(10),
        _ body: (StripePaymentProcessor, FakeStripeServer) async throws -> T
    ) async throws -> T {
        try await withServer(options) { server in
            try await withProcessor(baseURL: server.baseURL, apiKey: server.apiKey, readTimeout: readTimeout) { processor in
                try await body(processor, server)
            }
        }
    }
}
