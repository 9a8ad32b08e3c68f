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
        var fields = metadataFields(of: event)
        // Swift's sort is stable: among equal keys the later source's stays last, and is the one written.
        fields.sort { $0.key < $1.key }
        var line = JSONWriter(capacity: 1024)
        line.beginObject()
        line.field("timestamp", timestamp: now())
        line.field("level", event.level.rawValue)
        line.field("label", label)
        line.field("source", event.source)
        line.field("message", event.message.description.clippedForLog)
        for index in fields.indices where index == fields.count - 1 || fields[index + 1].key != fields[index].key {
            let (key, value) = fields[index]
            line.field(Self.fixedFields.contains(key) ? "metadata.\(key)" : key, value)
        }
        line.endObject()
        line.endLine()
        sink.write(line.bytes)
    }

    /// The line's metadata from each source in turn: the handler's, the provider's, the call's, its
    /// error's. Gathered in one array, not merged into a dictionary: a worker writes a line per
    /// command, and merging its sources cost more than writing the line.
    private func metadataFields(of event: LogEvent) -> [(key: String, value: Logger.MetadataValue)] {
        var fields: [(key: String, value: Logger.MetadataValue)] = []
        fields.reserveCapacity(metadata.count + (event.metadata?.count ?? 0) + 4)
        fields.append(contentsOf: metadata)
        if let provided = metadataProvider?.get() { fields.append(contentsOf: provided) }
        if let explicit = event.metadata { fields.append(contentsOf: explicit) }
        if let error = event.error {
            var described: Logger.Metadata = [:]
            described.add(error: error)
            fields.append(contentsOf: described)
        }
        return fields
    }
}
