#include "CRabbitMQShim.h"

#include <string.h>

#if __has_include(<rabbitmq-c/amqp.h>)
#include <rabbitmq-c/amqp.h>
#include <rabbitmq-c/framing.h>
#else
#include <amqp.h>
#include <amqp_framing.h>
#endif

size_t crabbitmq_publish_size_limit(size_t body_len, size_t frame_max) {
    size_t payload_max = frame_max - 8;
    return 2 * frame_max + body_len + 8 * ((body_len + payload_max - 1) / payload_max);
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)(v >> 16)); put16(p + 2, (uint16_t)v); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)(v >> 32)); put32(p + 4, (uint32_t)v); }

ssize_t crabbitmq_encode_publish(uint8_t *out, size_t frame_max, uint16_t channel,
                                 const void *exchange_bytes, size_t exchange_len,
                                 const void *routing_key_bytes, size_t routing_key_len,
                                 int mandatory, const void *properties_bytes,
                                 const void *body_bytes, size_t body_len) {
    enum { header = 7, footer = 1 };
    amqp_bytes_t exchange = { exchange_len, (void *)exchange_bytes };
    amqp_bytes_t routing_key = { routing_key_len, (void *)routing_key_bytes };
    amqp_bytes_t body = { body_len, (void *)body_bytes };
    amqp_basic_properties_t *properties = (amqp_basic_properties_t *)properties_bytes;
    size_t offset = 0;

    amqp_basic_publish_t publish = { 0, exchange, routing_key, mandatory ? 1 : 0, 0 };
    uint8_t *frame = out;
    frame[0] = AMQP_FRAME_METHOD;
    put16(frame + 1, channel);
    put32(frame + header, AMQP_BASIC_PUBLISH_METHOD);
    amqp_bytes_t arguments = { frame_max - header - 4 - footer, frame + header + 4 };
    int written = amqp_encode_method(AMQP_BASIC_PUBLISH_METHOD, &publish, arguments);
    if (written < 0) return written;
    put32(frame + 3, (uint32_t)(4 + written));
    frame[header + 4 + written] = AMQP_FRAME_END;
    offset += header + 4 + (size_t)written + footer;

    frame = out + offset;
    frame[0] = AMQP_FRAME_HEADER;
    put16(frame + 1, channel);
    put16(frame + header, AMQP_BASIC_CLASS);
    put16(frame + header + 2, 0); /* weight */
    put64(frame + header + 4, body.len);
    amqp_bytes_t encoded = { frame_max - header - 12 - footer, frame + header + 12 };
    written = amqp_encode_properties(AMQP_BASIC_CLASS, properties, encoded);
    if (written < 0) return written;
    put32(frame + 3, (uint32_t)(12 + written));
    frame[header + 12 + written] = AMQP_FRAME_END;
    offset += header + 12 + (size_t)written + footer;

    size_t payload_max = frame_max - header - footer;
    for (size_t sent = 0; sent < body.len;) {
        size_t length = body.len - sent < payload_max ? body.len - sent : payload_max;
        frame = out + offset;
        frame[0] = AMQP_FRAME_BODY;
        put16(frame + 1, channel);
        put32(frame + 3, (uint32_t)length);
        memcpy(frame + header, (const uint8_t *)body.bytes + sent, length);
        frame[header + length] = AMQP_FRAME_END;
        offset += header + length + footer;
        sent += length;
    }
    return (ssize_t)offset;
}
