import CheckoutDomain

/// A sync-cart use case that throws the failures a test lined up before running the real one: a
/// transient port failure, another worker's claim, a defect; and those lined up for giving up.
struct FailingSyncCart: SyncCart {
    let wrapped: any SyncCart
    let failures: ExecutionFailures
    let abandonFailures: ExecutionFailures

    func execute(_ request: SyncCartRequest) async throws {
        if let failure = failures.next() { throw failure }
        try await wrapped.execute(request)
    }

    func abandon(_ request: SyncCartRequest, after error: RetryableError) async throws {
        if let failure = abandonFailures.next() { throw failure }
        try await wrapped.abandon(request, after: error)
    }
}
