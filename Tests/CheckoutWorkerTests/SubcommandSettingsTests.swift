import ArgumentParser
import Foundation
import Testing

@testable import checkout_worker

/// Each sub-command lists, reads and checks only the settings it uses: a bad value of another one
/// (a Stripe setting for `send`) does not stop it.
@Suite struct SubcommandSettingsTests {
    static let broker = [
        "CHECKOUT_AMQP_URL", "CHECKOUT_AMQP_CA_FILE", "CHECKOUT_AMQP_CERT_FILE", "CHECKOUT_AMQP_KEY_FILE", "CHECKOUT_COMMANDS_EXCHANGE",
        "CHECKOUT_EVENTS_EXCHANGE", "CHECKOUT_DEAD_LETTER", "CHECKOUT_SYNC_CART_QUEUE", "CHECKOUT_PLACE_ORDER_QUEUE",
        "CHECKOUT_RETRY_QUEUE_PREFIX",
    ]
    static let database = ["CHECKOUT_DATABASE_URL"]
    static let payments = [
        "CHECKOUT_PAYMENT_PROCESSOR", "CHECKOUT_STRIPE_BASE_URL", "CHECKOUT_STRIPE_TIMEOUT", "CHECKOUT_STRIPE_SEARCH_LAG",
    ]
    static let worker = [
        "CHECKOUT_DATABASE_POOL_SIZE", "CHECKOUT_CATALOG_FILE", "CHECKOUT_PREFETCH", "CHECKOUT_CONCURRENCY", "CHECKOUT_QUEUE_TYPE",
        "CHECKOUT_RETRY_DELAYS", "CHECKOUT_HTTP_PORT", "CHECKOUT_LOG_LEVEL", "CHECKOUT_LOG_FORMAT", "CHECKOUT_SHUTDOWN_GRACE_PERIOD",
        "CHECKOUT_CLAIM_LEASE",
    ]
    static let all = broker + database + payments + worker

    @Test(arguments: [
        (["run"], all),
        (["send"], broker),
        (["dead-letters", "list"], broker),
        (["dead-letters", "show"], broker),
        (["dead-letters", "replay"], broker),
        (["dead-letters", "purge"], broker),
        (["catalog", "import"], database),
    ])
    func helpListsTheSettingsTheSubcommandUsesAndNoOther(command: [String], settings: [String]) {
        let help = Self.help(command)

        for setting in settings {
            #expect(help.contains("(\(setting))") || help.contains("(\(setting);"), "\(command) --help does not list \(setting)")
        }
        for setting in Self.all where !settings.contains(setting) {
            #expect(!help.contains(setting), "\(command) --help lists \(setting)")
        }
        if !settings.contains("CHECKOUT_STRIPE_BASE_URL") { #expect(!help.contains("CHECKOUT_STRIPE")) }
    }

    @Test func catalogImportRunsWhateverTheBrokerAndPaymentSettingsSay() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent("catalog.json")
        try Data(#"[{"sku":"SKU-A","name":"A","unitPrice":100,"currency":"EUR","stock":1,"active":true}]"#.utf8).write(to: catalog)

        let run = try await ExecutableRun.run(
            ExecutableRun.checkoutWorker, ["catalog", "import", catalog.path],
            environment: [
                "CHECKOUT_DATABASE_URL": "sqlite://\(directory.appendingPathComponent("shop.sqlite").path)",
                "CHECKOUT_AMQP_URL": "http://not-a-broker", "CHECKOUT_PAYMENT_PROCESSOR": "stripe", "CHECKOUT_STRIPE_TIMEOUT": "soon",
                "CHECKOUT_PREFETCH": "lots",
            ])

        #expect(await run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("imported 1 products"), "\(run.standardOutput)")
    }

    @Test func aSettingTheSubcommandUsesIsStillChecked() async throws {
        let run = try await ExecutableRun.run(
            ExecutableRun.checkoutWorker, ["catalog", "import", "/nonexistent/catalog.json"],
            environment: [
                "CHECKOUT_DATABASE_URL": "mysql://db"
            ])

        #expect(await run.status == 78)
        #expect(run.standardError.contains("CHECKOUT_DATABASE_URL: 'mysql://db' is not valid"), "\(run.standardError)")
    }

    /// What `checkout-worker COMMAND --help` prints, on lines long enough not to split a variable's name.
    private static func help(_ path: [String]) -> String {
        var command: any ParsableCommand.Type = CheckoutWorkerCLI.self
        for name in path {
            guard let subcommand = command.configuration.subcommands.first(where: { $0.configuration.commandName == name }) else {
                Issue.record("checkout-worker has no sub-command \(path)")
                return ""
            }
            command = subcommand
        }
        return CheckoutWorkerCLI.helpMessage(for: command, columns: 1000)
    }
}
