/// The kind of queue the worker declares: classic for a single broker, quorum for a cluster.
public enum QueueType: String, Sendable, CaseIterable {
    case classic
    case quorum
}
