/// Hides secrets in settings before they are logged, so the start-up line can show the effective configuration.
///
/// URLs keep everything an operator needs to spot a wrong host or database and lose only the
/// password: `amqp://user:***@host:5672/%2F`, `postgres://app:***@db/shop?password=***`.
/// Settings whose name marks them as secret lose their whole value.
public enum SecretMasking {
    /// What a hidden value is replaced with.
    public static let mask = "***"

    /// Fragments of a setting's name that make its whole value secret, compared case-insensitively
    /// (`CHECKOUT_STRIPE_API_KEY`, `…_PASSWORD`, `…_TOKEN`, `…_SECRET`, `OTEL_EXPORTER_OTLP_HEADERS`, whose
    /// headers carry a collector's API key). A `…_KEY_FILE` names a file and stays visible.
    public static let secretNameFragments = ["PASSWORD", "SECRET", "TOKEN", "API_KEY", "PRIVATE_KEY", "CREDENTIAL", "HEADERS"]

    /// Masks settings for logging: secret names lose their whole value, every other value its URL passwords.
    public static func masked(_ settings: [String: String]) -> [String: String] {
        settings.reduce(into: [:]) { result, setting in
            result[setting.key] = masked(setting.value, ofSetting: setting.key)
        }
    }

    /// The value to log for one setting.
    public static func masked(_ value: String, ofSetting name: String) -> String {
        isSecret(settingName: name) ? mask : maskingPasswords(in: value)
    }

    /// Whether a setting's whole value is secret, judged by its name.
    public static func isSecret(settingName name: String) -> Bool {
        let upper = name.uppercased()
        return secretNameFragments.contains { upper.contains($0) }
    }

    /// Replaces the password of every URL in `value` (one URL, or several separated by commas)
    /// and the value of every query parameter whose name contains `password`.
    public static func maskingPasswords(in value: String) -> String {
        value.split(separator: ",", omittingEmptySubsequences: false)
            .map { maskingPassword(inURL: String($0)) }
            .joined(separator: ",")
    }

    /// The user information runs to the last `@` even past a `/`, `?` or `#`: a password written with
    /// one unencoded ends no authority for this purpose, and would otherwise be logged whole. A `@` in a
    /// query can then hide more than the password, never less.
    private static func maskingPassword(inURL url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let firstEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":"), colon < firstEnd else {
            return String(url[..<schemeEnd.upperBound]) + rest[..<firstEnd] + maskingPasswordParameters(in: rest[firstEnd...])
        }
        let hostAndPath = rest[rest.index(after: at)...]
        let authorityEnd = hostAndPath.firstIndex { "/?#".contains($0) } ?? hostAndPath.endIndex
        return String(url[..<schemeEnd.upperBound]) + rest[...colon] + mask + "@" + hostAndPath[..<authorityEnd]
            + maskingPasswordParameters(in: hostAndPath[authorityEnd...])
    }

    private static func maskingPasswordParameters(in pathAndQuery: Substring) -> String {
        guard let questionMark = pathAndQuery.firstIndex(of: "?") else { return String(pathAndQuery) }
        let fragmentStart = pathAndQuery.firstIndex(of: "#") ?? pathAndQuery.endIndex
        guard questionMark < fragmentStart else { return String(pathAndQuery) }
        let parameters = pathAndQuery[pathAndQuery.index(after: questionMark)..<fragmentStart]
            .split(separator: "&", omittingEmptySubsequences: false)
            .map { parameter -> String in
                guard let equals = parameter.firstIndex(of: "="),
                    parameter[..<equals].lowercased().contains("password")
                else { return String(parameter) }
                return String(parameter[...equals]) + mask
            }
        return String(pathAndQuery[...questionMark]) + parameters.joined(separator: "&") + String(pathAndQuery[fragmentStart...])
    }
}
