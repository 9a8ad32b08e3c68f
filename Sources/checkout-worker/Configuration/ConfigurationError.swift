/// A setting with a value the worker cannot use; start-up stops with this one line.
struct ConfigurationError: Error, CustomStringConvertible {
    let setting: Setting
    /// The value as given, masked for secrets.
    let value: String

    var description: String {
        "\(setting.environmentName): '\(value.prefix(200))' is not valid; expected \(setting.accepts)"
    }
}
