/// The delays before each retry of a transiently failed command, as `CHECKOUT_RETRY_DELAYS` gives them.
///
/// Each delay has its own retry queue, named after it (`checkout.retry.sync-cart.30s`), so changing
/// the delays declares new queues instead of clashing with the arguments of the old ones.
public struct RetryDelays: Sendable, Hashable, CustomStringConvertible {
    /// One delay, in milliseconds, with the text it was written as.
    public struct Delay: Sendable, Hashable {
        public let milliseconds: Int
        /// `500ms`, `5s`, `2m`, `1h`: the suffix of the retry queue's name.
        public let name: String

        /// Parses one duration with its unit (`ms`, `s`, `m`, `h`), up to a day: `500ms`, `30s`, `2m`.
        public init(parsing token: String) throws(RetryDelaysError) {
            let units: [(suffix: String, milliseconds: Int)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
            guard let unit = units.first(where: { token.hasSuffix($0.suffix) && Int(token.dropLast($0.suffix.count)) != nil }),
                let amount = Int(token.dropLast(unit.suffix.count)), amount > 0, amount <= 86_400_000 / unit.milliseconds
            else {
                throw RetryDelaysError(token: token)
            }
            milliseconds = amount * unit.milliseconds
            name = "\(amount)\(unit.suffix)"
        }

        /// The delay as a `Duration`.
        public var duration: Duration { .milliseconds(milliseconds) }
    }

    public static let `default` = try! RetryDelays("1s,5s,30s,2m,10m")

    public let delays: [Delay]

    /// Parses a comma-separated list of one or more durations with a unit each (`ms`, `s`, `m`, `h`).
    /// At least one: a command another worker has claimed, or one waiting for the payment processor's
    /// search, waits in the first retry queue without spending a retry.
    public init(_ text: String) throws(RetryDelaysError) {
        var delays: [Delay] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            delays.append(try Delay(parsing: part.filter { !$0.isWhitespace }))
        }
        self.delays = delays
    }

    public var description: String { delays.map(\.name).joined(separator: ",") }
}
