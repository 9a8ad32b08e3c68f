import JSONReading

/// Reads a command body as JSON into its ``CommandBody``, turning every failure into the
/// ``MalformedCommand`` code the contract's failure table asks for.
struct CommandBodyDecoder: Sendable {
    func decode<Body: CommandBody>(_ type: Body.Type, from body: [UInt8]) throws(MalformedCommand) -> Body {
        guard String(validating: body, as: UTF8.self) != nil else {
            throw MalformedCommand(.invalidEncoding, "the body is not UTF-8")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(body)
        } catch {
            throw MalformedCommand(.invalidJSON, "the body is not JSON")
        }
        return try Body(CommandFields(body: json))
    }
}
