import JSONReading

/// One JSON object of a command body, read field by field with the contract's failure codes.
///
/// A failure names the field by its path (`items[1].quantity`) and what is wrong with it, never
/// its value: `missing-field` for an absent or null field, `wrong-type` for any other JSON type
/// than the one asked for, or for a number that is not an integer in range.
struct CommandFields {
    private let fields: [String: JSONValue]
    /// Where this object is in the body: empty for the body itself.
    private let path: String

    /// The body itself, which must be an object.
    init(body: JSONValue) throws(MalformedCommand) {
        guard case .object(let fields) = body else {
            throw MalformedCommand(.wrongType, "the body must be an object")
        }
        self.init(fields, path: "")
    }

    private init(_ fields: [String: JSONValue], path: String) {
        self.fields = fields
        self.path = path
    }

    func string(_ key: String) throws(MalformedCommand) -> String {
        guard case .string(let string) = try value(key) else {
            throw wrongType(key, "a string")
        }
        return string
    }

    func integer<Integer: FixedWidthInteger>(_ key: String, as type: Integer.Type = Int.self) throws(MalformedCommand) -> Integer {
        let value = try value(key)
        guard case .number = value else {
            throw wrongType(key, "an integer")
        }
        if let integer = value.exactInteger(as: Integer.self) {
            return integer
        }
        throw MalformedCommand(.wrongType, "\(self.path(key)) is not a number in range")
    }

    func object(_ key: String) throws(MalformedCommand) -> CommandFields {
        guard case .object(let fields) = try value(key) else {
            throw wrongType(key, "an object")
        }
        return CommandFields(fields, path: path(key))
    }

    /// Each element of an array of objects, read by `element`.
    func objects<Element>(
        _ key: String, _ element: (CommandFields) throws(MalformedCommand) -> Element
    ) throws(MalformedCommand) -> [Element] {
        guard case .array(let values) = try value(key) else {
            throw wrongType(key, "an array")
        }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            let elementPath = "\(path(key))[\(index)]"
            switch value {
            case .object(let fields): elements.append(try element(CommandFields(fields, path: elementPath)))
            case .null: throw MalformedCommand(.missingField, "\(elementPath) is null")
            default: throw MalformedCommand(.wrongType, "\(elementPath) must be an object")
            }
        }
        return elements
    }

    private func value(_ key: String) throws(MalformedCommand) -> JSONValue {
        switch fields[key] {
        case nil: throw MalformedCommand(.missingField, "\(path(key)) is missing")
        case .null: throw MalformedCommand(.missingField, "\(path(key)) is null")
        case let value?: return value
        }
    }

    private func wrongType(_ key: String, _ expected: String) -> MalformedCommand {
        MalformedCommand(.wrongType, "\(path(key)) must be \(expected)")
    }

    private func path(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}
