/// The charges PlaceOrder asked for, by command, in the database that stores orders.
///
/// A charge is recorded as requested before the payment processor is called (with the claim, when
/// ``PlaceOrderStore`` can), and as approved when the attempt cannot store what it decided after an
/// approval: a later attempt, on any worker, then refunds the charge by its id, or takes it for the
/// order, instead of searching the processor for it. A stored order or outcome says itself what
/// became of the charge, so the approval costs no write on the way that succeeds.
public protocol ChargeLog: Sendable {
    func record(_ charge: ChargeRecord, for commandID: CommandID) async throws
    /// The last record of the command's charge; nil when no attempt of it reached the payment step.
    func charge(of commandID: CommandID) async throws -> ChargeRecord?
}
