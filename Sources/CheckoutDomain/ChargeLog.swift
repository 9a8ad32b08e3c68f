/// The charges PlaceOrder asked for, by command, in the database that stores orders.
///
/// A charge is recorded as requested before the payment processor is called and as approved as soon as
/// it answers, before the order is stored: an attempt that fails after that, on any worker, leaves what
/// a later attempt needs to refund the charge by its id, instead of searching the processor for it.
public protocol ChargeLog: Sendable {
    func record(_ charge: ChargeRecord, for commandID: CommandID) async throws
    /// The last record of the command's charge; nil when no attempt of it reached the payment step.
    func charge(of commandID: CommandID) async throws -> ChargeRecord?
}
