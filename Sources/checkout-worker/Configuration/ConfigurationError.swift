/// A setting with a value the worker cannot use; start-up stops with this one line.
struct ConfigurationError: Error, CustomStringConvertible {
    let setting: Setting
    /// The value as given, masked for secrets.
    let value: String
    /// What the parser of the value said is wrong with it, when it says more than that it is not valid.
    var reason: String?

    var description: String {
        let reason = reason.map { " (\($0))" } ?? ""
        return "\(setting.environmentName): '\(value.prefix(200))' is not valid\(reason); expected \(setting.accepts)"
    }
}
