/// One setting of the worker: its configuration key, the environment variable it is read from, its
/// default, and what it accepts, for its flag's help and the one-line error a bad value stops with.
struct Setting: Sendable {
    /// `checkout.amqp.url`: the key swift-configuration reads, from a flag or from `CHECKOUT_AMQP_URL`.
    let key: String
    let accepts: String
    /// What the setting does, for its flag's `--help`.
    let help: String
    /// The value used when none is given, read like a given one; nil when there is none, or when it
    /// depends on other settings (the help then says what it is).
    let defaultValue: String?
    /// Read from its environment variable only, never a flag, and masked wherever it is shown.
    let isSecret: Bool
    /// Whether a value given empty is refused instead of meaning the default: a default that suits only
    /// a machine of one's own (a database file in the container, the sandbox processor), where a template
    /// that could not fill the variable would have the worker quietly lose orders or give them away.
    let refusesEmpty: Bool

    init(
        _ key: String, accepts: String, help: String, default defaultValue: String? = nil, isSecret: Bool = false,
        refusesEmpty: Bool = false
    ) {
        self.key = key
        self.accepts = accepts
        self.help = help
        self.defaultValue = defaultValue
        self.isSecret = isSecret
        self.refusesEmpty = refusesEmpty
    }

    /// `CHECKOUT_AMQP_URL`: the name operators know it by.
    var environmentName: String {
        words.map { $0.joined(separator: "_") }.joined(separator: "_").uppercased()
    }

    /// `checkout.amqp.ca_file`: the key of its value in the start-up log line, in the logs' lowercase dotted style.
    var logKey: String {
        words.map { $0.joined(separator: "_") }.joined(separator: ".").lowercased()
    }

    /// The flag's help: what it does, its environment variable and its default.
    var flagHelp: String {
        "\(help) (\(environmentName)\(defaultValue.map { "; default \($0)" } ?? ""))."
    }

    func invalid(_ value: String, because reason: String? = nil) -> ConfigurationError {
        ConfigurationError(setting: self, value: isSecret ? "***" : value, reason: reason)
    }

    /// The key's components, each split into its camelCase words: `caFile` is `ca`, `File`.
    private var words: [[String]] {
        key.split(separator: ".").map { component in
            var words: [String] = []
            for character in component {
                if character.isUppercase, let last = words.last?.last, last.isLowercase {
                    words.append("")
                }
                if words.isEmpty { words.append("") }
                words[words.count - 1].append(character)
            }
            return words
        }
    }
}
