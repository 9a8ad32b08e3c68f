/// What one readiness check found, as written in the probe's body.
enum ReadinessState: String, Sendable {
    case up
    case down
    case timedOut = "timed-out"
}
