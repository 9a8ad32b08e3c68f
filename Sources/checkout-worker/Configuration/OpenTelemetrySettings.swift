import Configuration
import Foundation

/// The standard OpenTelemetry variables that swift-otel reads, checked when traces are exported
/// (``TracingBackend``): swift-otel takes values it then traps on, at start-up (a gRPC protocol, which
/// this build leaves out; a propagator or sampler it does not implement, the spec's default
/// `tracecontext,baggage` among them), at the first export (a port past 65535) or at shutdown (a batch
/// of zero), in every replica alike, and a schedule delay of 0, which spins.
enum OpenTelemetrySettings {
    static let sdkDisabled = setting("otel.sdk.disabled", accepts: "true or false")
    static let endpoint = setting("otel.exporter.otlp.endpoint", accepts: endpointForm)
    static let tracesEndpoint = setting("otel.exporter.otlp.traces.endpoint", accepts: endpointForm)
    static let exportProtocol = setting("otel.exporter.otlp.protocol", accepts: protocolForm)
    static let tracesProtocol = setting("otel.exporter.otlp.traces.protocol", accepts: protocolForm)
    static let maximumExportBatchSize = setting("otel.bsp.maxExportBatchSize", accepts: "a whole number from 1")
    static let maximumQueueSize = setting("otel.bsp.maxQueueSize", accepts: "a whole number from 1")
    static let scheduleDelay = setting("otel.bsp.scheduleDelay", accepts: "a whole number of milliseconds from 1")
    static let propagators = setting(
        "otel.propagators", accepts: "tracecontext or none (swift-otel stops the process on baggage, b3, b3multi, jaeger, xray and ottrace)"
    )
    static let sampler = setting(
        "otel.traces.sampler",
        accepts: "always_on, always_off, traceidratio or their parentbased_ forms (swift-otel stops the process on jaeger_remote and xray)")
    static let tracesExporter = setting("otel.traces.exporter", accepts: "otlp or none (this build exports over OTLP/HTTP only)")

    private static let endpointForm = "an http:// or https:// URL with a host, and a port from 1 to 65535 if any"
    private static let protocolForm = "http/protobuf or http/json (this build exports over HTTP only)"

    /// Whether traces are exported: an endpoint is set and the SDK not disabled. Throws naming the first
    /// value swift-otel would trap on, when they are.
    static func read(_ config: ConfigReader) throws(ConfigurationError) -> Bool {
        guard config.text(sdkDisabled)?.lowercased() != "true" else { return false }
        let endpoints = [endpoint, tracesEndpoint].filter { config.text($0) != nil }
        guard !endpoints.isEmpty else { return false }
        for setting in endpoints {
            _ = try config.value(setting) { isEndpoint($0) ? $0 : nil }
        }
        for setting in [exportProtocol, tracesProtocol] where config.text(setting) != nil {
            _ = try config.value(setting) { ["http/protobuf", "http/json"].contains($0) ? $0 : nil }
        }
        // A delay of 0 makes the exporter's timer fire without pause, a core spent for nothing.
        for setting in [maximumExportBatchSize, maximumQueueSize, scheduleDelay] where config.text(setting) != nil {
            _ = try config.integer(setting, in: 1...Int(Int32.max))
        }
        let unsupported: [(Setting, Set<String>)] = [
            (propagators, ["baggage", "b3", "b3multi", "jaeger", "xray", "ottrace"]),
            (sampler, ["parentbased_jaeger_remote", "jaeger_remote", "xray"]),
        ]
        for (setting, traps) in unsupported where config.text(setting) != nil {
            _ = try config.value(setting) { text in
                text.split(separator: ",").contains { traps.contains($0.trimmingCharacters(in: .whitespaces).lowercased()) } ? nil : text
            }
        }
        if config.text(tracesExporter) != nil {
            _ = try config.value(tracesExporter) { ["otlp", "none"].contains($0.lowercased()) ? $0 : nil }
        }
        return true
    }

    private static func isEndpoint(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), ["http", "https"].contains(url.scheme?.lowercased()),
            url.host?.isEmpty == false
        else { return false }
        // A port too long for an Int is read as none: the exporter would use its default.
        return url.rangeOfPort == nil || url.port.map { (1...65535).contains($0) } == true
    }

    private static func setting(_ key: String, accepts: String) -> Setting {
        Setting(key, accepts: accepts, help: "read by swift-otel")
    }
}
