extension ValidPlaceOrderRequest {
    /// The command's rejection for `reason`, about its cart.
    func rejection(
        _ reason: PlaceOrderRejectionReason,
        _ message: String,
        newTotal: Money? = nil,
        skus: [SKU]? = nil,
        declineCode: DeclineCode? = nil,
        refund: Payment? = nil
    ) -> PlaceOrderRejection {
        PlaceOrderRejection(
            cartID: cartID.rawValue,
            reason: reason,
            message: message,
            newTotal: newTotal,
            skus: skus,
            declineCode: declineCode,
            refundedPayment: refund
        )
    }
}
