import CheckoutDomain
import CheckoutPayments
import CheckoutPaymentsTesting
import Testing

/// Every implementation of the payment port, for the contract suite.
enum PaymentProcessorSubject: CaseIterable, CustomTestStringConvertible {
    case sandbox
    case stripeOnFake

    var testDescription: String {
        switch self {
        case .sandbox: "sandbox"
        case .stripeOnFake: "Stripe on the fake server"
        }
    }

    /// Runs `body` with a new processor of this kind, shutting down what it needed afterwards.
    func withSUT(_ body: (PaymentProcessorSUT) async throws -> Void) async throws {
        switch self {
        case .sandbox:
            let sandbox = SandboxPaymentProcessor()
            try await body(
                PaymentProcessorSUT(
                    processor: sandbox,
                    genericDeclineCode: DeclineCode("card_declined"),
                    chargeCount: { key in await sandbox.charges.count { $0.idempotencyKey == key } },
                    refundCount: { id in await sandbox.refunds.count { $0.id == id } }
                ))
        case .stripeOnFake:
            try await TestStripe.withFakeStripe { processor, server in
                try await body(
                    PaymentProcessorSUT(
                        processor: processor,
                        genericDeclineCode: DeclineCode("generic_decline"),
                        chargeCount: { key in server.ledger.charges(forCommand: key.rawValue).count },
                        refundCount: { id in server.ledger.refunds(ofPaymentIntent: id.rawValue).count }
                    ))
            }
        }
    }
}
