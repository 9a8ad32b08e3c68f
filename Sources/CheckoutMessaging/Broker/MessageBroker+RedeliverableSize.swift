extension MessageBroker {
    /// The most bytes a message's properties may take so that it can still be read after the broker
    /// adds its own headers: `x-death` and `x-first-death-*` (and `x-last-death-*`) when it dead-letters
    /// a copy back from a retry queue, `x-delivery-count` when a quorum queue redelivers. A delivery that
    /// no longer fits in a frame is one librabbitmq cannot read: the connection drops, and the broker
    /// hands the same message to the next worker. 4 KiB less than a frame holds, or a quarter less of
    /// a frame smaller than 16 KiB.
    var maximumRedeliverablePropertiesByteCount: Int {
        maximumPropertiesByteCount - min(4096, maximumPropertiesByteCount / 4)
    }
}
