/// `scripts/test-servers.sh` failed or hung, with what it printed.
struct TestServersError: Error, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    /// Ended by a signal: the test killed it when `timeout` ran out.
    let killed: Bool
    let timeout: Duration
    let output: String

    var description: String {
        let outcome = killed ? "was killed after \(timeout)" : "exited \(status)"
        return "scripts/test-servers.sh \(arguments.joined(separator: " ")) \(outcome): \(output.suffix(2000))"
    }
}
