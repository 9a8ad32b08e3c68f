/// How log lines are written: `json` for log collectors, `text` for a person at a terminal.
public enum LogFormat: String, Sendable, CaseIterable {
    /// One JSON object per line, metadata as top-level fields (``JSONLogHandler``).
    case json
    /// ``TextLogHandler``: swift-log's `StreamLogHandler` on standard error's writer, control characters escaped.
    case text
}
