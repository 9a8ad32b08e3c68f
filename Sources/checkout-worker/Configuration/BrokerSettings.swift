import ArgumentParser
import CheckoutMessaging
import CheckoutOperations
import Configuration
import Foundation
import RabbitMQ

/// The broker, and the names of the contract's exchanges and queues on it: what every sub-command
/// that talks to RabbitMQ needs.
struct BrokerSettings: SettingGroup {
    static let url = Setting(
        "checkout.amqp.url", accepts: "amqp:// or amqps:// URLs, separated by commas, all of one scheme (amqps:// with TLS files)",
        help: "Broker URLs, comma-separated for cluster nodes", default: "amqp://guest:guest@localhost:5672/%2F"
    )
    static let caFile = Setting(
        "checkout.amqp.caFile", accepts: "a readable PEM file, with amqps:// URLs only", help: "CA certificate for amqps://")
    static let certFile = Setting(
        "checkout.amqp.certFile", accepts: "a readable PEM file, given with CHECKOUT_AMQP_KEY_FILE, with amqps:// URLs only",
        help: "Client certificate for amqps://"
    )
    static let keyFile = Setting(
        "checkout.amqp.keyFile", accepts: "a readable PEM file, given with CHECKOUT_AMQP_CERT_FILE", help: "Client key for amqps://"
    )

    static let commandsExchange = name("checkout.commands.exchange", "Topic exchange clients publish commands to", "checkout.commands")
    static let eventsExchange = name("checkout.events.exchange", "Topic exchange the result events go to", "checkout.events")
    static let deadLetter = name("checkout.deadLetter", "Exchange and queue of dead letters", "checkout.dead-letter")
    static let syncCartQueue = name("checkout.syncCart.queue", "Queue of cart.sync commands", "checkout.sync-cart")
    static let placeOrderQueue = name("checkout.placeOrder.queue", "Queue of order.place commands", "checkout.place-order")
    static let retryQueuePrefix = name(
        "checkout.retry.queuePrefix", "Start of the retry queues' names, <prefix>.<command>.<delay>", "checkout.retry")

    /// AMQP caps a name at 255 bytes, and RabbitMQ keeps `amq.` for its own; a retry queue's name adds up to 30 to its prefix.
    private static func name(_ key: String, _ help: String, _ defaultValue: String) -> Setting {
        let maximum = key == "checkout.retry.queuePrefix" ? 225 : 255
        return Setting(
            key, accepts: "a name of 1 to \(maximum) bytes, not starting with amq., that no other exchange or queue of the worker has",
            help: help, default: defaultValue)
    }

    @Option(help: ArgumentHelp(BrokerSettings.url.flagHelp))
    var amqpURL: String?
    @Option(help: ArgumentHelp(BrokerSettings.caFile.flagHelp))
    var amqpCAFile: String?
    @Option(help: ArgumentHelp(BrokerSettings.certFile.flagHelp))
    var amqpCertFile: String?
    @Option(help: ArgumentHelp(BrokerSettings.keyFile.flagHelp))
    var amqpKeyFile: String?

    @Option(help: ArgumentHelp(BrokerSettings.commandsExchange.flagHelp))
    var commandsExchange: String?
    @Option(help: ArgumentHelp(BrokerSettings.eventsExchange.flagHelp))
    var eventsExchange: String?
    @Option(help: ArgumentHelp(BrokerSettings.deadLetter.flagHelp))
    var deadLetter: String?
    @Option(help: ArgumentHelp(BrokerSettings.syncCartQueue.flagHelp))
    var syncCartQueue: String?
    @Option(help: ArgumentHelp(BrokerSettings.placeOrderQueue.flagHelp))
    var placeOrderQueue: String?
    @Option(help: ArgumentHelp(BrokerSettings.retryQueuePrefix.flagHelp))
    var retryQueuePrefix: String?

    var given: [(setting: Setting, flag: String?)] {
        [
            (Self.url, amqpURL), (Self.caFile, amqpCAFile), (Self.certFile, amqpCertFile), (Self.keyFile, amqpKeyFile),
            (Self.commandsExchange, commandsExchange), (Self.eventsExchange, eventsExchange), (Self.deadLetter, deadLetter),
            (Self.syncCartQueue, syncCartQueue), (Self.placeOrderQueue, placeOrderQueue), (Self.retryQueuePrefix, retryQueuePrefix),
        ]
    }

    /// The contract's names as configured, each checked, and no two the same: `concurrency` is the
    /// only part of the configuration they do not set.
    static func names(_ config: ConfigReader, concurrency: Int = 1) throws(ConfigurationError) -> MessagingConfiguration {
        var messaging = MessagingConfiguration(concurrency: concurrency)
        messaging.commandsExchange = try config.value(commandsExchange) { isName($0, maximum: 255) }
        messaging.eventsExchange = try config.value(eventsExchange) { isName($0, maximum: 255) }
        messaging.deadLetter = try config.value(deadLetter) { isName($0, maximum: 255) }
        messaging.syncCartQueue = try config.value(syncCartQueue) { isName($0, maximum: 255) }
        messaging.placeOrderQueue = try config.value(placeOrderQueue) { isName($0, maximum: 255) }
        messaging.retryQueuePrefix = try config.value(retryQueuePrefix) { isName($0, maximum: 225) }
        // The dead letters' exchange and queue share one name; a retry queue starts with its prefix and a dot.
        let named: [(Setting, String)] = [
            (commandsExchange, messaging.commandsExchange), (eventsExchange, messaging.eventsExchange), (deadLetter, messaging.deadLetter),
            (syncCartQueue, messaging.syncCartQueue), (placeOrderQueue, messaging.placeOrderQueue),
        ]
        for (index, (setting, name)) in named.enumerated() {
            if name.hasPrefix("\(messaging.retryQueuePrefix).") {
                // A name left at its default is not the mistake: the prefix given is.
                throw setting.defaultValue == name ? retryQueuePrefix.invalid(messaging.retryQueuePrefix) : setting.invalid(name)
            }
            // Of two settings with one name, the one given rather than left at its default is the mistake.
            if let (earlier, _) = named[..<index].first(where: { $0.1 == name }) {
                throw (earlier.defaultValue == name ? setting : earlier).invalid(name)
            }
        }
        return messaging
    }

    private static func isName(_ text: String, maximum: Int) -> String? {
        (1...maximum).contains(text.utf8.count) && !text.hasPrefix("amq.") ? text : nil
    }

    /// The connection these settings describe, named after this process for the broker's management UI.
    static func read(_ config: ConfigReader) throws(ConfigurationError) -> AMQPConfiguration {
        let tls = AMQPTLSConfiguration(
            caFile: try config.readableFile(caFile),
            certificateFile: try config.readableFile(certFile),
            keyFile: try config.readableFile(keyFile)
        )
        if (tls.certificateFile == nil) != (tls.keyFile == nil) {
            throw certFile.invalid(tls.certificateFile ?? "")
        }
        let urls = try config.value(url) { $0 }
        var amqp: AMQPConfiguration
        do {
            amqp = try AMQPConfiguration(urls: urls, tls: tls)
        } catch {
            // The parser's message hides a URL with credentials.
            throw url.invalid(SecretMasking.maskingPasswords(in: urls), because: error.message)
        }
        // A node reached in plain text beside amqps:// ones would be believed encrypted; TLS files with no
        // amqps:// node would be ignored.
        let encrypted = amqp.endpoints.filter(\.usesTLS).count
        if encrypted > 0, encrypted < amqp.endpoints.count { throw url.invalid(SecretMasking.maskingPasswords(in: urls)) }
        if encrypted == 0, let file = tls.caFile { throw caFile.invalid(file) }
        if encrypted == 0, let file = tls.certificateFile { throw certFile.invalid(file) }
        amqp.connectionName = "checkout-worker@\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
        return amqp
    }
}
