#!/usr/bin/env bash
# Private RabbitMQ, PostgreSQL and localstripe servers for the test suite.
#
#   scripts/test-servers.sh start             install missing Debian packages, make certs, start the three servers
#   scripts/test-servers.sh stop              stop what `start` started (safe when nothing runs)
#   scripts/test-servers.sh env               print the `export NAME=value` lines the tests read
#   scripts/test-servers.sh status            say what runs (exit 0 when all three run, 3 otherwise)
#   scripts/test-servers.sh install           only install the missing Debian packages (the build needs librabbitmq-dev)
#   scripts/test-servers.sh restart-rabbitmq  stop and start the whole RabbitMQ node (Erlang VM included)
#   scripts/test-servers.sh start-rabbitmq    start only RabbitMQ; stop-rabbitmq stops it
#   scripts/test-servers.sh start-localstripe start only localstripe (installing it first); stop-localstripe stops it
#   scripts/test-servers.sh ctl ARGS...       rabbitmqctl against the private node (= scripts/rabbitmqctl.sh)
#   scripts/test-servers.sh start-cluster     start a three-node RabbitMQ cluster (for the chaos and cluster suites)
#   scripts/test-servers.sh stop-cluster      stop it (`stop` does too)
#   scripts/test-servers.sh cluster-env       print the `export` lines of the cluster (node URLs, node names)
#   scripts/test-servers.sh cluster-status    say which cluster nodes run (exit 0 when all three do, 3 otherwise)
#   scripts/test-servers.sh stop-cluster-node N   stop node N (1-3) of the cluster; start-cluster-node N starts it again
#   scripts/test-servers.sh cluster-ctl N ARGS... rabbitmqctl against node N of the cluster
#   source scripts/test-servers.sh            start (or reuse) the servers and export the env into this shell
#
# Everything lives in .servers/ at the repository root: certs/, rabbitmq/ (config, data, logs,
# its own HOME with the Erlang cookie), postgres/ (cluster, log), localstripe/ (a Python virtual
# environment with localstripe from PyPI, its log). Works as root and as a normal user.
#
# localstripe is a Stripe fake written by others, so the Stripe adapter is tested against more than our
# own assumptions. It keeps its state in memory, on 127.0.0.1:21480.
#
# Ports: AMQP 127.0.0.1:21672, AMQPS 127.0.0.1:21671, PostgreSQL 127.0.0.1:21432; Erlang
# distribution 21673, a private epmd on 21674, rabbitmqctl's own distribution 21680-21699.
# The cluster (state in .servers/cluster/): node N (1-3) has AMQP 22672+10(N-1), AMQPS one below,
# Erlang distribution one above (22671-22673, 22681-22683, 22691-22693); the nodes share one Erlang
# cookie and one epmd on 22674; their rabbitmqctl uses 22700-22719. Nothing shared with the single node.
# All of them sit below Linux's ephemeral range (32768-60999): in that range, the local end of any
# outgoing connection (thousands during a test run) can take a port just before a server binds it,
# and the server then fails with eaddrinuse.

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
    # Sourced: do the work in a child process (so `set -e` and friends stay out of the caller's
    # shell), then export the environment here.
    if "${BASH_SOURCE[0]}" start; then
        eval "$("${BASH_SOURCE[0]}" env)"
        return 0
    else
        return 1
    fi
fi

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
# The variables below may be set by the caller: scripts/run-local.sh uses them to run a broker on the
# standard ports for the worker's embedded defaults, with its state in .local-broker/.
STATE="${SERVERS_STATE:-$ROOT/.servers}"
CERTS="$STATE/certs"
RMQ_DIR="$STATE/rabbitmq"
PG_LINK="$STATE/postgres"

RMQ_NODE="${RMQ_NODE:-checkout-test@localhost}"
AMQP_PORT="${AMQP_PORT:-21672}"
AMQPS_PORT="${AMQPS_PORT:-21671}"
DIST_PORT="${DIST_PORT:-21673}"
EPMD_PORT="${EPMD_PORT:-21674}"
# rabbitmqctl's own distribution listener. Left alone, it takes DIST_PORT + 10000 and the ten
# above: in the ephemeral range, and the same for every node started this way.
CTL_DIST_PORT_MIN="${CTL_DIST_PORT_MIN:-21680}"
CTL_DIST_PORT_MAX="${CTL_DIST_PORT_MAX:-21699}"
PG_PORT=21432
PG_DB=checkout_test
PG_USER=checkout
PG_PASSWORD=checkout
PG_SUPERUSER=postgres
PG_SUPERUSER_PASSWORD=checkout-test-superuser

CLUSTER_DIR="$STATE/cluster"
CLUSTER_NODES=(1 2 3)
CLUSTER_NAME="${CLUSTER_NAME:-checkout-cluster}"
CLUSTER_AMQP_BASE="${CLUSTER_AMQP_BASE:-22672}"
CLUSTER_EPMD_PORT="${CLUSTER_EPMD_PORT:-22674}"
CLUSTER_CTL_DIST_PORT_MIN="${CLUSTER_CTL_DIST_PORT_MIN:-22700}"
CLUSTER_CTL_DIST_PORT_MAX="${CLUSTER_CTL_DIST_PORT_MAX:-22719}"
# Set for cluster nodes: their epmd serves the other nodes too, so stopping one node leaves it running.
SHARED_EPMD=0
# Set for cluster nodes: the nodes an empty node looks for to join at boot.
RMQ_PEERS=()

RMQ_START_TIMEOUT="${RMQ_START_TIMEOUT:-90}"
PG_START_TIMEOUT="${PG_START_TIMEOUT:-60}"
RMQ_SBIN=/usr/lib/rabbitmq/bin
PACKAGES=(rabbitmq-server librabbitmq-dev libssl-dev postgresql openssl pkg-config python3 python3-venv iproute2)

LS_DIR="$STATE/localstripe"
LS_VENV="$LS_DIR/venv"
LS_PORT="${LS_PORT:-21480}"
LS_VERSION=1.15.10
LS_START_TIMEOUT="${LS_START_TIMEOUT:-30}"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'test-servers: ERROR: %s\n' "$*" >&2; exit 1; }
is_root() { [[ "$(id -u)" == 0 ]]; }
# A live process (a zombie, e.g. one that an init without reaping inherited, does not count).
alive() {
    [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null || return 1
    local stat
    stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
    stat="${stat##*) }"
    [[ "${stat:0:1}" != Z ]]
}
# Does process PID mention PATH in its command line or environment? (So a stale pid file whose
# number now belongs to some unrelated process is never acted on.)
mentions() { alive "$1" && cat "/proc/$1/cmdline" "/proc/$1/environ" 2>/dev/null | tr '\0' '\n' | grep -qF -- "$2"; }
read_pid() { [[ -r "$1" ]] && head -n1 "$1" | tr -dc '0-9' || true; }
# Is something listening on this TCP port? Read from /proc, without connecting to it.
port_open() {
    local hex
    hex="$(printf '%04X' "$1")"
    awk -v p=":$hex" 'NR > 1 && $4 == "0A" && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# Closes every descriptor above 2 of this (sub)shell, before it execs a server that outlives the
# script: a caller that waits for the script through a descriptor it gave it (Foundation's Process
# does) would otherwise wait for the server.
close_inherited_descriptors() {
    local fd
    for fd in /proc/"$BASHPID"/fd/*; do
        fd="${fd##*/}"
        if ((fd > 2)); then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
}

show_log() { # file [lines]
    local f="$1" n="${2:-60}"
    if [[ -s "$f" ]]; then
        printf -- '----- last %s lines of %s -----\n' "$n" "$f" >&2
        tail -n "$n" "$f" >&2
        printf -- '-----\n' >&2
    fi
}

# ---------------------------------------------------------------- packages

pkg_installed() {
    [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" == installed ]]
}

ensure_packages() {
    if ! command -v dpkg-query >/dev/null; then
        say "not a Debian system: not installing packages, expecting them to be there"
        return 0
    fi
    local missing=() p
    for p in "${PACKAGES[@]}"; do pkg_installed "$p" || missing+=("$p"); done
    ((${#missing[@]} == 0)) && return 0

    local sudo=()
    if ! is_root; then
        command -v sudo >/dev/null && sudo -n true 2>/dev/null \
            || die "missing Debian packages (${missing[*]}) and not root (no password-less sudo): install them first"
        sudo=(sudo -n)
    fi
    say "installing Debian packages: ${missing[*]}"
    # Keep the packages' own services (the system rabbitmq node, the 'main' postgres cluster)
    # from being started by the maintainer scripts: only our private servers run.
    local policy=/usr/sbin/policy-rc.d made_policy=0
    if [[ ! -e "$policy" ]]; then
        "${sudo[@]}" sh -c "printf '#!/bin/sh\nexit 101\n' > $policy && chmod 755 $policy"
        made_policy=1
    fi
    local rc=0
    {
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
            && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
                --no-install-recommends "${missing[@]}" </dev/null
    } || rc=$?
    ((made_policy)) && "${sudo[@]}" rm -f "$policy"
    ((rc == 0)) || die "apt-get failed to install: ${missing[*]}"
}

# ---------------------------------------------------------------- certificates

make_certs() {
    local f
    for f in ca.pem server.pem server.key client.pem client.key wrong-ca.pem; do
        [[ -s "$CERTS/$f" ]] || { f=missing; break; }
    done
    [[ "$f" != missing ]] && return 0

    say "making test certificates in ${CERTS#"$ROOT"/}"
    rm -rf "$CERTS" && mkdir -p "$CERTS" && chmod 700 "$CERTS"
    (
        cd "$CERTS"
        umask 077
        cat >ca.ext <<'EOF'
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
EOF
        cat >server.ext <<'EOF'
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1
authorityKeyIdentifier = keyid
subjectKeyIdentifier = hash
EOF
        cat >client.ext <<'EOF'
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
subjectKeyIdentifier = hash
EOF
        local ca name
        for ca in ca wrong-ca; do
            [[ $ca == ca ]] && name="checkout-worker test CA" || name="checkout-worker WRONG test CA"
            openssl req -new -newkey rsa:2048 -nodes -keyout "$ca.key" -subj "/O=checkout-worker tests/CN=$name" \
                -out "$ca.csr" 2>/dev/null
            openssl x509 -req -in "$ca.csr" -signkey "$ca.key" -days 3650 -sha256 \
                -extfile ca.ext -out "$ca.pem" 2>/dev/null
        done
        openssl req -new -newkey rsa:2048 -nodes -keyout server.key -subj "/O=checkout-worker tests/CN=localhost" \
            -out server.csr 2>/dev/null
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -set_serial "0x$(openssl rand -hex 8)" \
            -days 825 -sha256 -extfile server.ext -out server.pem 2>/dev/null
        openssl req -new -newkey rsa:2048 -nodes -keyout client.key \
            -subj "/O=checkout-worker tests/CN=checkout-test-client" -out client.csr 2>/dev/null
        openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -set_serial "0x$(openssl rand -hex 8)" \
            -days 825 -sha256 -extfile client.ext -out client.pem 2>/dev/null
        rm -f ./*.csr ./*.ext
        openssl verify -CAfile ca.pem server.pem client.pem >/dev/null
        ! openssl verify -CAfile wrong-ca.pem server.pem >/dev/null 2>&1
        # Readable by the test processes of any user on this machine (the CA keys stay private).
        chmod 644 ./*.pem server.key client.key
    ) || die "could not make the certificates with openssl"
    chmod 755 "$CERTS"
}

# ---------------------------------------------------------------- RabbitMQ

# The environment every rabbitmq script and CLI call gets: our node name, config, data and logs,
# HOME (for the Erlang cookie), distribution port and epmd port. Call in a subshell.
rmq_env() {
    local v
    for v in $(compgen -e | grep '^RABBITMQ_' || true); do unset "$v"; done
    export HOME="$RMQ_DIR/home"
    export RABBITMQ_NODENAME="$RMQ_NODE"
    export RABBITMQ_CONF_ENV_FILE="$RMQ_DIR/rabbitmq-env.conf"
    export RABBITMQ_CONFIG_FILE="$RMQ_DIR/rabbitmq.conf"
    export RABBITMQ_ADVANCED_CONFIG_FILE="$RMQ_DIR/advanced.config"
    export RABBITMQ_ENABLED_PLUGINS_FILE="$RMQ_DIR/enabled_plugins"
    export RABBITMQ_MNESIA_BASE="$RMQ_DIR/mnesia"
    export RABBITMQ_LOG_BASE="$RMQ_DIR/log"
    export RABBITMQ_PID_FILE="$RMQ_DIR/rabbit.pid"
    export RABBITMQ_DIST_PORT="$DIST_PORT"
    export RABBITMQ_CTL_DIST_PORT_MIN="$CTL_DIST_PORT_MIN" RABBITMQ_CTL_DIST_PORT_MAX="$CTL_DIST_PORT_MAX"
    export ERL_EPMD_PORT="$EPMD_PORT"
    export ERL_CRASH_DUMP="$RMQ_DIR/log/erl_crash.dump"
    export LANG=C.UTF-8 LC_ALL=C.UTF-8
}

rmqctl() ( rmq_env; exec "$RMQ_SBIN/rabbitmqctl" -n "$RMQ_NODE" "$@" )

rmq_write_config() {
    mkdir -p "$RMQ_DIR/home" "$RMQ_DIR/mnesia" "$RMQ_DIR/log"
    chmod 700 "$RMQ_DIR/home"
    if [[ -n "${RMQ_SHARED_COOKIE:-}" ]]; then
        # The nodes of one cluster must all present the same cookie.
        rm -f "$RMQ_DIR/home/.erlang.cookie"
        cp "$RMQ_SHARED_COOKIE" "$RMQ_DIR/home/.erlang.cookie"
    elif [[ ! -s "$RMQ_DIR/home/.erlang.cookie" ]]; then
        (umask 077 && openssl rand -hex 20 | tr -d '\n' >"$RMQ_DIR/home/.erlang.cookie")
    fi
    chmod 400 "$RMQ_DIR/home/.erlang.cookie"
    : >"$RMQ_DIR/rabbitmq-env.conf"     # not /etc/rabbitmq/rabbitmq-env.conf
    echo '[].' >"$RMQ_DIR/enabled_plugins" # no management plugin
    rm -f "$RMQ_DIR/advanced.config"
    cat >"$RMQ_DIR/rabbitmq.conf" <<EOF
# Generated by scripts/test-servers.sh; rewritten at every start.
listeners.tcp.default = 127.0.0.1:$AMQP_PORT
listeners.ssl.default = 127.0.0.1:$AMQPS_PORT
ssl_options.cacertfile = $CERTS/ca.pem
ssl_options.certfile = $CERTS/server.pem
ssl_options.keyfile = $CERTS/server.key
ssl_options.verify = verify_peer
ssl_options.fail_if_no_peer_cert = false
ssl_options.versions.1 = tlsv1.3
ssl_options.versions.2 = tlsv1.2
loopback_users.guest = true
log.file = rabbit.log
log.file.level = info
log.console = false
disk_free_limit.absolute = 50MB
EOF
    if ((${#RMQ_PEERS[@]} > 0)); then
        local i
        echo "cluster_formation.peer_discovery_backend = classic_config" >>"$RMQ_DIR/rabbitmq.conf"
        for i in "${!RMQ_PEERS[@]}"; do
            echo "cluster_formation.classic_config.nodes.$((i + 1)) = ${RMQ_PEERS[$i]}" >>"$RMQ_DIR/rabbitmq.conf"
        done
    fi
}

rmq_pids() { # beam pid and wrapper pid of our node, those alive
    local p
    for p in "$(read_pid "$RMQ_DIR/rabbit.pid")" "$(read_pid "$RMQ_DIR/wrapper.pid")"; do
        mentions "$p" "$RMQ_DIR/home" && echo "$p"
    done
    return 0
}

rmq_running() { [[ -n "$(rmq_pids)" ]]; }

rmq_fail() {
    show_log "$RMQ_DIR/log/stdout.log" 40
    show_log "$RMQ_DIR/log/rabbit.log" 60
    rmq_stop >/dev/null 2>&1 || true # leave nothing half-started behind
    die "$*"
}

rmq_wait() {
    local wpid="$1" deadline=$((SECONDS + RMQ_START_TIMEOUT))
    until port_open "$AMQP_PORT" && port_open "$AMQPS_PORT"; do
        alive "$wpid" || rmq_fail "RabbitMQ exited during start-up"
        ((SECONDS < deadline)) || rmq_fail "RabbitMQ did not open ports $AMQP_PORT/$AMQPS_PORT within ${RMQ_START_TIMEOUT}s"
        sleep 0.5
    done
    rmqctl -q await_startup --timeout "$RMQ_START_TIMEOUT" >/dev/null 2>&1 \
        || rmq_fail "RabbitMQ listens but 'rabbitmqctl await_startup' failed"
}

rmq_start() {
    if rmq_running; then
        if rmqctl -q -t 15 ping >/dev/null 2>&1 && rmqctl -q -t 60 start_app >/dev/null 2>&1 \
            && rmqctl -q await_startup --timeout 30 >/dev/null 2>&1 \
            && port_open "$AMQP_PORT" && port_open "$AMQPS_PORT"; then
            say "RabbitMQ already running (node $RMQ_NODE), reusing it"
            return 0
        fi
        say "a previous private RabbitMQ node is not healthy, restarting it"
        rmq_stop
    fi
    local p
    for p in "$AMQP_PORT" "$AMQPS_PORT" "$DIST_PORT"; do
        port_open "$p" && die "port $p on 127.0.0.1 is already used by another process (not our node): free it first"
    done
    rmq_write_config
    rm -f "$RMQ_DIR/rabbit.pid" "$RMQ_DIR/wrapper.pid"
    local f # keep the previous run's logs as *.prev, start afresh
    for f in "$RMQ_DIR"/log/*.log; do [[ -e "$f" ]] && mv -f "$f" "$f.prev"; done
    rm -f "$RMQ_DIR/log/erl_crash.dump"
    say "starting RabbitMQ on $AMQP_PORT/$AMQPS_PORT (node $RMQ_NODE)"
    local t0=$SECONDS
    # setsid: own session, so a Ctrl-C in the terminal does not reach it (we stop it ourselves);
    # 8>&- 9>&-: don't hold the scripts' lock files open for the server's lifetime.
    (
        rmq_env
        cd "$RMQ_DIR"
        close_inherited_descriptors
        exec setsid "$RMQ_SBIN/rabbitmq-server"
    ) >>"$RMQ_DIR/log/stdout.log" 2>&1 </dev/null 8>&- 9>&- &
    local wpid=$!
    echo "$wpid" >"$RMQ_DIR/wrapper.pid"
    rmq_wait "$wpid"
    say "RabbitMQ up in $((SECONDS - t0))s"
}

rmq_stop() {
    local pids
    pids="$(rmq_pids | tr '\n' ' ')"
    if [[ -n "${pids// /}" ]]; then
        say "stopping RabbitMQ (node $RMQ_NODE)"
        local beam
        beam="$(read_pid "$RMQ_DIR/rabbit.pid")"
        if mentions "$beam" "$RMQ_DIR/home"; then
            # Graceful: stops the app and the VM, waits for the OS process to exit.
            rmqctl -q -t 60 stop "$RMQ_DIR/rabbit.pid" >/dev/null 2>&1 || true
        fi
        local p deadline
        for p in $pids; do alive "$p" && kill -TERM "$p" 2>/dev/null || true; done
        deadline=$((SECONDS + 20))
        for p in $pids; do
            while alive "$p" && ((SECONDS < deadline)); do sleep 0.2; done
            if alive "$p"; then
                say "RabbitMQ process $p did not stop, killing it"
                kill -KILL "$p" 2>/dev/null || true
            fi
        done
    fi
    rm -f "$RMQ_DIR/rabbit.pid" "$RMQ_DIR/wrapper.pid"
    # The private epmd (port $EPMD_PORT) that our node started: only ever ours (a cluster's is
    # stopped with its last node).
    if ((SHARED_EPMD == 0)) && port_open "$EPMD_PORT"; then
        (export ERL_EPMD_PORT="$EPMD_PORT"; epmd -port "$EPMD_PORT" -kill >/dev/null 2>&1) || true
    fi
}

# ---------------------------------------------------------------- RabbitMQ cluster

# Points the node variables above at cluster node N, so rmq_start, rmq_stop and rmqctl act on it.
# Call in a subshell.
cluster_node() {
    local n="$1"
    [[ " ${CLUSTER_NODES[*]} " == *" $n "* ]] || die "no cluster node '$n' (nodes: ${CLUSTER_NODES[*]})"
    local base=$((CLUSTER_AMQP_BASE + 10 * (n - 1)))
    RMQ_NODE="$(cluster_node_name "$n")"
    RMQ_DIR="$CLUSTER_DIR/node$n"
    AMQP_PORT="$base"
    AMQPS_PORT=$((base - 1))
    DIST_PORT=$((base + 1))
    EPMD_PORT="$CLUSTER_EPMD_PORT"
    CTL_DIST_PORT_MIN="$CLUSTER_CTL_DIST_PORT_MIN"
    CTL_DIST_PORT_MAX="$CLUSTER_CTL_DIST_PORT_MAX"
    RMQ_SHARED_COOKIE="$CLUSTER_DIR/cookie"
    RMQ_PEERS=()
    local peer
    for peer in "${CLUSTER_NODES[@]}"; do RMQ_PEERS+=("$(cluster_node_name "$peer")"); done
    SHARED_EPMD=1
}

cluster_node_name() { echo "$CLUSTER_NAME-$1@localhost"; }

cluster_node_running() ( cluster_node "$1"; rmq_running )

# The nodes that node N sees running in its cluster, one per line.
cluster_running_nodes() {
    local status
    status="$( (cluster_node "$1"; rmqctl -q -t 15 cluster_status --formatter json) 2>/dev/null)" || return 0
    printf '%s' "$status" | tr -d ' \n' | grep -o '"running_nodes":\[[^]]*\]' | grep -o "$CLUSTER_NAME-[0-9]*@[A-Za-z0-9.-]*" || true
}

cluster_healthy() {
    local n
    for n in "${CLUSTER_NODES[@]}"; do cluster_node_running "$n" || return 1; done
    [[ "$(cluster_running_nodes 1 | sort -u | wc -l)" == "${#CLUSTER_NODES[@]}" ]]
}

cluster_fail() {
    local n
    for n in "${CLUSTER_NODES[@]}"; do
        show_log "$CLUSTER_DIR/node$n/log/stdout.log" 20
        show_log "$CLUSTER_DIR/node$n/log/rabbit.log" 30
    done
    cluster_stop >/dev/null 2>&1 || true # leave nothing half-started behind
    die "$*"
}

# Starts the three nodes from empty state, then joins nodes 2 and 3 to node 1. A cluster already
# running whole is reused; one that is not whole is stopped and made anew.
cluster_start() {
    if cluster_healthy; then
        say "RabbitMQ cluster already running (${CLUSTER_NODES[*]/#/$CLUSTER_NAME-}), reusing it"
        return 0
    fi
    cluster_stop
    local n p
    for n in "${CLUSTER_NODES[@]}"; do
        for p in $( (cluster_node "$n"; echo "$AMQP_PORT $AMQPS_PORT $DIST_PORT") ); do
            port_open "$p" && die "port $p on 127.0.0.1 is already used by another process (not our cluster): free it first"
        done
    done
    rm -rf "$CLUSTER_DIR"
    mkdir -p "$CLUSTER_DIR"
    (umask 077 && openssl rand -hex 20 | tr -d '\n' >"$CLUSTER_DIR/cookie")
    say "starting a three-node RabbitMQ cluster (AMQP $CLUSTER_AMQP_BASE, $((CLUSTER_AMQP_BASE + 10)), $((CLUSTER_AMQP_BASE + 20)))"
    local t0=$SECONDS pids=() failed=0
    # The first node boots alone and forms the cluster; the others then boot side by side and, being
    # empty, join it through peer discovery (classic_config), with no rabbitmqctl call: a CLI call
    # costs seconds of Erlang start-up on a loaded machine.
    (cluster_node "${CLUSTER_NODES[0]}"; rmq_start) || cluster_fail "cluster node ${CLUSTER_NODES[0]} did not start"
    for n in "${CLUSTER_NODES[@]:1}"; do
        (cluster_node "$n"; rmq_start) &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || failed=1; done
    ((failed == 0)) || cluster_fail "a cluster node did not start"
    cluster_healthy || cluster_fail "the cluster does not show its three nodes running"
    say "RabbitMQ cluster up in $((SECONDS - t0))s"
}

cluster_stop() {
    local n
    for n in "${CLUSTER_NODES[@]}"; do
        if cluster_node_running "$n"; then (cluster_node "$n"; rmq_stop) & fi
    done
    wait
    if port_open "$CLUSTER_EPMD_PORT"; then
        (export ERL_EPMD_PORT="$CLUSTER_EPMD_PORT"; epmd -port "$CLUSTER_EPMD_PORT" -kill >/dev/null 2>&1) || true
    fi
}

cluster_print_env() {
    local n urls=() names=()
    for n in "${CLUSTER_NODES[@]}"; do
        urls+=("amqp://guest:guest@127.0.0.1:$((CLUSTER_AMQP_BASE + 10 * (n - 1)))/%2F")
        names+=("$(cluster_node_name "$n")")
    done
    local IFS=,
    cat <<EOT
export RABBITMQ_CLUSTER_URLS='${urls[*]}'
export RABBITMQ_CLUSTER_NODES='${names[*]}'
export TEST_SERVERS='$ROOT/scripts/test-servers.sh'
EOT
}

cluster_status() {
    local n rc=0 running
    for n in "${CLUSTER_NODES[@]}"; do
        if cluster_node_running "$n"; then
            running="$(cluster_running_nodes "$n" | tr '\n' ' ')"
            echo "cluster node $n: running (sees: ${running% })"
        else
            echo "cluster node $n: stopped"
            rc=3
        fi
    done
    return "$rc"
}

# ---------------------------------------------------------------- PostgreSQL

PG_BIN=""
find_pg_bin() {
    local d
    if [[ -x /usr/lib/postgresql/15/bin/initdb ]]; then
        PG_BIN=/usr/lib/postgresql/15/bin
    else
        d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)"
        [[ -n "$d" && -x "$d/initdb" ]] || die "PostgreSQL server binaries not found under /usr/lib/postgresql"
        PG_BIN="$d"
    fi
}

# initdb/pg_ctl refuse to run as root: as root, the cluster belongs to the 'postgres' user.
pg_as() {
    if is_root; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# The cluster's base directory: .servers/postgres, or, when root and the 'postgres' user cannot
# reach the repository (e.g. a clone under /root), a directory in /tmp that .servers/postgres links to.
PG_BASE=""
resolve_pg_base() {
    if [[ -L "$PG_LINK" ]]; then
        PG_BASE="$(readlink -f "$PG_LINK")"
        return 0
    fi
    PG_BASE="$PG_LINK"
    if is_root && ! runuser -u postgres -- test -x "$STATE" 2>/dev/null; then
        [[ -e "$PG_LINK" ]] && die "the 'postgres' user cannot reach $PG_LINK (a parent directory is not searchable): remove it, it is re-created in /tmp"
        mkdir -p "$STATE"
        PG_BASE="${TMPDIR:-/tmp}/checkout-test-postgres-$(printf '%s' "$ROOT" | md5sum | cut -c1-12)"
        ln -s "$PG_BASE" "$PG_LINK"
    fi
}

pg_data() { echo "$PG_BASE/data"; }
pg_pid() { read_pid "$(pg_data)/postmaster.pid"; }
pg_running() { mentions "$(pg_pid)" "$(pg_data)"; }
pg_ctl() { pg_as "$PG_BIN/pg_ctl" -D "$(pg_data)" "$@"; }

pg_fail() {
    show_log "$PG_BASE/postgres.log" 60
    pg_stop >/dev/null 2>&1 || true # leave nothing half-started behind
    die "$*"
}

pg_superuser_psql() {
    PGPASSWORD="$PG_SUPERUSER_PASSWORD" PGCONNECT_TIMEOUT=10 "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 \
        -h 127.0.0.1 -p "$PG_PORT" -U "$PG_SUPERUSER" -d postgres "$@"
}

pg_initdb() {
    local data
    data="$(pg_data)"
    [[ -s "$data/PG_VERSION" ]] && return 0
    say "creating the PostgreSQL cluster in ${PG_LINK#"$ROOT"/}"
    rm -rf "$data"
    mkdir -p "$PG_BASE"
    is_root && chown postgres: "$PG_BASE"
    chmod 700 "$PG_BASE"
    printf '%s\n' "$PG_SUPERUSER_PASSWORD" >"$PG_BASE/superuser.pw"
    is_root && chown postgres: "$PG_BASE/superuser.pw"
    pg_as "$PG_BIN/initdb" -D "$data" -U "$PG_SUPERUSER" --pwfile="$PG_BASE/superuser.pw" \
        --auth-local=peer --auth-host=scram-sha-256 --encoding=UTF8 --locale=C --no-sync \
        >"$PG_BASE/initdb.log" 2>&1 </dev/null || { show_log "$PG_BASE/initdb.log"; die "initdb failed"; }
    rm -f "$PG_BASE/superuser.pw"
    pg_as sh -c "echo \"include 'checkout-test.conf'\" >> '$data/postgresql.conf'"
}

pg_write_config() {
    pg_as sh -c "cat > '$(pg_data)/checkout-test.conf'" <<EOF
# Generated by scripts/test-servers.sh; rewritten at every start.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = ''
# The parallel suite's stores, each with its pool and a login check at open, pass 200 at their peak.
max_connections = 400
fsync = off
full_page_writes = off
synchronous_commit = off
logging_collector = off
log_min_messages = warning
log_line_prefix = '%m [%p] %q%u@%d '
EOF
}

pg_start() {
    find_pg_bin
    resolve_pg_base
    if pg_running; then
        if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -t 5; then
            say "PostgreSQL already running on $PG_PORT, reusing it"
            pg_create_db
            return 0
        fi
        say "a previous private PostgreSQL is not healthy, restarting it"
        pg_stop
    fi
    port_open "$PG_PORT" && die "port $PG_PORT on 127.0.0.1 is already used by another process (not our cluster): free it first"
    is_root && [[ -d "$PG_BASE" ]] && chown -R postgres: "$PG_BASE"
    pg_initdb
    pg_write_config
    say "starting PostgreSQL on $PG_PORT"
    [[ -e "$PG_BASE/postgres.log" ]] && pg_as mv -f "$PG_BASE/postgres.log" "$PG_BASE/postgres.log.prev"
    local t0=$SECONDS
    pg_ctl start -w -t "$PG_START_TIMEOUT" -l "$PG_BASE/postgres.log" >/dev/null 2>&1 </dev/null 8>&- 9>&- \
        || pg_fail "PostgreSQL did not start within ${PG_START_TIMEOUT}s"
    local deadline=$((SECONDS + PG_START_TIMEOUT))
    until "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -t 2; do
        ((SECONDS < deadline)) || pg_fail "PostgreSQL does not accept connections on $PG_PORT"
        sleep 0.5
    done
    pg_create_db
    say "PostgreSQL up in $((SECONDS - t0))s"
}

pg_create_db() {
    pg_superuser_psql >/dev/null <<EOF || pg_fail "could not create role $PG_USER / database $PG_DB"
SELECT format('CREATE ROLE %I LOGIN CREATEDB PASSWORD %L', '$PG_USER', '$PG_PASSWORD')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_USER') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', '$PG_DB', '$PG_USER')
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$PG_DB') \gexec
EOF
}

pg_stop() {
    [[ -n "$PG_BIN" ]] || find_pg_bin
    [[ -n "$PG_BASE" ]] || resolve_pg_base
    local pid
    pid="$(pg_pid)"
    pg_running || return 0
    say "stopping PostgreSQL"
    pg_ctl stop -m fast -w -t 30 >/dev/null 2>&1 </dev/null \
        || pg_ctl stop -m immediate -w -t 15 >/dev/null 2>&1 </dev/null || true
    if alive "$pid"; then
        say "PostgreSQL process $pid did not stop, killing it"
        kill -KILL "$pid" 2>/dev/null || true
    fi
}

# ---------------------------------------------------------------- localstripe

# Runs localstripe's aiohttp app on 127.0.0.1 only (its own `start` listens on every interface) and in
# memory only (it would otherwise pickle its whole store to /tmp/localstripe.pickle, shared by every
# checkout on the machine, after every POST).
LS_MAIN='
import sys
from aiohttp import web
from localstripe import resources, server
resources.Store.dump_to_disk = lambda self: None
web.run_app(server.app, host="127.0.0.1", port=int(sys.argv[1]), access_log=None, print=None)
'

ls_pid() { read_pid "$LS_DIR/localstripe.pid"; }
ls_running() { mentions "$(ls_pid)" "$LS_VENV"; }
ls_installed() {
    [[ -x "$LS_VENV/bin/python" ]] && "$LS_VENV/bin/python" -c \
        "import importlib.metadata as m, localstripe; assert m.version('localstripe') == '$LS_VERSION'" >/dev/null 2>&1
}
# Answers an authenticated request: the app is up, not just the socket.
ls_answers() {
    "$LS_VENV/bin/python" -c "
import urllib.request
request = urllib.request.Request('http://127.0.0.1:$LS_PORT/v1/payment_intents?limit=1', headers={'Authorization': 'Bearer sk_test_probe'})
urllib.request.urlopen(request, timeout=3).read()
" >/dev/null 2>&1
}

ls_install() {
    ls_installed && return 0
    local python=python3
    [[ -x /usr/bin/python3 ]] && python=/usr/bin/python3
    command -v "$python" >/dev/null || die "python3 is needed to run localstripe (Debian: python3 python3-venv)"
    say "installing localstripe $LS_VERSION from PyPI into ${LS_VENV#"$ROOT"/}"
    rm -rf "$LS_VENV"
    mkdir -p "$LS_DIR"
    "$python" -m venv "$LS_VENV" >"$LS_DIR/install.log" 2>&1 \
        && "$LS_VENV/bin/pip" install --disable-pip-version-check --no-input "localstripe==$LS_VERSION" >>"$LS_DIR/install.log" 2>&1 \
        && ls_installed \
        || { show_log "$LS_DIR/install.log" 40; die "could not install localstripe $LS_VERSION into $LS_VENV"; }
}

ls_fail() {
    show_log "$LS_DIR/localstripe.log" 40
    ls_stop >/dev/null 2>&1 || true # leave nothing half-started behind
    die "$*"
}

ls_start() {
    if ls_running; then
        if ls_answers; then
            say "localstripe already running on $LS_PORT, reusing it"
            return 0
        fi
        say "a previous localstripe does not answer, restarting it"
        ls_stop
    fi
    port_open "$LS_PORT" && die "port $LS_PORT on 127.0.0.1 is already used by another process (not our localstripe): free it first"
    ls_install
    say "starting localstripe on $LS_PORT"
    local t0=$SECONDS
    [[ -e "$LS_DIR/localstripe.log" ]] && mv -f "$LS_DIR/localstripe.log" "$LS_DIR/localstripe.log.prev"
    (
        cd "$LS_DIR"
        close_inherited_descriptors
        exec setsid "$LS_VENV/bin/python" -c "$LS_MAIN" "$LS_PORT"
    ) >>"$LS_DIR/localstripe.log" 2>&1 </dev/null 8>&- 9>&- &
    echo $! >"$LS_DIR/localstripe.pid"
    local deadline=$((SECONDS + LS_START_TIMEOUT))
    until ls_answers; do
        ls_running || ls_fail "localstripe exited during start-up"
        ((SECONDS < deadline)) || ls_fail "localstripe does not answer on $LS_PORT within ${LS_START_TIMEOUT}s"
        sleep 0.3
    done
    say "localstripe up in $((SECONDS - t0))s"
}

ls_stop() {
    local pid
    pid="$(ls_pid)"
    if mentions "$pid" "$LS_VENV"; then
        say "stopping localstripe"
        kill -TERM "$pid" 2>/dev/null || true
        local deadline=$((SECONDS + 10))
        while alive "$pid" && ((SECONDS < deadline)); do sleep 0.2; done
        if alive "$pid"; then
            say "localstripe process $pid did not stop, killing it"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$LS_DIR/localstripe.pid"
}

# ---------------------------------------------------------------- commands

print_env() {
    local ctl
    ctl="$ROOT/scripts/rabbitmqctl.sh"
    cat <<EOF
export RABBITMQ_URL='amqp://guest:guest@127.0.0.1:$AMQP_PORT/%2F'
export RABBITMQ_TLS_URL='amqps://guest:guest@localhost:$AMQPS_PORT/%2F'
export RABBITMQ_CA_FILE='$CERTS/ca.pem'
export RABBITMQ_WRONG_CA_FILE='$CERTS/wrong-ca.pem'
export RABBITMQ_CLIENT_CERT_FILE='$CERTS/client.pem'
export RABBITMQ_CLIENT_KEY_FILE='$CERTS/client.key'
export RABBITMQCTL='$ctl'
export POSTGRES_URL='postgres://$PG_USER:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB'
export LOCALSTRIPE_URL='http://127.0.0.1:$LS_PORT'
EOF
}

lock() {
    mkdir -p "$STATE"
    chmod 755 "$STATE"
    exec 9>"$STATE/servers.lock"
    flock -w 600 9 || die "another scripts/test-servers.sh holds ${STATE}/servers.lock"
}

status() {
    local p rc=0
    p="$(rmq_pids | tr '\n' ' ')"
    if [[ -n "${p// /}" ]]; then echo "rabbitmq: running (pids ${p% })"; else echo "rabbitmq: stopped"; rc=3; fi
    if [[ -d /usr/lib/postgresql && ( -e "$PG_LINK" || -L "$PG_LINK" ) ]]; then
        find_pg_bin
        resolve_pg_base
    fi
    if [[ -n "$PG_BIN" ]] && pg_running; then echo "postgres: running (pid $(pg_pid))"; else echo "postgres: stopped"; rc=3; fi
    if ls_running; then echo "localstripe: running (pid $(ls_pid), port $LS_PORT)"; else echo "localstripe: stopped"; rc=3; fi
    return "$rc"
}

main() {
    local cmd="${1:-}"
    shift || true
    case "$cmd" in
        start)
            lock
            ensure_packages
            make_certs
            rmq_start
            pg_start
            ls_start
            ;;
        stop)
            lock
            cluster_stop
            rmq_stop
            if [[ -d /usr/lib/postgresql && ( -e "$PG_LINK" || -L "$PG_LINK" ) ]]; then pg_stop; fi
            ls_stop
            ;;
        start-localstripe)
            lock
            ls_start
            ;;
        stop-localstripe)
            lock
            ls_stop
            ;;
        start-rabbitmq)
            lock
            ensure_packages
            make_certs
            rmq_start
            ;;
        stop-rabbitmq)
            lock
            rmq_stop
            ;;
        restart-rabbitmq)
            lock
            rmq_stop
            rmq_start
            ;;
        start-cluster)
            lock
            ensure_packages
            make_certs
            cluster_start
            ;;
        stop-cluster)
            lock
            cluster_stop
            ;;
        start-cluster-node)
            lock
            (cluster_node "${1:?usage: $0 start-cluster-node N}"; rmq_start)
            ;;
        stop-cluster-node)
            lock
            (cluster_node "${1:?usage: $0 stop-cluster-node N}"; rmq_stop)
            ;;
        cluster-env) cluster_print_env ;;
        cluster-status) cluster_status ;;
        cluster-ctl)
            local node="${1:?usage: $0 cluster-ctl N ARGS...}"
            shift
            (cluster_node "$node"; rmqctl "$@")
            ;;
        install)
            lock
            ensure_packages
            ;;
        env) print_env ;;
        status) status ;;
        ctl) rmqctl "$@" ;;
        *)
            echo "usage: $0 start|stop|env|status|install|start-rabbitmq|stop-rabbitmq|restart-rabbitmq|start-localstripe|stop-localstripe|ctl ARGS..." >&2
            echo "       $0 start-cluster|stop-cluster|cluster-env|cluster-status|start-cluster-node N|stop-cluster-node N|cluster-ctl N ARGS..." >&2
            exit 2
            ;;
    esac
}

main "$@"
