import Configuration

/// One setting of the worker: its configuration key, the environment variable it is read from, and
/// what it accepts, for the one-line error a bad value stops start-up with.
struct Setting: Sendable {
    /// `checkout.amqp.url`: the key swift-configuration reads, from a flag or from `CHECKOUT_AMQP_URL`.
    let key: String
    let accepts: String
    let isSecret: Bool

    init(_ key: String, accepts: String, isSecret: Bool = false) {
        self.key = key
        self.accepts = accepts
        self.isSecret = isSecret
    }

    /// `CHECKOUT_AMQP_URL`: the name operators know it by.
    var environmentName: String {
        key.split(separator: ".").map { component in
            var name = ""
            for character in component {
                if character.isUppercase, let last = name.last, last.isLowercase { name.append("_") }
                name.append(character)
            }
            return name.uppercased()
        }.joined(separator: "_")
    }

    func invalid(_ value: String) -> ConfigurationError {
        ConfigurationError(setting: self, value: isSecret ? "***" : value)
    }
}
