public import Logging

/// swift-log's `StreamLogHandler` on a ``LogSink`` (standard error's writer thread, as for
/// ``JSONLogHandler``, so a reader that stalls does not stop the thread that runs the commands), with
/// every control character of a message escaped, and every metadata value written as one token.
///
/// Log lines carry values a client chose (a `message_id`, a routing key); a newline in one of them
/// would otherwise start a forged line, and a space and `=` would add fields that look like the
/// worker's own (`command.id=x error.code=…`). ``JSONLogHandler`` escapes them by writing JSON.
public struct TextLogHandler: LogHandler {
    private var stream: StreamLogHandler
    /// The metadata as it was set; the stream holds it as tokens, which would be quoted again if a
    /// caller read the metadata, changed one value and set it back.
    private var stored: Logger.Metadata = [:]

    /// - Parameter sink: Where lines go; standard error unless a test collects them.
    public init(label: String, sink: LogSink = .standardError, metadataProvider: Logger.MetadataProvider?) {
        stream = StreamLogHandler(label: label, stream: SinkStream(sink: sink), metadataProvider: metadataProvider)
    }

    /// The stream `StreamLogHandler` writes a whole line to at a time.
    private struct SinkStream: TextOutputStream, Sendable {
        let sink: LogSink

        mutating func write(_ string: String) {
            sink.write(Array(string.utf8))
        }
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    public var metadata: Logger.Metadata {
        get { stored }
        set {
            stored = newValue
            stream.metadata = newValue.mapValues(Self.token)
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stored[key] }
        set {
            stored[key] = newValue
            stream[metadataKey: key] = newValue.map(Self.token)
        }
    }

    /// The metadata as the lines show it.
    var writtenMetadata: Logger.Metadata { stream.metadata }

    public func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: Self.escaped(event.message.description))
        event.metadata = Self.writtenMetadata(of: event)
        event.error = nil
        stream.log(event: event)
    }

    /// The call's metadata as tokens, its error among them as `error.type` and `error.message`: the
    /// stream would write an error's description as it is, and an error may quote what a client sent.
    static func writtenMetadata(of event: LogEvent) -> Logger.Metadata? {
        var metadata = event.metadata ?? [:]
        if let error = event.error {
            metadata.add(error: error)
        }
        return metadata.isEmpty ? nil : metadata.mapValues(token)
    }

    /// `text` with each control character (newlines, tabs, escape sequences, bidirectional overrides)
    /// written as `\u{…}`, cut past ``Swift/String/logValueLimit`` bytes.
    static func escaped(_ text: String) -> String {
        let text = text.clippedForLog
        guard text.unicodeScalars.contains(where: \.actsOnTerminal) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            append(scalar, to: &result)
        }
        return result
    }

    /// `text` as it is, unless it holds a space, `=`, `"`, a backslash or a control character: then in
    /// quotes, `"` and `\` escaped with a backslash and control characters as in ``escaped(_:)``.
    static func token(_ text: String) -> String {
        let text = text.clippedForLog
        guard text.unicodeScalars.contains(where: needsQuotes) else { return text }
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result += "\\" }
            append(scalar, to: &result)
        }
        return result + "\""
    }

    static func token(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(token(text))
        case .stringConvertible(let convertible): .string(token(convertible.description))
        case .array(let values): .array(values.map(token))
        case .dictionary(let values): .dictionary(values.mapValues(token))
        }
    }

    /// Appends `scalar`, a control character as `\u{…}`.
    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        if scalar.actsOnTerminal {
            result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }

    private static func needsQuotes(_ scalar: Unicode.Scalar) -> Bool {
        scalar.actsOnTerminal || scalar.properties.isWhitespace || scalar == "=" || scalar == "\"" || scalar == "\\"
    }
}
