#ifndef CRAWAMQPLOOP_H
#define CRAWAMQPLOOP_H

#include <stdint.h>

/// What one run of the plain-C loop measured.
typedef struct {
    double seconds;          ///< from the first delivery to the last ack
    uint64_t processed;      ///< commands consumed, answered with a confirmed publish, and acked
    int failed;              ///< non-zero when the run stopped early; `message` says why
    char message[256];
} crawloop_result;

/// The transport benchmark's ceiling: consume `count` messages from `in_queue` on virtual host `vhost`,
/// publish one message per delivery to `out_queue` with publisher confirms, and ack each delivery (with
/// `multiple`) once its publish is confirmed. Pipelined: publishes never wait for earlier confirms.
/// The published message carries the delivery's body, and its `message_id` as `correlation_id`, so
/// that a client can match answers to requests as it does with the worker's events.
int crawloop_run(const char *host, int port, const char *user, const char *password, const char *vhost,
                 const char *in_queue, const char *out_queue, uint16_t prefetch, uint64_t count,
                 crawloop_result *result);

#endif
