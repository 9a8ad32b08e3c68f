import CheckoutDomain

/// How a batch of database calls on PostgreSQL is answered, one answer per call in order, whatever
/// the calls are (``SQLBatcher``'s `run`).
enum SQLBatchAnswers {
    /// One call runs `alone`. Several run `together`, which answers those it could (nil for the
    /// others); the database away fails them all, as retryable; any other failure of `together`
    /// wrote nothing, and they all run alone. The calls left to run alone run at once, so that one
    /// call's fault, met on its own, fails no other.
    static func of<Answer: Sendable>(
        _ count: Int,
        together: () async throws -> [Result<Answer, any Error>?],
        alone: @escaping @Sendable (Int) async throws -> Answer
    ) async -> [Result<Answer, any Error>] {
        guard count > 1 else { return [await Result { try await alone(0) }] }
        var answers: [Result<Answer, any Error>?]
        do {
            answers = try await together()
        } catch let error as RetryableError {
            return Array(repeating: .failure(error), count: count)
        } catch {
            answers = Array(repeating: nil, count: count)
        }
        await withTaskGroup(of: (Int, Result<Answer, any Error>).self) { group in
            for (index, answer) in answers.enumerated() where answer == nil {
                group.addTask { (index, await Result { try await alone(index) }) }
            }
            for await (index, answer) in group { answers[index] = answer }
        }
        return answers.map {
            $0 ?? .failure(PersistenceError(code: .databaseFailure, context: "a call of a batch was left without an answer"))
        }
    }
}
