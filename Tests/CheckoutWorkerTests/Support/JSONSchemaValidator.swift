import Foundation

/// The part of JSON Schema that `asyncapi.yaml` uses: `$ref`, `type`, `required`, `properties`,
/// `additionalProperties: false`, `items`, `minItems`, `maxItems`, `enum`, `minimum`, `maximum`,
/// `pattern` and `format: date-time`. Anything else in a schema is a test failure, not ignored.
struct JSONSchemaValidator {
    let resolve: (String) -> Any?

    private static let understood: Set<String> = [
        "$ref", "type", "required", "properties", "additionalProperties", "items", "minItems", "maxItems",
        "enum", "minimum", "maximum", "pattern", "format", "description",
    ]

    func violations(of value: Any, against schemaValue: Any, at path: String) -> [String] {
        guard var schema = schemaValue as? [String: Any] else { return ["\(path): the schema is not an object"] }
        if let reference = schema["$ref"] as? String {
            guard let resolved = resolve(reference) else { return ["\(path): unresolvable \(reference)"] }
            schema = resolved as? [String: Any] ?? [:]
        }
        var found = schema.keys.filter { !Self.understood.contains($0) }.map { "\(path): the validator does not understand '\($0)'" }
        if let type = schema["type"] as? String, !Self.has(type, value) {
            return found + ["\(path): expected \(type), got \(Swift.type(of: value))"]
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { "\($0)" == "\(value)" }) {
            found.append("\(path): '\(value)' is not one of \(allowed)")
        }
        if let number = value as? NSNumber, !Self.isBool(value) {
            if let minimum = schema["minimum"] as? Int, number.intValue < minimum { found.append("\(path): \(number) < \(minimum)") }
            if let maximum = schema["maximum"] as? Int, number.intValue > maximum { found.append("\(path): \(number) > \(maximum)") }
        }
        if let text = value as? String {
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(path): '\(text)' does not match \(pattern)")
            }
            if schema["format"] as? String == "date-time",
                (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) == nil
            {
                found.append("\(path): '\(text)' is not an RFC 3339 date-time")
            }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                found.append("\(path).\(name) is required")
            }
            for (name, property) in object {
                if let propertySchema = properties[name] {
                    found += violations(of: property, against: propertySchema, at: "\(path).\(name)")
                } else if schema["additionalProperties"] as? Bool == false {
                    found.append("\(path).\(name) is not in the schema")
                }
            }
        }
        if let array = value as? [Any] {
            if let minimum = schema["minItems"] as? Int, array.count < minimum { found.append("\(path): fewer than \(minimum) items") }
            if let maximum = schema["maxItems"] as? Int, array.count > maximum { found.append("\(path): more than \(maximum) items") }
            if let items = schema["items"] {
                for (index, item) in array.enumerated() { found += violations(of: item, against: items, at: "\(path)[\(index)]") }
            }
        }
        return found
    }

    /// Foundation bridges JSON numbers to NSNumber, and `1 is Bool` holds for those; the type code tells booleans apart.
    private static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return value is Bool }
        let code = String(cString: number.objCType)
        return code == "c" || code == "B"
    }

    private static func has(_ type: String, _ value: Any) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "boolean": isBool(value)
        case "integer": (value as? NSNumber).map { !Self.isBool(value) && $0.doubleValue == $0.doubleValue.rounded() } ?? false
        case "number": value is NSNumber && !Self.isBool(value)
        default: false
        }
    }
}
