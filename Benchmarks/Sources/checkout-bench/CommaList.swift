import ArgumentParser
import Foundation

/// Options that take several values as one comma-separated word (`--stores memory,sqlite`).
enum CommaList {
    static func parse<Value>(_ element: @escaping @Sendable (String) -> Value?) -> @Sendable (String) throws -> [Value] {
        { text in
            let values = try text.split(separator: ",").map { word in
                guard let value = element(String(word.trimmingCharacters(in: .whitespaces))) else {
                    throw ValidationError("'\(word)' is not one of the accepted values")
                }
                return value
            }
            guard !values.isEmpty else { throw ValidationError("expected at least one value") }
            return values
        }
    }
}
