import ArgumentParser
import CheckoutDomain
import CheckoutPersistence
import Foundation
import Logging

/// `checkout-worker catalog import FILE`: upserts products from a JSON file, all or nothing.
struct CatalogImportSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Upsert products from a JSON array of {sku, name, unitPrice, currency, stock, active} (prices in minor units).",
        discussion: "Runs in one transaction: a bad row is reported with its index and nothing is written."
    )

    @Argument(help: "The JSON file to import.")
    var file: String

    @OptionGroup(title: "Database") var database: DatabaseSettings

    func run() async throws {
        let databaseURL = try readSettings(database, as: DatabaseSettings.read)
        let products = try CatalogFileReader.products(at: file)
        var logger = Logger(label: "checkout-worker")
        logger.logLevel = .warning
        let store = try await CheckoutStore.open(databaseURL, poolSize: 1, logger: logger)
        let report: CatalogImportReport
        do {
            report = try await store.importCatalog(products)
        } catch {
            await store.close()
            throw SubcommandFailure("nothing imported: \(error)")
        }
        await store.close()
        print("imported \(products.count) products from \(file): \(report)")
    }
}
