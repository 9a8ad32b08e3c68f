import JSONReading
import Testing

/// The parser and its numbers on their own: what command bodies and stored cart lines rely on.
@Suite struct JSONParserTests {
    @Test func readsEveryKindOfValueAndKeepsNumbersAsTheirText() throws {
        let value = try parse(#" {"a": [1, -0.5e+3, "x\u00e9\n", true, false, null], "b": {}} "#)
        guard case .object(let fields) = value, case .array(let elements)? = fields["a"], case .object(let empty)? = fields["b"] else {
            Issue.record("not the object written: \(value)")
            return
        }
        #expect(empty.isEmpty)
        #expect(elements.count == 6)
        guard case .number(let one) = elements[0], case .number(let half) = elements[1], case .string(let text) = elements[2],
            case .bool(true) = elements[3], case .bool(false) = elements[4], case .null = elements[5]
        else {
            Issue.record("not the elements written: \(elements)")
            return
        }
        #expect(one == "1")
        #expect(half == "-0.5e+3")
        #expect(text == "xé\n")
    }

    @Test func theFirstOfARepeatedKeyWins() throws {
        guard case .object(let fields) = try parse(#"{"k": "first", "k": "second"}"#), case .string(let kept)? = fields["k"] else {
            Issue.record("no string under k")
            return
        }
        #expect(kept == "first")
    }

    @Test func readsSurrogatePairsAndRefusesLoneSurrogates() throws {
        guard case .string(let cart) = try parse(#""\ud83d\uded2""#) else {
            Issue.record("not a string")
            return
        }
        #expect(cart == "🛒")
        #expect(throws: JSONParser.Failure.self) { try parse(#""\ud83d""#) }
        #expect(throws: JSONParser.Failure.self) { try parse(#""\uded2""#) }
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "+1", "1e", "tru", "nul", "\"\u{1}\"", "\"\\x\"", "[] []", "{\"a\":1,}",
    ])
    func refusesWhatIsNotJSON(text: String) {
        #expect(throws: JSONParser.Failure.self) { try parse(text) }
    }

    @Test func limitsNesting() throws {
        let deepest = JSONParser.maximumDepth
        _ = try parse(String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest))
        #expect(throws: JSONParser.Failure.self) {
            try parse(String(repeating: "[", count: deepest + 1) + String(repeating: "]", count: deepest + 1))
        }
    }

    @Test(
        arguments: [
            ("2.0", 2), ("1e2", 100), ("1E+2", 100), ("150e-1", 15), ("1.5e1", 15), ("-3.00", -3), ("0.0e5", 0), ("-0", 0),
            ("9223372036854775807.0", Int.max), ("-9223372036854775808", Int.min),
            ("2.5", nil), ("1.9999999999999999", nil), ("2.0000000000000001", nil), ("15e-2", nil), ("1e400", nil), ("1e-400", nil),
            ("9223372036854775808", nil), ("1e99999999999999999999", nil), ("0e99999999999999999999", 0),
            ("1e9223372036854775807", nil), ("1e-9223372036854775808", nil), ("1.5e-9223372036854775808", nil),
            ("-1.5e-99999999999999999999", nil), ("1000e-1000001", nil),
        ] as [(String, Int?)])
    func readsAnIntegerOnlyFromANumberThatIsOneExactly(text: String, integer: Int?) {
        #expect(JSONValue.number(text).exactInteger(as: Int.self) == integer)
    }

    private func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }
}
