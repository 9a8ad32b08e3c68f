import Synchronization

/// Random trace and span ids, from one ``SplitMix64`` sequence seeded once from the system's generator.
///
/// W3C asks for ids that are random, not secret. Drawing each byte from the system's generator
/// was a `getrandom` call per byte, 24 per command: 6 % of a worker's CPU.
final class TraceIDGenerator: Sendable {
    private let generator: Mutex<SplitMix64>

    init(seed: UInt64) {
        generator = Mutex(SplitMix64(seed: seed))
    }

    /// The process's generator.
    static let shared: TraceIDGenerator = {
        var system = SystemRandomNumberGenerator()
        return TraceIDGenerator(seed: system.next())
    }()

    /// 16 lowercase hex digits, never all zeros.
    func spanID() -> String {
        var value: UInt64
        repeat { value = next() } while value == 0
        return Self.hex(value)
    }

    /// 32 lowercase hex digits, never all zeros.
    func traceID() -> String {
        var high: UInt64
        var low: UInt64
        repeat { (high, low) = (next(), next()) } while high == 0 && low == 0
        return Self.hex(high) + Self.hex(low)
    }

    private func next() -> UInt64 {
        generator.withLock { $0.next() }
    }

    private static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for index in 0..<16 {
                let nibble = Int(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0x0F
                buffer[index] = digits.utf8Start[nibble]
            }
            return 16
        }
    }
}
