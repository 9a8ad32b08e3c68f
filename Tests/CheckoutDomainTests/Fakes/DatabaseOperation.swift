/// A call into ``InMemoryDatabase`` that a test can make fail as if the database were down.
enum DatabaseOperation: Hashable, Sendable {
    case loadCart
    case saveCart
    case loadProducts
    case placeOrder
    case claimCommand
    case recordOutcome
    case releaseClaim
    case recordCharge
}
