import CRabbitMQShim
import Testing

/// The C encoder that lets publishes be gathered into one write: its frames must be byte for byte what
/// amqp_basic_publish sends (AMQP 0-9-1 section 4.2.3: type, channel, size, payload, 0xCE).
@Suite struct PublishFrameEncoderTests {
    /// An amqp_basic_properties_t with no flag set, as plain zeroed memory larger than the struct.
    private static let noProperties = [UInt8](repeating: 0, count: 512)

    private func encode(
        body: [UInt8], frameMax: Int, channel: UInt16 = 2, exchange: String = "ex",
        routingKey: String = "rk", mandatory: Bool = true
    ) -> [UInt8]? {
        let limit = crabbitmq_publish_size_limit(body.count, frameMax)
        var out = [UInt8](repeating: 0, count: limit)
        let exchangeBytes = Array(exchange.utf8), keyBytes = Array(routingKey.utf8)
        let written = Self.noProperties.withUnsafeBytes { properties in
            body.withUnsafeBytes { body in
                exchangeBytes.withUnsafeBytes { exchange in
                    keyBytes.withUnsafeBytes { key in
                        out.withUnsafeMutableBufferPointer { out in
                            crabbitmq_encode_publish(
                                out.baseAddress, frameMax, channel, exchange.baseAddress, exchange.count,
                                key.baseAddress, key.count, mandatory ? 1 : 0, properties.baseAddress,
                                body.baseAddress, body.count)
                        }
                    }
                }
            }
        }
        guard written >= 0 else { return nil }
        #expect(written <= limit)
        return Array(out[..<written])
    }

    /// Splits encoded bytes into (type, channel, payload) frames, checking each frame's end octet.
    private func frames(_ bytes: [UInt8]) -> [(type: UInt8, channel: UInt16, payload: [UInt8])] {
        var result: [(UInt8, UInt16, [UInt8])] = []
        var offset = 0
        while offset < bytes.count {
            let channel = UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset + 2])
            let size = bytes[(offset + 3)..<(offset + 7)].reduce(0) { $0 << 8 | Int($1) }
            #expect(bytes[offset + 7 + size] == 0xCE)
            result.append((bytes[offset], channel, Array(bytes[(offset + 7)..<(offset + 7 + size)])))
            offset += 8 + size
        }
        return result
    }

    @Test func writesMethodHeaderAndBodyFramesAsTheProtocolLaysThemOut() throws {
        let encoded = try #require(encode(body: Array("hello".utf8), frameMax: 131_072))
        let frames = frames(encoded)
        #expect(frames.map(\.type) == [1, 2, 3])
        #expect(frames.allSatisfy { $0.channel == 2 })
        // basic.publish (60, 40): ticket 0, exchange "ex", routing key "rk", mandatory bit set.
        #expect(frames[0].payload == [0, 0x3C, 0, 0x28, 0, 0, 2] + Array("ex".utf8) + [2] + Array("rk".utf8) + [1])
        // Class 60, weight 0, body size 5, no property flags.
        #expect(frames[1].payload == [0, 0x3C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0])
        #expect(frames[2].payload == Array("hello".utf8))
        #expect(encoded.count == 56)
    }

    @Test func splitsABodyLargerThanAFrameIntoFramesOfFrameMaxMinusEight() throws {
        let body = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        let frames = frames(try #require(encode(body: body, frameMax: 4096)))
        let bodyFrames = frames.dropFirst(2)
        #expect(bodyFrames.map(\.payload.count) == [4088, 4088, 1824])
        #expect(bodyFrames.flatMap(\.payload) == body)
    }

    @Test func writesNoBodyFrameForAnEmptyBody() throws {
        let frames = frames(try #require(encode(body: [], frameMax: 131_072)))
        #expect(frames.map(\.type) == [1, 2])
    }

    @Test func refusesAMethodThatDoesNotFitInOneFrame() {
        #expect(encode(body: [1], frameMax: 20) == nil)
    }
}
