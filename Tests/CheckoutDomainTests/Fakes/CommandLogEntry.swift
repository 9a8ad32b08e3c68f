import CheckoutDomain
import Foundation

/// What ``CommandLog`` knows of one command id.
enum CommandLogEntry<Outcome: Sendable & Equatable>: Sendable, Equatable {
    case claimed(until: Date)
    case completed(Outcome)
}
