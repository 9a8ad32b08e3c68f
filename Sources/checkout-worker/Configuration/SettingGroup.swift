import ArgumentParser
import Configuration
import Foundation

/// Settings of one kind, as flags: a sub-command declares with `@OptionGroup` the groups it uses, so
/// its `--help` lists those and a bad value of any other setting does not stop it.
protocol SettingGroup: ParsableArguments {
    /// Each setting of the group with its flag's value: nil when the flag is not given, and for a secret,
    /// which has no flag.
    var given: [(setting: Setting, flag: String?)] { get }
}

extension ConfigReader {
    /// The flags of `groups` first, then `environment`.
    init(flags groups: [any SettingGroup], environment: [String: String]) {
        let given = groups.flatMap(\.given)
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for case let (setting, flag?) in given {
            values[AbsoluteConfigKey(ConfigKey(setting.key))] = ConfigValue(.string(flag), isSecret: setting.isSecret)
        }
        self.init(providers: [
            InMemoryProvider(name: "flags", values: values),
            EnvironmentVariablesProvider(
                environmentVariables: environment,
                secretsSpecifier: .specific(Set(given.filter(\.setting.isSecret).map(\.setting.environmentName)))
            ),
        ])
    }
}

/// What `read` makes of the settings of `groups`, from their flags and the process environment; a bad
/// setting ends the process with one line naming it (exit code 78, EX_CONFIG).
func readSettings<Value>(_ groups: any SettingGroup..., as read: (ConfigReader) throws(ConfigurationError) -> Value) throws -> Value {
    do {
        return try read(ConfigReader(flags: groups, environment: ProcessInfo.processInfo.environment))
    } catch {
        FileHandle.standardError.write(Data("checkout-worker: \(error)\n".utf8))
        throw ExitCode(78)
    }
}
