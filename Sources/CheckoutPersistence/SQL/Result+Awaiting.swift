extension Result where Failure == any Error {
    /// What `body` returns or throws, as `Result(catching:)` for an async body.
    init(awaiting body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
