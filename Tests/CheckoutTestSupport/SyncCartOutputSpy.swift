public import CheckoutDomain

/// Records what ``SyncCartUseCase`` reported; can fail like a broker that went away.
public actor SyncCartOutputSpy: SyncCartUseCaseOutput {
    public enum Message: Equatable, Sendable {
        case didSync(SyncedCart)
        case didReject(SyncCartRejection)
    }

    public private(set) var messages: [Message] = []
    private var failing = false

    public init() {}

    /// The reasons of the rejections reported, in order.
    public var rejectionReasons: [SyncCartRejectionReason] {
        messages.compactMap { if case .didReject(let rejection) = $0 { rejection.reason } else { nil } }
    }

    public func failPublishing(_ failing: Bool) {
        self.failing = failing
    }

    public func didSync(_ cart: SyncedCart) async throws {
        try publish(.didSync(cart))
    }

    public func didReject(_ rejection: SyncCartRejection) async throws {
        try publish(.didReject(rejection))
    }

    private func publish(_ message: Message) throws {
        guard !failing else { throw ConnectionLost() }
        messages.append(message)
    }
}
