#ifndef CRABBITMQ_SHIM_H
#define CRABBITMQ_SHIM_H

// rabbitmq-c 0.12 moved its headers under rabbitmq-c/; Debian 12 ships 0.11 with them at the top level.
#if __has_include(<rabbitmq-c/amqp.h>)
#include <rabbitmq-c/amqp.h>
#include <rabbitmq-c/framing.h>
#include <rabbitmq-c/tcp_socket.h>
#include <rabbitmq-c/ssl_socket.h>
#else
#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_tcp_socket.h>
#include <amqp_ssl_socket.h>
#endif
#include <openssl/ssl.h>
#include <string.h>
#include <sys/types.h>

/// amqp_login_with_properties is variadic, which Swift cannot call; this fixes it to SASL PLAIN.
static inline amqp_rpc_reply_t crabbitmq_login_plain(amqp_connection_state_t state, const char *vhost,
                                                     int channel_max, int frame_max, int heartbeat,
                                                     const amqp_table_t *client_properties,
                                                     const char *user, const char *password) {
    return amqp_login_with_properties(state, vhost, channel_max, frame_max, heartbeat, client_properties,
                                      AMQP_SASL_METHOD_PLAIN, user, password);
}

/// The most bytes crabbitmq_encode_publish writes for a body of body_len bytes: a method frame and a
/// content header frame of at most frame_max bytes each, then the body in frames of frame_max - 8
/// payload bytes.
static inline size_t crabbitmq_publish_size_limit(size_t body_len, size_t frame_max) {
    size_t payload_max = frame_max - 8;
    return 2 * frame_max + body_len + 8 * ((body_len + payload_max - 1) / payload_max);
}

static inline void crabbitmq_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static inline void crabbitmq_put32(uint8_t *p, uint32_t v) { crabbitmq_put16(p, (uint16_t)(v >> 16)); crabbitmq_put16(p + 2, (uint16_t)v); }
static inline void crabbitmq_put64(uint8_t *p, uint64_t v) { crabbitmq_put32(p, (uint32_t)(v >> 32)); crabbitmq_put32(p + 4, (uint32_t)v); }

/// Writes the frames of one basic.publish (method, content header, body) into out, byte for byte as
/// amqp_basic_publish sends them, so that many publishes can leave in one write instead of three sends
/// each. out must hold crabbitmq_publish_size_limit(body.len, frame_max) bytes. Returns the bytes
/// written, or a negative amqp_status_enum (a method or properties that do not fit in one frame).
static inline ssize_t crabbitmq_encode_publish(uint8_t *out, size_t frame_max, amqp_channel_t channel,
                                               amqp_bytes_t exchange, amqp_bytes_t routing_key,
                                               amqp_boolean_t mandatory, amqp_basic_properties_t *properties,
                                               amqp_bytes_t body) {
    enum { header = 7, footer = 1 };
    size_t offset = 0;

    amqp_basic_publish_t publish = { 0, exchange, routing_key, mandatory, 0 };
    uint8_t *frame = out;
    frame[0] = AMQP_FRAME_METHOD;
    crabbitmq_put16(frame + 1, channel);
    crabbitmq_put32(frame + header, AMQP_BASIC_PUBLISH_METHOD);
    amqp_bytes_t arguments = { frame_max - header - 4 - footer, frame + header + 4 };
    int written = amqp_encode_method(AMQP_BASIC_PUBLISH_METHOD, &publish, arguments);
    if (written < 0) return written;
    crabbitmq_put32(frame + 3, (uint32_t)(4 + written));
    frame[header + 4 + written] = AMQP_FRAME_END;
    offset += header + 4 + (size_t)written + footer;

    frame = out + offset;
    frame[0] = AMQP_FRAME_HEADER;
    crabbitmq_put16(frame + 1, channel);
    crabbitmq_put16(frame + header, AMQP_BASIC_CLASS);
    crabbitmq_put16(frame + header + 2, 0); /* weight */
    crabbitmq_put64(frame + header + 4, body.len);
    amqp_bytes_t encoded = { frame_max - header - 12 - footer, frame + header + 12 };
    written = amqp_encode_properties(AMQP_BASIC_CLASS, properties, encoded);
    if (written < 0) return written;
    crabbitmq_put32(frame + 3, (uint32_t)(12 + written));
    frame[header + 12 + written] = AMQP_FRAME_END;
    offset += header + 12 + (size_t)written + footer;

    size_t payload_max = frame_max - header - footer;
    for (size_t sent = 0; sent < body.len;) {
        size_t length = body.len - sent < payload_max ? body.len - sent : payload_max;
        frame = out + offset;
        frame[0] = AMQP_FRAME_BODY;
        crabbitmq_put16(frame + 1, channel);
        crabbitmq_put32(frame + 3, (uint32_t)length);
        memcpy(frame + header, (const uint8_t *)body.bytes + sent, length);
        frame[header + length] = AMQP_FRAME_END;
        offset += header + length + footer;
        sent += length;
    }
    return (ssize_t)offset;
}

#endif
