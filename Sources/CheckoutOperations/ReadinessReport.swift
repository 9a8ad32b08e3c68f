import JSONWriting
import Logging

/// The states of all readiness checks at one moment, and the probe's JSON body for them.
struct ReadinessReport: Sendable {
    /// Each check's name and state, in the order the checks were given.
    let checks: [(name: String, state: ReadinessState)]

    var isReady: Bool { checks.allSatisfy { $0.state == .up } }

    /// `{"status":"ready","checks":{"broker":"up","database":"up","consumers":"up"}}`, or `"not-ready"`.
    var json: String {
        var body = JSONWriter()
        body.beginObject()
        body.field("status", isReady ? "ready" : "not-ready")
        body.key("checks")
        body.beginObject()
        for check in checks {
            body.field(check.name, check.state.rawValue)
        }
        body.endObject()
        body.endObject()
        return String(decoding: body.bytes, as: UTF8.self)
    }

    /// Runs every check at once, each bounded by `timeout`, and logs a warning for each one not up.
    static func evaluate(_ checks: [ReadinessCheck], timeout: Duration, logger: Logger) async -> ReadinessReport {
        let states = await withTaskGroup(of: (Int, ReadinessState).self) { group in
            for (index, check) in checks.enumerated() {
                group.addTask { (index, await state(of: check, within: timeout, logger: logger)) }
            }
            return await group.reduce(into: [Int: ReadinessState]()) { $0[$1.0] = $1.1 }
        }
        return ReadinessReport(checks: checks.enumerated().map { index, check in (check.name, states[index] ?? .down) })
    }

    private static func state(of check: ReadinessCheck, within timeout: Duration, logger: Logger) async -> ReadinessState {
        await withCheckedContinuation { continuation in
            let outcome = FirstOutcome(continuation)
            outcome.race(
                Task {
                    let state: ReadinessState
                    var failure: (any Error)?
                    do {
                        state = try await check.probe() ? .up : .down
                    } catch {
                        state = .down
                        failure = error
                    }
                    if outcome.resolve(state), state != .up {
                        logger.warning("readiness check is down", error: failure, metadata: ["readiness.check": "\(check.name)"])
                    }
                })
            outcome.race(
                Task {
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    if outcome.resolve(.timedOut) {
                        logger.warning(
                            "readiness check timed out",
                            metadata: [
                                "readiness.check": "\(check.name)",
                                "readiness.timeout_ms": .stringConvertible(Int(timeout / .milliseconds(1))),
                            ])
                    }
                })
        }
    }
}
