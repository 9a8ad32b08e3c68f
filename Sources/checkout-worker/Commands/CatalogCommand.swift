import ArgumentParser

/// `checkout-worker catalog …`: the product catalog.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Manage the product catalog.",
        subcommands: [CatalogImportCommand.self]
    )
}
