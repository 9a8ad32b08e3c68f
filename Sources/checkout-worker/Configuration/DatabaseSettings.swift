import ArgumentParser
import CheckoutOperations
import Configuration

/// The database: what `run` and `catalog import` need.
struct DatabaseSettings: SettingGroup {
    static let url = Setting(
        "checkout.database.url", accepts: "sqlite://PATH, postgres://user:pass@host:port/db or memory://",
        help: "sqlite://PATH, postgres://user:pass@host:port/db or memory://", default: "sqlite://checkout.sqlite", refusesEmpty: true
    )

    @Option(help: ArgumentHelp(DatabaseSettings.url.flagHelp))
    var databaseURL: String?

    var given: [(setting: Setting, flag: String?)] {
        [(Self.url, databaseURL)]
    }

    /// The database URL, checked for a scheme the store opens.
    static func read(_ config: ConfigReader) throws(ConfigurationError) -> String {
        let databaseURL = try config.value(url) { $0 }
        let scheme = databaseURL.lowercased()
        guard ["sqlite://", "postgres://", "postgresql://", "memory://"].contains(where: { scheme.hasPrefix($0) }),
            databaseURL.count > "sqlite://".count || scheme == "memory://"
        else {
            throw url.invalid(SecretMasking.maskingPasswords(in: databaseURL))
        }
        return databaseURL
    }
}
