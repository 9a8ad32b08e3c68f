import Configuration
import Foundation

extension ConfigReader {
    /// The value given for `setting`, or its default; an empty value counts as none.
    func text(_ setting: Setting) -> String? {
        given(setting).flatMap { $0.isEmpty ? nil : $0 } ?? setting.defaultValue
    }

    /// `setting` as `parse` reads it, without surrounding spaces and newlines (a value from a file, such
    /// as a mounted secret, ends with one); no value, one `parse` refuses, or one given empty to a
    /// setting that ``Setting/refusesEmpty``, throws naming the setting.
    func value<Value>(_ setting: Setting, _ parse: (String) -> Value?) throws(ConfigurationError) -> Value {
        if setting.refusesEmpty, let given = given(setting), given.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let meaning = setting.defaultValue.map { ", which would mean the default, \($0)" } ?? ""
            throw setting.invalid("", because: "set but empty\(meaning); unset it for that")
        }
        guard let text = text(setting) else { throw setting.invalid("") }
        guard let value = parse(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw setting.invalid(text) }
        return value
    }

    private func given(_ setting: Setting) -> String? {
        string(forKey: ConfigKey(setting.key), isSecret: setting.isSecret)
    }

    func integer(_ setting: Setting, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        try value(setting) { Int($0).flatMap { range.contains($0) ? $0 : nil } }
    }

    /// A duration written as every duration setting takes it: `500ms`, `30s`, `2m`, `1h`.
    func duration(_ setting: Setting) throws(ConfigurationError) -> Duration {
        try value(setting) { Duration(settingText: $0) }
    }

    /// The path of a readable file, or nil when none is given.
    func readableFile(_ setting: Setting) throws(ConfigurationError) -> String? {
        guard text(setting) != nil else { return nil }
        return try value(setting) { FileManager.default.isReadableFile(atPath: $0) ? $0 : nil }
    }
}
