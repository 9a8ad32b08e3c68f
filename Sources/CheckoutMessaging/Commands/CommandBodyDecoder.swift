import Foundation

/// Reads a command body as JSON into its `Decodable` shape, turning every failure into the
/// ``MalformedCommand`` code the contract's failure table asks for.
struct CommandBodyDecoder: Sendable {
    func decode<Body: Decodable>(_ type: Body.Type, from body: [UInt8]) throws(MalformedCommand) -> Body {
        guard String(validating: body, as: UTF8.self) != nil else {
            throw MalformedCommand(.invalidEncoding, "the body is not UTF-8")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: Data(body))
        } catch let error as DecodingError {
            throw Self.malformed(error)
        } catch {
            throw MalformedCommand(.invalidJSON, "the body is not JSON")
        }
    }

    private static func malformed(_ error: DecodingError) -> MalformedCommand {
        switch error {
        case .keyNotFound(let key, let context):
            return MalformedCommand(.missingField, "\(path(context.codingPath + [key])) is missing")
        case .valueNotFound(_, let context):
            return MalformedCommand(.missingField, "\(path(context.codingPath)) is null")
        case .typeMismatch(let type, let context):
            return MalformedCommand(.wrongType, "\(path(context.codingPath)) must be \(jsonType(type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return MalformedCommand(.invalidJSON, "the body is not JSON")
        case .dataCorrupted(let context):
            return MalformedCommand(.wrongType, "\(path(context.codingPath)) is not a number in range")
        @unknown default:
            return MalformedCommand(.invalidJSON, "the body cannot be read")
        }
    }

    /// `items[1].quantity`, or `the body` for the top level.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the body" }
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return path
    }

    private static func jsonType(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
