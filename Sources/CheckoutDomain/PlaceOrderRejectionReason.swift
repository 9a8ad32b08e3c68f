/// Why an `order.place` was rejected; the raw values are the contract's `reason` strings.
public enum PlaceOrderRejectionReason: String, Hashable, Codable, Sendable, CaseIterable {
    /// A rule of form is broken, or today's prices overflow the total.
    case invalidRequest = "invalid-request"
    case cartNotFound = "cart-not-found"
    /// The cart belongs to another customer.
    case forbidden
    /// An order was already placed from the cart.
    case cartCheckedOut = "cart-checked-out"
    case cartEmpty = "cart-empty"
    /// The cart is not at the `cartVersion` the client ordered from.
    case cartChanged = "cart-changed"
    /// Re-priced with today's catalog, the total is not `expectedTotal` (or not in its currency).
    case priceChanged = "price-changed"
    /// A line is not in stock, or its product is no longer on sale.
    case outOfStock = "out-of-stock"
    case paymentDeclined = "payment-declined"
    /// The payment processor refused the payment for good for another reason than a decline
    /// (an unknown or unusable payment method, parameters it will not take); nothing was charged.
    case paymentFailed = "payment-failed"
    /// The charge succeeded but the order could not be stored; the charge was refunded.
    case orderFailed = "order-failed"
    /// The `message_id` was used by another command (another body); nothing was done.
    case duplicateMessageID = "duplicate-message-id"
    /// A dependency other than the payment processor kept failing until retries ran out.
    case unavailable
    /// The payment processor kept failing until retries ran out.
    case paymentUnavailable = "payment-unavailable"

    /// Whether an earlier attempt at the same command can have charged the customer before this rejection:
    /// that attempt passed every check and then the cart (emptied by a sync, say), its prices (a total
    /// that now overflows is `invalid-request`) or the stock changed, or the command was given up after
    /// retries that may have charged. Whether there was such an attempt cannot be told from the message
    /// (a client may publish a command again as a new message), so these rejections always give back
    /// what the command's key charged; the charge log answers for a command that never got that far.
    var mayFollowAChargeOfTheSameCommand: Bool {
        switch self {
        case .invalidRequest, .cartCheckedOut, .cartEmpty, .cartChanged, .priceChanged, .outOfStock, .unavailable, .paymentUnavailable:
            true
        case .cartNotFound, .forbidden, .paymentDeclined, .paymentFailed, .orderFailed, .duplicateMessageID: false
        }
    }
}
