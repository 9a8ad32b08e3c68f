import CheckoutDomain
import CheckoutTestSupport
import Foundation

/// A payment processor whose charge call takes `seconds` of the test clock before the spy behind it
/// answers: a charge made late in a long call whose answer is then lost.
struct SlowChargingProcessor: PaymentProcessor {
    let spy: PaymentProcessorSpy
    let clock: TestClock
    let seconds: TimeInterval

    var searchLag: TimeInterval { spy.searchLag }

    func validate(_ token: PaymentToken) throws(ValidationError) {
        try spy.validate(token)
    }

    func charge(_ amount: Money, with token: PaymentToken, idempotencyKey: CommandID) async throws -> ChargeResult {
        clock.advance(by: seconds)
        return try await spy.charge(amount, with: token, idempotencyKey: idempotencyKey)
    }

    func refund(_ payment: Payment) async throws {
        try await spy.refund(payment)
    }

    func findCharge(madeWith idempotencyKey: CommandID) async throws -> Payment? {
        try await spy.findCharge(madeWith: idempotencyKey)
    }
}
