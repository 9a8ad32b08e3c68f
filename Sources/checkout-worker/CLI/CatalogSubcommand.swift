import ArgumentParser

/// `checkout-worker catalog …`: the product catalog.
struct CatalogSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Manage the product catalog.",
        subcommands: [CatalogImportSubcommand.self]
    )
}
