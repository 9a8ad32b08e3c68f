/// Turns the application's per-delivery acks on one channel into as few basic.ack frames as is safe.
///
/// A `multiple` ack covers every earlier tag, so it is only sent up to the first delivery that is still
/// being worked on; acks after that gap go out one by one. Nacks and rejects are never coalesced: the
/// caller sends them at once and removes the tag here, so a later `multiple` ack cannot cover them.
struct AckCoalescer {
    struct Ack: Equatable {
        var deliveryTag: UInt64
        var multiple: Bool
    }

    /// Unsettled delivery tags in the order the broker sent them (ascending), with whether each is acked.
    private var unsettled: [(tag: UInt64, acked: Bool)] = []
    private var ackedCount = 0

    var unsettledCount: Int { unsettled.count }

    /// The latest delivery not settled yet; after ``drain()``, a `multiple` nack of it covers exactly the unacked ones.
    var lastUnsettledTag: UInt64? { unsettled.last?.tag }

    mutating func received(_ deliveryTag: UInt64) {
        unsettled.append((deliveryTag, false))
    }

    /// Marks a delivery acked; false when the tag is unknown (already settled, or from an earlier channel).
    mutating func ack(_ deliveryTag: UInt64) -> Bool {
        guard let index = index(of: deliveryTag), !unsettled[index].acked else { return false }
        unsettled[index].acked = true
        ackedCount += 1
        return true
    }

    /// Forgets a delivery the caller nacks or rejects itself; false when the tag is unknown.
    mutating func remove(_ deliveryTag: UInt64) -> Bool {
        guard let index = index(of: deliveryTag) else { return false }
        if unsettled[index].acked { ackedCount -= 1 }
        unsettled.remove(at: index)
        return true
    }

    /// The frames that settle every acked delivery so far: one `multiple` ack for the leading run, then singles.
    mutating func drain() -> [Ack] {
        guard ackedCount > 0 else { return [] }
        var acks: [Ack] = []
        var prefix = 0
        while prefix < unsettled.count, unsettled[prefix].acked { prefix += 1 }
        if prefix > 0 {
            acks.append(Ack(deliveryTag: unsettled[prefix - 1].tag, multiple: prefix > 1))
        }
        for entry in unsettled[prefix...] where entry.acked {
            acks.append(Ack(deliveryTag: entry.tag, multiple: false))
        }
        unsettled.removeAll { $0.acked }
        ackedCount = 0
        return acks
    }

    private func index(of deliveryTag: UInt64) -> Int? {
        var low = 0
        var high = unsettled.count
        while low < high {
            let middle = (low + high) / 2
            if unsettled[middle].tag < deliveryTag { low = middle + 1 } else { high = middle }
        }
        return low < unsettled.count && unsettled[low].tag == deliveryTag ? low : nil
    }
}
