import CheckoutDomain
import Logging
import Metrics

/// What both use-case decorators do around `execute`: time it, and log and count what it throws.
struct CommandInstrumentation: Sendable {
    let logger: Logger
    let metrics: CommandMetrics

    func run(commandID: String, cartID: String, _ execute: () async throws -> Void) async throws {
        let start = ContinuousClock.now
        do {
            try await execute()
            metrics.handled.record(duration: ContinuousClock.now - start)
        } catch let error as RetryableError {
            metrics.retryable.record(duration: ContinuousClock.now - start)
            metrics.retried(error.code).increment()
            // A wait is looked at again every retry delay, by every worker it reaches, for as long as it lasts:
            // a warning each time would bury the failures.
            logger(commandID: commandID, cartID: cartID).log(
                level: error.code.isWait ? .debug : .warning, "\(metrics.command) will be retried", error: error,
                metadata: ["error.code": "\(error.code)"])
            throw error
        } catch {
            metrics.failed.record(duration: ContinuousClock.now - start)
            logger(commandID: commandID, cartID: cartID).error("\(metrics.command) failed", error: error)
            throw error
        }
    }

    /// Logs and counts a command given up after its last retry; what giving up throws is logged as an error.
    func abandon(commandID: String, cartID: String, after cause: RetryableError, _ abandon: () async throws -> Void) async throws {
        let logger = logger(commandID: commandID, cartID: cartID)
        metrics.abandoned(cause.code).increment()
        logger.error("\(metrics.command) abandoned after its last retry", error: cause, metadata: ["error.code": "\(cause.code)"])
        do {
            try await abandon()
        } catch {
            logger.error("\(metrics.command) could not be abandoned", error: error)
            throw error
        }
    }

    /// The logger naming the command, made only for a line to write: a handled command logs nothing here.
    private func logger(commandID: String, cartID: String) -> Logger {
        var logger = logger
        logger[metadataKey: "command.id"] = "\(commandID)"
        logger[metadataKey: "cart.id"] = "\(cartID)"
        return logger
    }
}
