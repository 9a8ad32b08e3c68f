public import Foundation
import JSONWriting
public import Logging

/// A swift-log handler that writes one JSON object per line, for log collectors.
///
/// Each line has `timestamp` (ISO 8601, UTC, milliseconds), `level`, `label`, `source` and
/// `message`, then every metadata key as a top-level field: the handler's metadata, the metadata
/// provider's, the call's, and the call's error as `error.type` and `error.message`, later ones
/// winning, like swift-log's `StreamLogHandler`. Nested metadata becomes JSON objects and arrays.
/// A metadata key that would overwrite one of the fixed fields is written as `metadata.<key>`.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info

    private let label: String
    private let sink: LogSink
    private let now: @Sendable () -> Date

    private static let fixedFields: Set<String> = ["timestamp", "level", "label", "source", "message"]

    /// - Parameters:
    ///   - label: The logger's label, written as `label`.
    ///   - sink: Where lines go; standard error unless a test collects them.
    ///   - metadataProvider: Metadata added to every line, such as the current trace id.
    ///   - now: The clock for `timestamp`; injected so tests can pin it.
    public init(
        label: String,
        sink: LogSink = .standardError,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.label = label
        self.sink = sink
        self.metadataProvider = metadataProvider
        self.now = now
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Fields in the order given, timestamp and level first for a person reading the line.
    public func log(event: LogEvent) {
        var line = JSONWriter()
        line.beginObject()
        line.field("timestamp", timestamp: now())
        line.field("level", event.level.rawValue)
        line.field("label", label)
        line.field("source", event.source)
        line.field("message", event.message.description)
        for (key, value) in effectiveMetadata(of: event).sorted(by: { $0.key < $1.key }) {
            line.field(Self.fixedFields.contains(key) ? "metadata.\(key)" : key, value)
        }
        line.endObject()
        sink.write(line.bytes + [UInt8(ascii: "\n")])
    }

    private func effectiveMetadata(of event: LogEvent) -> Logger.Metadata {
        var effective = metadata
        if let provided = metadataProvider?.get() {
            effective.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata {
            effective.merge(explicit) { _, explicit in explicit }
        }
        if let error = event.error {
            effective.add(error: error)
        }
        return effective
    }
}
