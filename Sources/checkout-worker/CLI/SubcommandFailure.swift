import ArgumentParser

/// A sub-command that failed for a reason the operator can act on: one line on stderr, exit 1.
struct SubcommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
