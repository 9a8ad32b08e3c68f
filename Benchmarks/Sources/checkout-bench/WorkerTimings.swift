/// Where the workers' time per command went, from their `/metrics` timers: from delivery to ack, and
/// of that, waiting for the broker to confirm the command's event. Told apart, a slow answer shows
/// whether the worker (its store, its CPU) or the broker's confirm held it.
struct WorkerTimings: Sendable {
    static let processingMetric = "checkout_command_processing_seconds"
    static let confirmMetric = "checkout_publish_confirm_seconds"

    var processingSeconds = 0.0
    var commands = 0.0
    var confirmSeconds = 0.0
    var confirms = 0.0

    /// The timers' sums and counts in one worker's `/metrics` text; zero for a timer it has not recorded.
    init(metrics text: String) {
        processingSeconds = PrometheusText.value(of: Self.processingMetric + "_sum", in: text) ?? 0
        commands = PrometheusText.value(of: Self.processingMetric + "_count", in: text) ?? 0
        confirmSeconds = PrometheusText.value(of: Self.confirmMetric + "_sum", in: text) ?? 0
        confirms = PrometheusText.value(of: Self.confirmMetric + "_count", in: text) ?? 0
    }

    init() {}

    /// From delivery to ack, the mean over the commands timed, ms; nil when none was.
    var processingMilliseconds: Double? { commands > 0 ? processingSeconds / commands * 1000 : nil }

    /// From an event's publish to its confirm, the mean over the events timed, ms; nil when none was.
    var confirmMilliseconds: Double? { confirms > 0 ? confirmSeconds / confirms * 1000 : nil }

    static func + (left: WorkerTimings, right: WorkerTimings) -> WorkerTimings {
        var sum = left
        sum.processingSeconds += right.processingSeconds
        sum.commands += right.commands
        sum.confirmSeconds += right.confirmSeconds
        sum.confirms += right.confirms
        return sum
    }

    /// What was recorded since `earlier`, a reading of the same workers.
    func since(_ earlier: WorkerTimings) -> WorkerTimings {
        var difference = self
        difference.processingSeconds -= earlier.processingSeconds
        difference.commands -= earlier.commands
        difference.confirmSeconds -= earlier.confirmSeconds
        difference.confirms -= earlier.confirms
        return difference
    }
}
