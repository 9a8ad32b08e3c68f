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

/// amqp_login_with_properties is variadic, which Swift cannot call; this fixes it to SASL PLAIN.
static inline amqp_rpc_reply_t crabbitmq_login_plain(amqp_connection_state_t state, const char *vhost,
                                                     int channel_max, int frame_max, int heartbeat,
                                                     const amqp_table_t *client_properties,
                                                     const char *user, const char *password) {
    return amqp_login_with_properties(state, vhost, channel_max, frame_max, heartbeat, client_properties,
                                      AMQP_SASL_METHOD_PLAIN, user, password);
}

#endif
