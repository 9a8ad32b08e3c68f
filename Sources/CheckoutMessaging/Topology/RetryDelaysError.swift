/// A retry delay that is missing, or not a positive whole number with a unit of `ms`, `s`, `m` or `h`, up to a day.
public struct RetryDelaysError: Error, CustomStringConvertible {
    public let token: String

    public var description: String {
        guard !token.isEmpty else {
            return
                "a retry delay is missing: give one or more, comma-separated (e.g. 1s,5s,30s,2m,10m); a command another worker has claimed waits in the first retry queue"
        }
        return
            "'\(token.prefix(40))' is not a delay: expected a positive whole number with ms, s, m or h, up to 24h (e.g. 1s,5s,30s,2m,10m)"
    }
}
