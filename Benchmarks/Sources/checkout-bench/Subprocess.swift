import Foundation

/// Runs a tool the benchmark needs (rabbitmqctl, psql) to the end, without blocking a thread.
enum Subprocess {
    /// The tool's output; throws with the output's end when it exits with an error.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-bench-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }

        let process = Process()
        // Through env, so that a bare name is looked up on PATH as a shell would.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = handle
        process.standardError = handle
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: BenchmarkError(message: "cannot run \(tool): \(error)"))
            }
        }
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw BenchmarkError(message: "\(tool) \(arguments.joined(separator: " ")) exited with \(status): \(text.suffix(500))")
        }
        return text
    }
}
