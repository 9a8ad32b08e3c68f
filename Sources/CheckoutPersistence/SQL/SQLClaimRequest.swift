import CheckoutDomain
import Foundation

/// One claim of ``SQLProcessedCommands/claim(_:digest:at:leaseUntil:readingCart:chargeRequest:)``, as
/// a batch carries it.
struct SQLClaimRequest: Sendable {
    let commandID: CommandID
    let digest: CommandDigest?
    let now: Date
    let leaseUntil: Date
    /// Whether this attempt holds the command's mark in this process (``SQLCommandLog/beginAttempt(_:)``).
    let isOnlyAttempt: Bool
    let cartID: CartID?
    let chargeRequest: (@Sendable (Cart, [SKU: Product]) -> ChargeRecord?)?

    /// What `chargeRequest` answers for what `read` holds: nil without a cart, or without its products.
    func charge(for read: SQLCartRead?) -> ChargeRecord? {
        read.flatMap { read in read.cart.flatMap { cart in read.products.flatMap { chargeRequest?(cart, $0) } } }
    }
}
