import CheckoutMessaging

/// A command as a chaos run's client publishes it.
struct ChaosCommand: Sendable {
    let id: String
    let kind: CommandKind
    let cart: String
    let body: String
    /// Readable, but rejected as `invalid-request` before anything is stored.
    var breaksRuleOfForm = false
}
