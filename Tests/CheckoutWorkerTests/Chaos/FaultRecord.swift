/// One fault a chaos run caused: what, when it began and ended (offsets from the run's start).
struct FaultRecord: Sendable {
    let name: String
    let start: Duration
    let end: Duration
    /// What showed that the fault took effect: reconnects counted, connections refused, a process gone.
    let evidence: String
    /// From the end of the fault to the first event after it: how long the workers took to answer again.
    var eventsResumedAfter: Duration?
}
