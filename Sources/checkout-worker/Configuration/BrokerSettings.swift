import ArgumentParser
import CheckoutOperations
import Configuration
import Foundation
import RabbitMQ

/// The broker: what every sub-command that talks to RabbitMQ needs.
struct BrokerSettings: SettingGroup {
    static let url = Setting(
        "checkout.amqp.url", accepts: "amqp:// or amqps:// URLs, separated by commas",
        help: "Broker URLs, comma-separated for cluster nodes", default: "amqp://guest:guest@localhost:5672/%2F"
    )
    static let caFile = Setting("checkout.amqp.caFile", accepts: "a readable PEM file", help: "CA certificate for amqps://")
    static let certFile = Setting(
        "checkout.amqp.certFile", accepts: "a readable PEM file, given with CHECKOUT_AMQP_KEY_FILE", help: "Client certificate for amqps://"
    )
    static let keyFile = Setting(
        "checkout.amqp.keyFile", accepts: "a readable PEM file, given with CHECKOUT_AMQP_CERT_FILE", help: "Client key for amqps://"
    )

    @Option(help: ArgumentHelp(BrokerSettings.url.flagHelp))
    var amqpURL: String?
    @Option(help: ArgumentHelp(BrokerSettings.caFile.flagHelp))
    var amqpCAFile: String?
    @Option(help: ArgumentHelp(BrokerSettings.certFile.flagHelp))
    var amqpCertFile: String?
    @Option(help: ArgumentHelp(BrokerSettings.keyFile.flagHelp))
    var amqpKeyFile: String?

    var given: [(setting: Setting, flag: String?)] {
        [(Self.url, amqpURL), (Self.caFile, amqpCAFile), (Self.certFile, amqpCertFile), (Self.keyFile, amqpKeyFile)]
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
            throw url.invalid(SecretMasking.maskingPasswords(in: urls))
        }
        amqp.connectionName = "checkout-worker@\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
        return amqp
    }
}
