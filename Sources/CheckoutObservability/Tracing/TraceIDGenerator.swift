import Synchronization

/// Random trace and span ids, from one SplitMix64 sequence seeded once from the system's generator.
///
/// W3C asks for ids that are random, not secret. Drawing each byte from the system's generator
/// was a `getrandom` call per byte, 24 per command: 6 % of a worker's CPU.
final class TraceIDGenerator: Sendable {
    private let state: Mutex<UInt64>

    init(seed: UInt64) {
        state = Mutex(seed)
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
        state.withLock { state in
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
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
