import CheckoutDomain

/// Records what ``SyncCartUseCase`` reported; can fail like a broker that went away.
actor SyncCartOutputSpy: SyncCartUseCaseOutput {
    enum Message: Equatable {
        case didSync(SyncedCart)
        case didReject(SyncCartRejection)
    }

    private(set) var messages: [Message] = []
    private var failing = false

    func failPublishing(_ failing: Bool) {
        self.failing = failing
    }

    func didSync(_ cart: SyncedCart) async throws {
        try publish(.didSync(cart))
    }

    func didReject(_ rejection: SyncCartRejection) async throws {
        try publish(.didReject(rejection))
    }

    private func publish(_ message: Message) throws {
        guard !failing else { throw ConnectionLost() }
        messages.append(message)
    }
}
