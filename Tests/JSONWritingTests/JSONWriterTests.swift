import Foundation
import Testing

@testable import JSONWriting

@Suite struct JSONWriterTests {
    @Test func nestedObjectsAndArraysGetTheirCommas() throws {
        var json = JSONWriter()
        json.beginObject()
        json.key("lines")
        json.beginArray()
        for quantity in 1...2 {
            json.beginObject()
            json.key("quantity")
            json.integer(quantity)
            json.key("gift")
            json.bool(quantity == 2)
            json.endObject()
        }
        json.endArray()
        json.key("empty")
        json.beginArray()
        json.endArray()
        json.key("total")
        json.integer(Int64(-1_250))
        json.endObject()

        #expect(
            String(decoding: json.bytes, as: UTF8.self)
                == #"{"lines":[{"quantity":1,"gift":false},{"quantity":2,"gift":true}],"empty":[],"total":-1250}"#)
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"C:\tmp"#, #""C:\\tmp""#),
        ("a\nb\rc\td\u{08}e\u{0C}f", #""a\nb\rc\td\be\ff""#),
        ("\u{00}\u{1F}", #""\u0000\u001f""#),
        ("crème brûlée ☕️ / ok", #""crème brûlée ☕️ / ok""#),
        ("", #""""#),
    ])
    func stringsAreEscapedAsJSONRequires(text: String, expected: String) throws {
        var json = JSONWriter()
        json.string(text)
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.bytes), options: .fragmentsAllowed) as? String
        #expect(decoded == text)
    }

    /// Each reads back as the same `Double`; JSON has no infinities or NaN, so those are `null`.
    @Test(arguments: [771_692_800.123_456, 0.5, -0.000_001, 1e300, 42])
    func numbersReadBackAsTheSameDouble(value: Double) throws {
        var json = JSONWriter()
        json.beginArray()
        json.number(value)
        json.endArray()
        let decoded = try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [Double]
        #expect(decoded == [value], "\(String(decoding: json.bytes, as: UTF8.self))")
    }

    @Test func numbersJSONCannotHoldAreNull() {
        var json = JSONWriter()
        json.beginArray()
        for value in [Double.infinity, -.infinity, .nan] { json.number(value) }
        json.endArray()
        #expect(String(decoding: json.bytes, as: UTF8.self) == "[null,null,null]")
    }

    @Test func timestampsMatchFoundationsISO8601() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        var generator = SystemRandomNumberGenerator()
        var instants: [Date] = [
            Date(timeIntervalSince1970: 0),
            Date(timeIntervalSince1970: 1_767_323_045.6781),
            Date(timeIntervalSince1970: 951_782_400.0004),  // 2000-02-29
            Date(timeIntervalSince1970: 4_107_542_399.9994),  // 2100-02-28T23:59:59.999
            Date(timeIntervalSince1970: -1.4996),
        ]
        for _ in 0..<2_000 {
            // From 1900 to 2200, well inside a millisecond, where truncating it cannot differ.
            let milliseconds = Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator)
            instants.append(Date(timeIntervalSince1970: (Double(milliseconds) + 0.4) / 1000))
        }
        for instant in instants {
            var json = JSONWriter()
            json.timestamp(instant)
            #expect(String(decoding: json.bytes, as: UTF8.self) == "\"\(instant.formatted(style))\"", "\(instant.timeIntervalSince1970)")
        }
    }

    /// A stored instant of whole milliseconds is a double a hair below or above it; it keeps its millisecond.
    @Test(arguments: [(1_212_601_408.563, "2008-06-04T17:43:28.563Z"), (-2_208_988_800.001, "1899-12-31T23:59:59.999Z")])
    func wholeMillisecondsKeepTheirMillisecond(seconds: Double, expected: String) {
        var json = JSONWriter()
        json.timestamp(Date(timeIntervalSince1970: seconds))
        #expect(String(decoding: json.bytes, as: UTF8.self) == "\"\(expected)\"")
    }
}
