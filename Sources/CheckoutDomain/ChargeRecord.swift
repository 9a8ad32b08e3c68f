public import Foundation

/// What became of a command's charge, as far as this service knows: kept with the command's claim so
/// that any worker can give back, or take for the order, what an earlier attempt charged.
public enum ChargeRecord: Hashable, Codable, Sendable {
    /// The payment processor was asked to charge at `at`; its answer is not known (lost, or not yet stored).
    case requested(at: Date)
    /// The payment processor approved this charge.
    case approved(Payment)
}
