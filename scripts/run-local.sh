#!/usr/bin/env bash
# The README's run command: the worker on its embedded defaults, on a fresh Debian machine with Swift.
#
#   scripts/run-local.sh [checkout-worker run flags...]
#
# 1. installs the Debian packages the build needs (librabbitmq-dev, libssl-dev; rabbitmq-server),
# 2. builds checkout-worker (debug; CONFIGURATION=release for a release build),
# 3. if no broker answers at CHECKOUT_AMQP_URL (default amqp://guest:guest@localhost:5672/%2F),
#    starts a local RabbitMQ node on 5672 with its state in .local-broker/ (stopped on exit),
# 4. imports demo-catalog.json into the SQLite database (CHECKOUT_DATABASE_URL, default
#    sqlite://checkout.sqlite),
# 5. runs `checkout-worker run` with the sandbox payment processor until Ctrl-C or SIGTERM.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
SERVERS="$ROOT/scripts/test-servers.sh"
CONFIGURATION="${CONFIGURATION:-debug}"
say() { printf '==> %s\n' "$*" >&2; }

# The same script that runs the test servers, on the standard ports and its own state folder.
export SERVERS_STATE="$ROOT/.local-broker" RMQ_NODE="checkout-local@localhost" \
    AMQP_PORT=5672 AMQPS_PORT=5671 DIST_PORT=25672 EPMD_PORT=24369 CTL_DIST_PORT_MIN=25680 CTL_DIST_PORT_MAX=25699

"$SERVERS" install

say "building checkout-worker ($CONFIGURATION)"
swift build -c "$CONFIGURATION" --product checkout-worker
WORKER="$(swift build -c "$CONFIGURATION" --show-bin-path)/checkout-worker"

export CHECKOUT_AMQP_URL="${CHECKOUT_AMQP_URL:-amqp://guest:guest@localhost:5672/%2F}"
export CHECKOUT_DATABASE_URL="${CHECKOUT_DATABASE_URL:-sqlite://checkout.sqlite}"
export CHECKOUT_LOG_FORMAT="${CHECKOUT_LOG_FORMAT:-text}"

# host:port of the first broker URL
first="${CHECKOUT_AMQP_URL%%,*}"
hostport="${first#*://}"; hostport="${hostport#*@}"; hostport="${hostport%%/*}"
host="${hostport%%:*}"; port="${hostport##*:}"; [[ "$port" != "$hostport" ]] || port=5672

started_broker=0
stop_broker() {
    if ((started_broker)); then
        say "stopping the local RabbitMQ node"
        "$SERVERS" stop-rabbitmq || true
    fi
}
trap stop_broker EXIT

if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
    say "a broker answers at $host:$port: using it"
else
    say "no broker at $host:$port: starting a local RabbitMQ node (state in .local-broker/)"
    "$SERVERS" start-rabbitmq
    started_broker=1
fi

say "importing demo-catalog.json into $CHECKOUT_DATABASE_URL"
"$WORKER" catalog import demo-catalog.json

say "running checkout-worker (Ctrl-C to stop); in another shell try:"
say "  $WORKER send sync-cart --wait --json '{\"cartId\":\"cart-42\",\"customerId\":\"cust-7\",\"baseVersion\":0,\"currency\":\"EUR\",\"items\":[{\"sku\":\"SKU-RED-M\",\"quantity\":2},{\"sku\":\"SKU-BLUE-L\",\"quantity\":1}]}'"
set +e
"$WORKER" run "$@"
rc=$?
set -e
exit "$rc"
