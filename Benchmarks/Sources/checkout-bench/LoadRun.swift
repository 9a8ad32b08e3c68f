import RabbitMQ

/// Publishes numbered commands, flat out or at a fixed rate, and waits until each has been answered.
struct LoadRun: Sendable {
    let publisher: AMQPConnection
    let collector: AnswerCollector
    /// Commands per second; `nil` publishes flat out.
    var rate: Double?
    /// Publishes awaiting their confirms at most, so that flat out still means a bounded queue in this process.
    var publishesInFlight = 1_000
    /// How long the run may go without a single answer before it is given up.
    var stallTimeout: Duration = .seconds(60)

    func run(_ ledger: RunLedger, message: @Sendable (_ index: Int, _ messageID: String) -> AMQPMessage) async throws -> RunResult {
        collector.begin(ledger)
        do {
            try await publish(ledger, message: message)
            try await waitForAnswers(ledger.count)
        } catch {
            _ = collector.end()
            throw error
        }
        guard let finished = collector.end() else { throw BenchmarkError(message: "the run's ledger vanished") }
        guard finished.unexpected.isEmpty else {
            let answers = finished.unexpected.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", ")
            throw BenchmarkError(message: "expected every answer to be \(finished.expectedType ?? "a reply"), got \(answers)")
        }
        let nanoseconds = finished.lastAnsweredAt - finished.firstPublishedAt
        return RunResult(commands: finished.count, seconds: Double(nanoseconds) / 1e9, latencies: finished.latencies)
    }

    private func publish(_ ledger: RunLedger, message: (Int, String) -> AMQPMessage) async throws {
        let interval = rate.map { UInt64(1e9 / $0) }
        let start = MonotonicClock.nanoseconds()
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for index in 0..<ledger.count {
                if let interval {
                    let due = start + UInt64(index) * interval
                    let now = MonotonicClock.nanoseconds()
                    if due > now + 100_000 { try await Task.sleep(nanoseconds: due - now) }
                }
                if inFlight == publishesInFlight {
                    try await group.next()
                    inFlight -= 1
                }
                let command = message(index, ledger.messageID(index))
                collector.published(index, at: MonotonicClock.nanoseconds())
                group.addTask { [publisher] in try await publisher.publish(command) }
                inFlight += 1
            }
            try await group.waitForAll()
        }
    }

    private func waitForAnswers(_ count: Int) async throws {
        var answered = collector.answered
        var lastProgress = ContinuousClock.now
        while answered < count {
            try await Task.sleep(for: .milliseconds(2))
            let now = collector.answered
            if now > answered {
                answered = now
                lastProgress = .now
            } else if ContinuousClock.now - lastProgress > stallTimeout {
                throw BenchmarkError(
                    message: "\(answered) of \(count) commands answered, then nothing for \(stallTimeout); see the workers' logs")
            }
        }
    }
}
