/// Why a benchmark stopped, in words an operator can act on.
struct BenchmarkError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
