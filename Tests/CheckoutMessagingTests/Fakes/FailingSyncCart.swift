import CheckoutDomain

/// A sync-cart use case that throws the failures a test lined up before running the real one: a
/// transient port failure, another worker's claim, a defect. Giving up is left to the real one.
struct FailingSyncCart: SyncCart {
    let wrapped: any SyncCart
    let failures: ExecutionFailures

    func execute(_ request: SyncCartRequest) async throws {
        if let failure = failures.next() { throw failure }
        try await wrapped.execute(request)
    }

    func abandon(_ request: SyncCartRequest, after error: RetryableError) async throws {
        try await wrapped.abandon(request, after: error)
    }
}
