internal import CRabbitMQ
import Foundation

/// Owns the C memory behind the `amqp_bytes_t`, tables and properties handed to librabbitmq for one call.
///
/// librabbitmq only borrows what it is given, so everything stays allocated until the arena is reset,
/// after the call returned. It bump-allocates from a reused block, so a publish costs no malloc.
final class AMQPCArena {
    private static let blockSize = 16 * 1024
    private let block = UnsafeMutableRawPointer.allocate(byteCount: AMQPCArena.blockSize, alignment: 16)
    private var used = 0
    private var oversized: [UnsafeMutableRawPointer] = []

    deinit {
        reset()
        block.deallocate()
    }

    func reset() {
        used = 0
        for allocation in oversized { allocation.deallocate() }
        oversized.removeAll(keepingCapacity: true)
    }

    private func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let start = (used + alignment - 1) & ~(alignment - 1)
        if start + byteCount <= Self.blockSize {
            used = start + byteCount
            return block + start
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: alignment)
        oversized.append(memory)
        return memory
    }

    private func allocate<T>(_ type: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        allocate(byteCount: MemoryLayout<T>.stride * max(capacity, 1), alignment: MemoryLayout<T>.alignment)
            .bindMemory(to: T.self, capacity: max(capacity, 1))
    }

    func bytes(_ text: String) -> amqp_bytes_t {
        var text = text
        return text.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }

    func bytes(_ buffer: UnsafeRawBufferPointer) -> amqp_bytes_t {
        guard buffer.count > 0 else { return amqp_bytes_t(len: 0, bytes: nil) }
        let memory = allocate(byteCount: buffer.count, alignment: 1)
        memory.copyMemory(from: buffer.baseAddress!, byteCount: buffer.count)
        return amqp_bytes_t(len: buffer.count, bytes: memory)
    }

    func table(_ table: AMQPFieldTable) -> amqp_table_t {
        guard !table.isEmpty else { return amqp_table_t(num_entries: 0, entries: nil) }
        let entries = allocate(amqp_table_entry_t.self, capacity: table.count)
        for (offset, (key, value)) in table.sorted(by: { $0.key < $1.key }).enumerated() {
            (entries + offset).initialize(to: amqp_table_entry_t(key: bytes(key), value: field(value)))
        }
        return amqp_table_t(num_entries: Int32(table.count), entries: entries)
    }

    func field(_ value: AMQPFieldValue) -> amqp_field_value_t {
        var field = amqp_field_value_t()
        func kind(_ character: Character) { field.kind = character.asciiValue! }
        switch value {
        case .bool(let v): kind("t"); field.value.boolean = v ? 1 : 0
        case .int8(let v): kind("b"); field.value.i8 = v
        case .uint8(let v): kind("B"); field.value.u8 = v
        case .int16(let v): kind("s"); field.value.i16 = v
        case .uint16(let v): kind("u"); field.value.u16 = v
        case .int32(let v): kind("I"); field.value.i32 = v
        case .uint32(let v): kind("i"); field.value.u32 = v
        case .int64(let v): kind("l"); field.value.i64 = v
        case .uint64(let v): kind("L"); field.value.u64 = v
        case .float(let v): kind("f"); field.value.f32 = v
        case .double(let v): kind("d"); field.value.f64 = v
        case .decimal(let scale, let v): kind("D"); field.value.decimal = amqp_decimal_t(decimals: scale, value: v)
        case .string(let v): kind("S"); field.value.bytes = bytes(v)
        case .bytes(let v): kind("x"); field.value.bytes = v.withUnsafeBytes { bytes($0) }
        case .timestamp(let v): kind("T"); field.value.u64 = v.secondsSince1970
        case .table(let v): kind("F"); field.value.table = table(v)
        case .void: kind("V")
        case .array(let values):
            kind("A")
            let entries = allocate(amqp_field_value_t.self, capacity: values.count)
            for (offset, element) in values.enumerated() { (entries + offset).initialize(to: self.field(element)) }
            field.value.array = amqp_array_t(num_entries: Int32(values.count), entries: entries)
        }
        return field
    }

    func properties(_ properties: AMQPProperties) -> amqp_basic_properties_t {
        var c = amqp_basic_properties_t()
        var flags: UInt32 = 0
        func set(_ text: String?, _ flag: UInt32, _ field: WritableKeyPath<amqp_basic_properties_t, amqp_bytes_t>) {
            guard let text else { return }
            c[keyPath: field] = bytes(text)
            flags |= flag
        }
        set(properties.contentType, PropertyFlag.contentType, \.content_type)
        set(properties.contentEncoding, PropertyFlag.contentEncoding, \.content_encoding)
        set(properties.correlationID, PropertyFlag.correlationID, \.correlation_id)
        set(properties.replyTo, PropertyFlag.replyTo, \.reply_to)
        set(properties.expiration, PropertyFlag.expiration, \.expiration)
        set(properties.messageID, PropertyFlag.messageID, \.message_id)
        set(properties.type, PropertyFlag.type, \.type)
        set(properties.userID, PropertyFlag.userID, \.user_id)
        set(properties.appID, PropertyFlag.appID, \.app_id)
        if let headers = properties.headers {
            c.headers = table(headers)
            flags |= PropertyFlag.headers
        }
        if let mode = properties.deliveryMode {
            c.delivery_mode = mode.rawValue
            flags |= PropertyFlag.deliveryMode
        }
        if let priority = properties.priority {
            c.priority = priority
            flags |= PropertyFlag.priority
        }
        if let timestamp = properties.timestamp {
            c.timestamp = timestamp.secondsSince1970
            flags |= PropertyFlag.timestamp
        }
        c._flags = flags
        return c
    }
}

/// Copies of what librabbitmq decoded into its own pools, which it reuses once the frame is released.
///
/// Header tables and arrays are copied at most ``maximumDepth`` levels deep; anything deeper becomes
/// `.void` and `truncatedHeaders` says so. A client can nest tables as deep as a frame holds (about
/// 18,000 levels in 128 KiB), and every later step (copying, re-encoding, freeing an indirect enum)
/// would recurse that deep again.
struct AMQPCDecoding {
    /// Deeper than any header a client legitimately sends (`x-death` is an array of tables: three).
    static let maximumDepth = 32

    /// Whether a table or array was cut at ``maximumDepth``.
    private(set) var truncatedHeaders = false

    /// Text as the client sent it; if it is not UTF-8, every byte outside ASCII becomes a `?`. The usual
    /// replacement character takes three bytes for one, so a short string of 255 bytes could grow past
    /// what a copy, an event's `correlation_id` or a reply's routing key can carry back to the broker.
    static func string(_ bytes: amqp_bytes_t) -> String {
        guard bytes.len > 0, let base = bytes.bytes else { return "" }
        let buffer = UnsafeRawBufferPointer(start: base, count: bytes.len)
        if let text = String(validating: buffer, as: UTF8.self) { return text }
        return String(decoding: buffer.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    static func byteArray(_ bytes: amqp_bytes_t) -> [UInt8] {
        guard bytes.len > 0, let base = bytes.bytes else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: bytes.len))
    }

    mutating func table(_ table: amqp_table_t, depth: Int = 1) -> AMQPFieldTable {
        var result: AMQPFieldTable = [:]
        guard table.num_entries > 0, let entries = table.entries else { return result }
        for index in 0..<Int(table.num_entries) {
            let entry = entries[index]
            result[Self.string(entry.key)] = field(entry.value, depth: depth)
        }
        return result
    }

    mutating func field(_ field: amqp_field_value_t, depth: Int) -> AMQPFieldValue {
        switch Character(Unicode.Scalar(field.kind)) {
        case "t": return .bool(field.value.boolean != 0)
        case "b": return .int8(field.value.i8)
        case "B": return .uint8(field.value.u8)
        case "s": return .int16(field.value.i16)
        case "u": return .uint16(field.value.u16)
        case "I": return .int32(field.value.i32)
        case "i": return .uint32(field.value.u32)
        case "l": return .int64(field.value.i64)
        case "L": return .uint64(field.value.u64)
        case "f": return .float(field.value.f32)
        case "d": return .double(field.value.f64)
        case "D": return .decimal(scale: field.value.decimal.decimals, value: field.value.decimal.value)
        case "S": return .string(Self.string(field.value.bytes))
        case "x": return .bytes(Self.byteArray(field.value.bytes))
        case "T": return .timestamp(AMQPTimestamp(secondsSince1970: field.value.u64))
        case "F":
            guard depth < Self.maximumDepth else { return truncated() }
            return .table(table(field.value.table, depth: depth + 1))
        case "A":
            guard depth < Self.maximumDepth else { return truncated() }
            let array = field.value.array
            guard array.num_entries > 0, let entries = array.entries else { return .array([]) }
            var values: [AMQPFieldValue] = []
            values.reserveCapacity(Int(array.num_entries))
            for index in 0..<Int(array.num_entries) { values.append(self.field(entries[index], depth: depth + 1)) }
            return .array(values)
        default: return .void
        }
    }

    private mutating func truncated() -> AMQPFieldValue {
        truncatedHeaders = true
        return .void
    }

    mutating func properties(_ c: amqp_basic_properties_t) -> AMQPProperties {
        func text(_ flag: UInt32, _ value: amqp_bytes_t) -> String? { c._flags & flag != 0 ? Self.string(value) : nil }
        return AMQPProperties(
            contentType: text(PropertyFlag.contentType, c.content_type),
            contentEncoding: text(PropertyFlag.contentEncoding, c.content_encoding),
            headers: c._flags & PropertyFlag.headers != 0 ? table(c.headers) : nil,
            deliveryMode: c._flags & PropertyFlag.deliveryMode != 0 ? AMQPProperties.DeliveryMode(rawValue: c.delivery_mode) : nil,
            priority: c._flags & PropertyFlag.priority != 0 ? c.priority : nil,
            correlationID: text(PropertyFlag.correlationID, c.correlation_id),
            replyTo: text(PropertyFlag.replyTo, c.reply_to),
            expiration: text(PropertyFlag.expiration, c.expiration),
            messageID: text(PropertyFlag.messageID, c.message_id),
            timestamp: c._flags & PropertyFlag.timestamp != 0 ? AMQPTimestamp(secondsSince1970: c.timestamp) : nil,
            type: text(PropertyFlag.type, c.type),
            userID: text(PropertyFlag.userID, c.user_id),
            appID: text(PropertyFlag.appID, c.app_id)
        )
    }
}

/// The basic class's property flags (AMQP 0-9-1 §4.2.6), which Swift cannot import from their macros.
enum PropertyFlag {
    static let contentType: UInt32 = 1 << 15
    static let contentEncoding: UInt32 = 1 << 14
    static let headers: UInt32 = 1 << 13
    static let deliveryMode: UInt32 = 1 << 12
    static let priority: UInt32 = 1 << 11
    static let correlationID: UInt32 = 1 << 10
    static let replyTo: UInt32 = 1 << 9
    static let expiration: UInt32 = 1 << 8
    static let messageID: UInt32 = 1 << 7
    static let timestamp: UInt32 = 1 << 6
    static let type: UInt32 = 1 << 5
    static let userID: UInt32 = 1 << 4
    static let appID: UInt32 = 1 << 3
}
