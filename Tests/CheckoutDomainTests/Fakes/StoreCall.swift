/// A call into a port of the store, which a ``StoreInterceptor`` can make fail or precede with another worker's action.
enum StoreCall: Hashable, Sendable {
    case syncSnapshot
    case syncRecord
    case loadProducts
    case placeOrder
    case claimCommand
    case recordOutcome
    case releaseClaim
    case recordCharge
    case readCharge
}
