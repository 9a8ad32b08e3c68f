#ifndef CRABBITMQ_SHIM_ENCODER_H
#define CRABBITMQ_SHIM_ENCODER_H

// Plain C types only, so that this header does not pull rabbitmq-c's declarations into a second Clang
// module beside CRabbitMQ; the implementation includes them.
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// The most bytes crabbitmq_encode_publish writes for a body of body_len bytes: a method frame and a
/// content header frame of at most frame_max bytes each, then the body in frames of frame_max - 8
/// payload bytes.
size_t crabbitmq_publish_size_limit(size_t body_len, size_t frame_max);

/// Writes the frames of one basic.publish (method, content header, body) into out, byte for byte as
/// amqp_basic_publish sends them, so that many publishes can leave in one write instead of three sends
/// each. properties points to an amqp_basic_properties_t. out must hold
/// crabbitmq_publish_size_limit(body_len, frame_max) bytes. Returns the bytes written, or a negative
/// amqp_status_enum (a method or properties that do not fit in one frame).
ssize_t crabbitmq_encode_publish(uint8_t *out, size_t frame_max, uint16_t channel,
                                 const void *exchange, size_t exchange_len,
                                 const void *routing_key, size_t routing_key_len,
                                 int mandatory, const void *properties,
                                 const void *body, size_t body_len);

#endif
