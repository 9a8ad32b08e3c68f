import Logging

extension Logger.Metadata {
    /// Adds a logged error as both log formats write it: `error.type` and `error.message`.
    mutating func add(error: any Error) {
        self["error.type"] = "\(String(reflecting: type(of: error)))"
        self["error.message"] = "\(error)"
    }
}
