import CheckoutObservability
import Foundation

/// The one seed of a chaos run: it chooses the client's mix (which carts take which journey, which
/// commands carry hostile properties), the fake Stripe's failures and the jitter of the fault
/// schedule. It is printed when the run starts; `CHAOS_SEED=<seed>` runs the same choices again.
///
/// The interleaving of processes and the broker's timing are not seeded, so a replay makes the same
/// choices, not necessarily the same race.
struct ChaosSeed: Sendable, CustomStringConvertible {
    static let environmentVariable = "CHAOS_SEED"

    let value: UInt64

    init(_ value: UInt64) {
        self.value = value
    }

    /// `CHAOS_SEED` (decimal, or hexadecimal after `0x`), or a new random seed.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ChaosSeed {
        guard let text = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return ChaosSeed(UInt64.random(in: 0...UInt64.max))
        }
        let parsed = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let parsed else { fatalError("\(environmentVariable)=\(text) is no unsigned 64-bit number") }
        return ChaosSeed(parsed)
    }

    var description: String { "\(value)" }

    /// A number of its own for each (purpose, index) pair: the same on every run with this seed.
    func roll(_ purpose: UInt64, _ index: Int = 0) -> UInt64 {
        var generator = SplitMix64(
            seed: value ^ (purpose &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        _ = generator.next()
        return generator.next()
    }

    /// True for about one in `every` indices, chosen by the seed, separately for each purpose.
    func oneIn(_ every: UInt64, _ purpose: UInt64, _ index: Int) -> Bool {
        roll(purpose, index) % every == 0
    }

    /// A generator for a sequence of choices (the fake Stripe's failures, the fault jitter).
    func generator(_ purpose: UInt64) -> SplitMix64 {
        SplitMix64(seed: roll(purpose))
    }
}
