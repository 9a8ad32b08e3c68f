#include "CRawAMQPLoop.h"

#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#if __has_include(<rabbitmq-c/amqp.h>)
#include <rabbitmq-c/amqp.h>
#include <rabbitmq-c/framing.h>
#include <rabbitmq-c/tcp_socket.h>
#else
#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_tcp_socket.h>
#endif

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int fail(crawloop_result *result, const char *what, int status) {
    result->failed = 1;
    snprintf(result->message, sizeof result->message, "%s: %s", what, amqp_error_string2(status));
    return -1;
}

static int rpc_failed(amqp_connection_state_t conn, crawloop_result *result, const char *what) {
    amqp_rpc_reply_t reply = amqp_get_rpc_reply(conn);
    if (reply.reply_type == AMQP_RESPONSE_NORMAL) return 0;
    result->failed = 1;
    snprintf(result->message, sizeof result->message, "%s failed (reply type %d)", what, (int)reply.reply_type);
    return -1;
}

int crawloop_run(const char *host, int port, const char *user, const char *password, const char *vhost,
                 const char *in_queue, const char *out_queue, uint16_t prefetch, uint64_t count,
                 crawloop_result *result) {
    memset(result, 0, sizeof *result);
    amqp_connection_state_t conn = amqp_new_connection();
    amqp_socket_t *socket = amqp_tcp_socket_new(conn);
    int status = amqp_socket_open(socket, host, port);
    if (status != AMQP_STATUS_OK) { amqp_destroy_connection(conn); return fail(result, "connect", status); }
    amqp_rpc_reply_t login = amqp_login(conn, vhost, 0, 131072, 0, AMQP_SASL_METHOD_PLAIN, user, password);
    if (login.reply_type != AMQP_RESPONSE_NORMAL) { amqp_destroy_connection(conn); return fail(result, "login", AMQP_STATUS_CONNECTION_CLOSED); }

    const amqp_channel_t channel = 1;
    amqp_channel_open(conn, channel);
    if (rpc_failed(conn, result, "channel.open")) goto done;
    amqp_confirm_select(conn, channel);
    if (rpc_failed(conn, result, "confirm.select")) goto done;
    amqp_basic_qos(conn, channel, 0, prefetch, 0);
    if (rpc_failed(conn, result, "basic.qos")) goto done;
    amqp_basic_consume(conn, channel, amqp_cstring_bytes(in_queue), amqp_empty_bytes, 0, 0, 0, amqp_empty_table);
    if (rpc_failed(conn, result, "basic.consume")) goto done;

    /* Deliveries and publishes happen in the same order on one channel, so the n-th publish answers the
       delivery with tag n, and a confirm up to n lets one multiple ack settle deliveries 1..n. */
    uint64_t published = 0, confirmed = 0, acked = 0;
    double started = 0;
    amqp_basic_properties_t properties;
    memset(&properties, 0, sizeof properties);
    properties._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG;
    properties.content_type = amqp_cstring_bytes("application/json");
    properties.delivery_mode = 2;

    while (acked < count) {
        amqp_frame_t frame;
        struct timeval timeout = {10, 0};
        status = amqp_simple_wait_frame_noblock(conn, &frame, &timeout);
        if (status != AMQP_STATUS_OK) { fail(result, "waiting for a frame", status); goto done; }
        if (frame.frame_type != AMQP_FRAME_METHOD) continue;

        if (frame.payload.method.id == AMQP_BASIC_DELIVER_METHOD) {
            amqp_message_t message;
            amqp_rpc_reply_t read = amqp_read_message(conn, channel, &message, 0);
            if (read.reply_type != AMQP_RESPONSE_NORMAL) { fail(result, "reading a message", read.library_error); goto done; }
            if (started == 0) started = now_seconds();
            if (message.properties._flags & AMQP_BASIC_MESSAGE_ID_FLAG) {
                properties._flags |= AMQP_BASIC_CORRELATION_ID_FLAG;
                properties.correlation_id = message.properties.message_id;
            } else {
                properties._flags &= ~AMQP_BASIC_CORRELATION_ID_FLAG;
            }
            status = amqp_basic_publish(conn, channel, amqp_empty_bytes, amqp_cstring_bytes(out_queue), 0, 0,
                                        &properties, message.body);
            amqp_destroy_message(&message);
            if (status != AMQP_STATUS_OK) { fail(result, "publishing", status); goto done; }
            published++;
        } else if (frame.payload.method.id == AMQP_BASIC_ACK_METHOD) {
            amqp_basic_ack_t *ack = (amqp_basic_ack_t *)frame.payload.method.decoded;
            confirmed = ack->delivery_tag;
            if (confirmed > acked) {
                status = amqp_basic_ack(conn, channel, confirmed, 1);
                if (status != AMQP_STATUS_OK) { fail(result, "acking", status); goto done; }
                acked = confirmed;
            }
        } else if (frame.payload.method.id == AMQP_BASIC_NACK_METHOD) {
            result->failed = 1;
            snprintf(result->message, sizeof result->message, "the broker nacked a publish");
            goto done;
        } else if (frame.payload.method.id == AMQP_CHANNEL_CLOSE_METHOD ||
                   frame.payload.method.id == AMQP_CONNECTION_CLOSE_METHOD) {
            result->failed = 1;
            snprintf(result->message, sizeof result->message, "the broker closed the channel or connection");
            goto done;
        }
        amqp_maybe_release_buffers(conn);
    }
    result->seconds = now_seconds() - started;
    result->processed = acked;

done:
    amqp_channel_close(conn, channel, AMQP_REPLY_SUCCESS);
    amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);
    return result->failed ? -1 : 0;
}
