import ArgumentParser
import CheckoutDomain
import CheckoutMessaging
import Foundation
import Logging
import RabbitMQ

/// `checkout-worker send`: publishes one command as a client would, and optionally waits for its event.
struct SendSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Publish a command to the commands exchange, with a fresh message_id unless one is given.",
        discussion: """
            Example:
              checkout-worker send sync-cart --wait --json '{"cartId":"cart-42","customerId":"cust-7","baseVersion":0,"currency":"EUR","items":[{"sku":"SKU-RED-M","quantity":2}]}'
              checkout-worker send place-order --wait --timeout 1m --json @order.json
              echo '{…}' | checkout-worker send sync-cart --json -
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case syncCart = "sync-cart"
        case placeOrder = "place-order"

        var command: CommandKind {
            switch self {
            case .syncCart: .syncCart
            case .placeOrder: .placeOrder
            }
        }
    }

    @Argument(help: "sync-cart or place-order.")
    var kind: Kind

    @Option(help: "The command's JSON body; @PATH reads it from a file, - from standard input.")
    var json: String

    @Option(help: "The command's message_id, 1–200 printable ASCII characters (default: a new UUID).")
    var messageID: String?

    @Flag(help: "Wait for the result event (through a reply_to queue) and print it.")
    var wait = false

    @Option(
        help: "How long to wait for the result with --wait, a duration such as 30s or 2m (default 30s).", transform: SendSubcommand.duration
    )
    var timeout: Duration = .seconds(30)

    @OptionGroup(title: "Broker") var broker: BrokerSettings

    /// One the worker would refuse is refused here, before anything is published.
    func validate() throws {
        guard let messageID else { return }
        do {
            _ = try CommandID(messageID)
        } catch {
            throw ArgumentParser.ValidationError("--message-id \(error.reason)")
        }
    }

    func run() async throws {
        let (amqp, names) = try readSettings(broker) { config throws(ConfigurationError) in
            (try BrokerSettings.read(config), try BrokerSettings.names(config))
        }
        let body = try body()
        // A larger body is dead-lettered unread; a much larger one the broker refuses only after it has
        // all been sent, and the publish then waits out its confirm timeout.
        guard body.count <= names.maximumBodyBytes else {
            throw SubcommandFailure("--json: the body has \(body.count) bytes; the worker takes at most \(names.maximumBodyBytes)")
        }
        var logger = Logger(label: "checkout-worker")
        logger.logLevel = .warning
        let connection = try await AMQPConnection.connect(amqp, logger: logger)
        do {
            try await send(body, to: names.commandsExchange, over: connection)
            await connection.close()
        } catch {
            await connection.close()
            throw error
        }
    }

    private func send(_ body: [UInt8], to exchange: String, over connection: AMQPConnection) async throws {
        let messageID = messageID ?? UUID().uuidString.lowercased()
        var properties = AMQPProperties(
            contentType: "application/json", deliveryMode: .persistent, messageID: messageID, timestamp: AMQPTimestamp(Date()))

        var replies: AMQPConsumer?
        if wait {
            let queue = "checkout-worker.send.\(messageID)"
            try await connection.declare(AMQPTopology(queues: [.init(name: queue, durable: false, exclusive: true, autoDelete: true)]))
            replies = try await connection.consume(queue: queue, prefetch: 1)
            properties.replyTo = queue
        }
        try await connection.publish(
            AMQPMessage(
                exchange: exchange,
                routingKey: kind.command.routingKey,
                properties: properties,
                body: body,
                mandatory: true
            ))
        print("sent \(kind.command.routingKey) with message_id \(messageID)")
        guard let replies else { return }

        let event = try await withThrowingTaskGroup(of: AMQPDelivery?.self) { group in
            group.addTask {
                for await delivery in replies {
                    delivery.ack()
                    return delivery
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let event else {
            throw SubcommandFailure("no result within \(timeout.settingText); is a worker running? (the command stays queued)")
        }
        let type = TerminalText.escaped(event.properties.type ?? "event")
        print("\(type) (message_id \(TerminalText.escaped(event.properties.messageID ?? "-"))):")
        print(TerminalText.escapedLines(Self.pretty(event.body)))
    }

    /// `--json` as given, or the file an `@` names, or standard input for `-`.
    private func body() throws -> [UInt8] {
        if json == "-" {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        guard json.hasPrefix("@") else { return Array(json.utf8) }
        let path = String(json.dropFirst())
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SubcommandFailure("--json @\(path): no such file, or it cannot be read")
        }
        return Array(data)
    }

    /// A duration written as every setting takes it: `30s`, `1500ms`, `2m`.
    private static func duration(_ text: String) throws -> Duration {
        guard let duration = Duration(settingText: text) else {
            throw ValidationError("'\(text)' is not a duration such as 30s or 2m")
        }
        return duration
    }

    private static func pretty(_ body: [UInt8]) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return String(decoding: body, as: UTF8.self) }
        return String(decoding: data, as: UTF8.self)
    }
}
