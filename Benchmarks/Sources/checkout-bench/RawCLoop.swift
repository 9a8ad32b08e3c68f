import CRawAMQPLoop
import Foundation
import RabbitMQ

/// The plain-C consume → publish-with-confirm → ack loop (`Sources/CRawAMQPLoop`), the ceiling of both
/// benchmarks.
enum RawCLoop {
    struct Outcome {
        /// Messages consumed, answered and acked.
        var processed: UInt64
        /// From the first delivery to the last ack.
        var seconds: Double
    }

    /// Runs the loop until it has handled `count` messages. It blocks for the whole run, so it gets a
    /// thread of its own rather than one of the cooperative pool's few (two on this machine).
    static func run(endpoint: AMQPEndpoint, from input: String, to output: String, prefetch: UInt16, count: Int) async throws -> Outcome {
        let result = await withCheckedContinuation { continuation in
            Thread {
                var result = crawloop_result()
                _ = crawloop_run(
                    endpoint.host, Int32(endpoint.port), endpoint.user, endpoint.password, endpoint.virtualHost,
                    input, output, prefetch, UInt64(count), &result)
                continuation.resume(returning: result)
            }.start()
        }
        guard result.failed == 0 else {
            var message = result.message
            let text = withUnsafeBytes(of: &message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw BenchmarkError(message: "the C loop failed on \(endpoint): \(text)")
        }
        return Outcome(processed: result.processed, seconds: result.seconds)
    }
}
