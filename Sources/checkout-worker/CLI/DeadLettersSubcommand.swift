import ArgumentParser
import CheckoutMessaging
import Logging
import RabbitMQ

/// `checkout-worker dead-letters …`: what an operator does with `checkout.dead-letter`.
struct DeadLettersSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead-letters",
        abstract: "Look into the dead-letter queue, replay its messages once the cause is fixed, or purge them.",
        discussion: """
            An ID is a position in the queue as `list` shows it (1 is the head), or a message_id, which names \
            every dead letter with that id. Positions move when messages before them are removed, so prefer \
            message_ids; dead letters of input without a message_id have a position and the reason \
            missing-message-id. Positions hold only on a classic queue: on any other, or for a user who may not \
            configure the queue (the check of its type is a declare), they are refused. Write a \
            message_id that is a number as id:NUMBER.

            Every sub-command reads the queue from its head up to the messages it held when the command began, \
            and leaves what it does not remove in the queue (in its place on a classic queue, behind the others on \
            a quorum queue). Run one at a time: what one holds, another does not see.
            """,
        subcommands: [
            DeadLettersListSubcommand.self, DeadLettersShowSubcommand.self, DeadLettersReplaySubcommand.self,
            DeadLettersPurgeSubcommand.self,
        ]
    )

    /// Connects with the broker settings, runs `body` on the contract's dead-letter queue and disconnects;
    /// a broker error becomes one line naming the queue.
    static func withQueue<Result>(_ broker: BrokerSettings, _ body: (DeadLetterQueue) async throws -> Result) async throws -> Result {
        let (configured, names) = try readSettings(broker) { config throws(ConfigurationError) in
            (try BrokerSettings.read(config), try BrokerSettings.names(config))
        }
        var amqp = configured
        amqp.connectionName = "checkout-worker dead-letters (\(amqp.connectionName))"
        var logger = Logger(label: "checkout-worker")
        // What goes wrong is said once, as the command's error.
        logger.logLevel = .error
        let connection: AMQPConnection
        do {
            connection = try await AMQPConnection.connect(amqp, logger: logger)
        } catch {
            throw SubcommandFailure("cannot connect to the broker: \(error)")
        }
        // Only the names are read from it: the dead-letter queue and the commands exchange.
        let queue = DeadLetterQueue(connection: connection, configuration: names)
        do {
            let result = try await body(queue)
            await connection.close()
            return result
        } catch let error as AMQPError {
            await connection.close()
            throw SubcommandFailure("\(queue.name): \(error); what was not removed is still in the queue")
        } catch {
            await connection.close()
            throw error
        }
    }
}
