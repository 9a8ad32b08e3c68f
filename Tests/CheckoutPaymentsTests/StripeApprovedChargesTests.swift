import CheckoutDomain
import CheckoutTestSupport
import Testing

@testable import CheckoutPayments

@Suite struct StripeApprovedChargesTests {
    private let start = ContinuousClock.now

    @Test func remembersTheFirstApprovalOfACommand() throws {
        let sut = StripeApprovedCharges()
        let key = try uniqueCommandID()

        sut.record(try payment("pi_1"), for: key, at: start)
        sut.record(try payment("pi_2"), for: key, at: start + .seconds(1))

        #expect(sut.payment(for: key) == (try payment("pi_1")))
        #expect(sut.payment(for: try uniqueCommandID()) == nil)
    }

    @Test func forgetsApprovalsOlderThanTheRetention() throws {
        let sut = StripeApprovedCharges(retention: .seconds(60))
        let old = try uniqueCommandID(), recent = try uniqueCommandID()
        sut.record(try payment("pi_old"), for: old, at: start)

        sut.record(try payment("pi_recent"), for: recent, at: start + .seconds(61))

        #expect(sut.payment(for: old) == nil)
        #expect(sut.payment(for: recent) == (try payment("pi_recent")))
    }

    @Test func keepsAtMostItsCapacityDroppingTheOldest() throws {
        let sut = StripeApprovedCharges(capacity: 2)
        let keys = try (0..<3).map { _ in try uniqueCommandID() }

        for (index, key) in keys.enumerated() {
            sut.record(try payment("pi_\(index)"), for: key, at: start + .seconds(index))
        }

        #expect(try keys.map { sut.payment(for: $0) } == [nil, payment("pi_1"), payment("pi_2")])
    }

    @Test func staysBoundedUnderManyApprovals() throws {
        let sut = StripeApprovedCharges(capacity: 100)
        let keys = try (0..<5_000).map { _ in try uniqueCommandID() }

        for (index, key) in keys.enumerated() {
            sut.record(try payment("pi_\(index)"), for: key, at: start)
        }

        #expect(keys.filter { sut.payment(for: $0) != nil } == Array(keys.suffix(100)))
    }

    private func payment(_ id: String) throws -> Payment {
        Payment(id: PaymentID(id), amount: eur(1000))
    }
}
