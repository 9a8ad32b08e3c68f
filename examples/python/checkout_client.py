#!/usr/bin/env python3
"""A checkout-worker client in Python: syncs a cart, places an order, prints both result events.

    pip install -r requirements.txt
    CHECKOUT_AMQP_URL=amqp://checkout:checkout@localhost:5672/%2F python checkout_client.py

Each command is published to the `checkout.commands` exchange with the properties of the message
contract, and its result event is awaited on an exclusive reply queue (`reply_to`) by its
`correlation_id`. Exits 0 when the order is placed, 1 on a rejection, an unexpected event or a timeout.
"""
import argparse
import json
import os
import sys
import time
import uuid

import pika


def request(channel, reply_queue, routing_key, body, expected, timeout):
    """Publishes one command and returns the body of its result event, which must be `expected`."""
    message_id = str(uuid.uuid4())
    correlation_id = f"python-client-{message_id}"
    channel.basic_publish(
        exchange="checkout.commands",
        routing_key=routing_key,
        body=json.dumps(body).encode(),
        properties=pika.BasicProperties(
            message_id=message_id,
            correlation_id=correlation_id,
            reply_to=reply_queue,
            content_type="application/json",
            delivery_mode=pika.DeliveryMode.Persistent,
            timestamp=int(time.time()),
        ),
        mandatory=True,  # with publisher confirms: raises if no worker ever declared the queues
    )
    print(f"sent {routing_key} message_id={message_id}")
    deadline = time.monotonic() + timeout
    for method, properties, event in channel.consume(reply_queue, auto_ack=True, inactivity_timeout=0.5):
        if method is not None and properties.correlation_id == correlation_id:
            channel.cancel()
            print(f"got {properties.type} message_id={properties.message_id}:")
            print(json.dumps(json.loads(event), indent=2))
            if properties.type != expected:
                sys.exit(f"expected {expected}, got {properties.type}")
            return json.loads(event)
        if time.monotonic() > deadline:
            channel.cancel()
            sys.exit(f"no result for {routing_key} within {timeout}s: is a worker running?")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--amqp-url", default=os.environ.get("CHECKOUT_AMQP_URL", "amqp://guest:guest@localhost:5672/%2F"),
                        help="the broker (default: $CHECKOUT_AMQP_URL, else guest on localhost)")
    parser.add_argument("--payment-token", default="tok_visa", help="sandbox token: tok_visa approves, tok_chargeDeclined declines")
    parser.add_argument("--timeout", type=float, default=30, help="seconds to wait for each result event")
    args = parser.parse_args()

    try:
        connection = pika.BlockingConnection(pika.URLParameters(args.amqp_url))
    except pika.exceptions.AMQPError as error:
        sys.exit(f"cannot connect to the broker: {error!r}")
    try:
        channel = connection.channel()
        channel.confirm_delivery()
        reply_queue = channel.queue_declare(queue="", exclusive=True).method.queue

        cart_id, customer_id = f"cart-{uuid.uuid4().hex[:12]}", "cust-7"
        cart = request(channel, reply_queue, "cart.sync", {
            "cartId": cart_id, "customerId": customer_id, "baseVersion": 0, "currency": "EUR",
            "items": [{"sku": "SKU-RED-M", "quantity": 2}, {"sku": "SKU-BLUE-L", "quantity": 1}],
        }, "cart.synced", args.timeout)
        # The worker prices the cart from its catalog; the order confirms the version and total it saw.
        request(channel, reply_queue, "order.place", {
            "cartId": cart_id, "customerId": customer_id, "cartVersion": cart["version"],
            "expectedTotal": cart["subtotal"], "currency": cart["currency"],
            "payment": {"token": args.payment_token},
        }, "order.placed", args.timeout)
    except pika.exceptions.AMQPError as error:
        sys.exit(f"broker error: {error!r}")
    finally:
        if connection.is_open:
            connection.close()


if __name__ == "__main__":
    main()
