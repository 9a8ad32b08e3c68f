extension String {
    /// The most bytes a log line's message or metadata value is written with. A value a client chose
    /// can be most of a 256 KiB body (an invalid `cartId`): written whole, one line would be longer than
    /// log collectors take (Docker splits lines at 16 KiB, and the halves are not JSON).
    static let logValueLimit = 2048

    /// The text as a log line writes it: whole up to ``logValueLimit`` bytes; past that its first bytes,
    /// cut between scalars, and `… (N bytes)`, together within the limit.
    var clippedForLog: String {
        let count = utf8.count
        guard count > Self.logValueLimit else { return self }
        let mark = "… (\(count) bytes)"
        let room = Self.logValueLimit - mark.utf8.count
        var kept = 0
        let head = unicodeScalars.prefix { scalar in
            kept += scalar.utf8.count
            return kept <= room
        }
        return String(head) + mark
    }
}
