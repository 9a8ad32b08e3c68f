#!/usr/bin/env bash
# Checks what ships beside the Swift code; scripts/test.sh runs it after the Swift suites.
#   scripts/check-examples.sh            validate docker-compose.yml and deploy/kubernetes/ offline, then run
#                                        examples/python/checkout_client.py against the built worker
#   scripts/check-examples.sh --offline  only the validation: no build, no broker
#
# Validation: `docker-compose config` (Debian's docker-compose; it needs no Docker engine) checks the compose
# file against the Compose schema; `kubernetes-validate --strict` checks the Kubernetes manifests against the
# API schemas of two Kubernetes versions. It has no schema for KEDA's ScaledObject and TriggerAuthentication:
# it warns and passes them, so a warning about any other kind fails here, and scripts/check-deploy-config.py
# checks keda.yaml's references and queues, and the grace periods, probes and names across all the files.
#
# The run: a RabbitMQ virtual host of its own, with the users and permissions of deploy/rabbitmq/definitions.json
# (names suffixed), so the worker runs as compose's least-privilege user; a temporary SQLite database with
# demo-catalog.json imported; the worker (TEST_WORKER_EXECUTABLE, or the one `swift build` made) on a free
# HTTP port until /health/ready answers 200; the Python client once to a placed order and once with a
# declined card, which must exit 1; then SIGTERM, after which the worker must exit 0.
# Needs RABBITMQ_URL and RABBITMQCTL: `eval "$(scripts/test-servers.sh env)"`, as scripts/test.sh does.
#
# Installs docker-compose and python3-venv from Debian when missing (as root, or with password-less sudo),
# and the Python tools from PyPI into .venv-examples/. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KUBERNETES_VALIDATE=kubernetes-validate==1.37.0
KUBERNETES_VERSIONS=(1.30 1.37)
VENV=.venv-examples
# The administrator's password in deploy/rabbitmq/definitions.json (checkout / checkout, as the README says).
ADMIN_PASSWORD=checkout

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'check-examples: ERROR: %s\n' "$*" >&2; exit 1; }

offline=0
case "${1:-}" in
    "") ;;
    --offline) offline=1 ;;
    *) die "unknown argument '$1' (usage: scripts/check-examples.sh [--offline])" ;;
esac

ensure_packages() {
    local missing=()
    command -v docker-compose >/dev/null || missing+=(docker-compose)
    command -v python3 >/dev/null && python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
    ((${#missing[@]} == 0)) && return 0
    local sudo=()
    if [[ "$(id -u)" != 0 ]]; then
        sudo -n true 2>/dev/null || die "missing Debian packages (${missing[*]}) and not root (no password-less sudo): install them first"
        sudo=(sudo -n)
    fi
    say "installing Debian packages: ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null \
        && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 \
            --no-install-recommends "${missing[@]}" </dev/null \
        || die "apt-get failed to install: ${missing[*]}"
}

# The virtual environment is reused while the pinned requirements and the Python are the same.
ensure_venv() {
    local wanted
    wanted="$(cat examples/python/requirements.txt; echo "$KUBERNETES_VALIDATE"; python3 --version)"
    if [[ -x "$VENV/bin/python" && "$(cat "$VENV/.installed" 2>/dev/null)" == "$wanted" ]] \
        && "$VENV/bin/python" -c 'import pika, kubernetes_validate, yaml' 2>/dev/null; then
        return 0
    fi
    say "installing the Python tools into $VENV/ (pip: -r examples/python/requirements.txt $KUBERNETES_VALIDATE)"
    rm -rf "$VENV"
    python3 -m venv "$VENV" || die "python3 -m venv failed"
    "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q --retries 5 --timeout 60 \
        -r examples/python/requirements.txt "$KUBERNETES_VALIDATE" </dev/null \
        || die "pip could not install the Python tools from PyPI"
    printf '%s' "$wanted" >"$VENV/.installed"
}

ensure_packages
ensure_venv
PY="$PWD/$VENV/bin/python"
work="$(mktemp -d "${TMPDIR:-/tmp}/check-examples.XXXXXX")"
worker_pid=""
vhost=""
users=()
suffix="examples-$$-$RANDOM"

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n "$worker_pid" ]] && kill -0 "$worker_pid" 2>/dev/null; then
        kill -KILL "$worker_pid" 2>/dev/null || true
        wait "$worker_pid" 2>/dev/null || true
    fi
    if [[ -n "$vhost" ]]; then
        "$RABBITMQCTL" delete_vhost "$vhost" >/dev/null 2>&1 || echo "check-examples: WARNING: could not delete the vhost $vhost" >&2
        for user in "${users[@]}"; do "$RABBITMQCTL" delete_user "$user" >/dev/null 2>&1 || true; done
    fi
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- offline validation

say "docker-compose config: docker-compose.yml against the Compose schema"
docker-compose -f docker-compose.yml config >"$work/compose.yaml" || die "docker-compose.yml is not valid (see above)"

manifests=(deploy/kubernetes/*.yaml)
for version in "${KUBERNETES_VERSIONS[@]}"; do
    say "kubernetes-validate --strict: deploy/kubernetes/ against Kubernetes $version"
    "$VENV/bin/kubernetes-validate" --strict --quiet -k "$version" "${manifests[@]}" >"$work/validate.log" 2>&1 \
        || { cat "$work/validate.log" >&2; die "a Kubernetes manifest is not valid for Kubernetes $version"; }
    if grep -v "api version keda\.sh/" "$work/validate.log" | grep -q .; then
        cat "$work/validate.log" >&2
        die "kubernetes-validate could not check a manifest that is not KEDA's (see above)"
    fi
done

say "check-deploy-config.py: grace periods, probes, the worker's RabbitMQ user, and KEDA's references"
"$PY" scripts/check-deploy-config.py "$work/compose.yaml"

if ((offline)); then
    say "offline checks passed"
    exit 0
fi

# ---------------------------------------------------------------- the Python client against the worker

[[ -n "${RABBITMQ_URL:-}" && -n "${RABBITMQCTL:-}" ]] \
    || die "RABBITMQ_URL and RABBITMQCTL are not set: run eval \"\$(scripts/test-servers.sh env)\" first (or use --offline)"
worker="${TEST_WORKER_EXECUTABLE:-$(swift build --show-bin-path)/checkout-worker}"
[[ -x "$worker" ]] || die "no worker executable at $worker: run swift build first"

# The users of definitions.json, renamed, on a vhost of this run's own; the passwords stay as they are.
vhost="checkout-$suffix"
mapfile -t users < <("$PY" - deploy/rabbitmq/definitions.json "$suffix" "$vhost" "$work/definitions.json" <<'PYTHON'
import json, sys
source, suffix, vhost, target = sys.argv[1:]
definitions = json.load(open(source))
for user in definitions["users"]:
    user["name"] += f"-{suffix}"
    print(user["name"])
for permission in definitions["permissions"]:
    permission["user"] += f"-{suffix}"
    permission["vhost"] = vhost
definitions["vhosts"] = [{"name": vhost}]
json.dump(definitions, open(target, "w"))
PYTHON
)
((${#users[@]} > 0)) || die "could not read the users of deploy/rabbitmq/definitions.json"
say "importing deploy/rabbitmq/definitions.json as vhost $vhost, users ${users[*]}"
"$RABBITMQCTL" import_definitions "$work/definitions.json" >"$work/rabbitmqctl.log" 2>&1 \
    || { cat "$work/rabbitmqctl.log" >&2; die "rabbitmqctl import_definitions failed"; }
# The import may finish after rabbitmqctl returns: wait until every user has its permissions.
deadline=$((SECONDS + 30))
until [[ "$("$RABBITMQCTL" list_permissions -q -p "$vhost" 2>/dev/null | grep -c -- "-$suffix"$'\t')" == "${#users[@]}" ]]; do
    ((SECONDS < deadline)) || die "the users of deploy/rabbitmq/definitions.json have no permissions on $vhost 30 s after the import"
    sleep 0.5
done

# amqp://user:password@host:port/vhost, from the test broker's URL and compose's worker URL.
broker="${RABBITMQ_URL#*://}"
broker="${broker#*@}"
broker="${broker%%/*}"
worker_credentials="$("$PY" -c '
import sys, yaml
from urllib.parse import urlsplit
url = urlsplit(yaml.safe_load(open(sys.argv[1]))["services"]["worker"]["environment"]["CHECKOUT_AMQP_URL"])
print(f"{url.username}-{sys.argv[2]}:{url.password}")' "$work/compose.yaml" "$suffix")"
worker_url="amqp://$worker_credentials@$broker/$vhost"
client_url="amqp://checkout-$suffix:$ADMIN_PASSWORD@$broker/$vhost"

say "importing demo-catalog.json into a temporary SQLite database"
export CHECKOUT_DATABASE_URL="sqlite://$work/checkout.sqlite"
"$worker" catalog import demo-catalog.json </dev/null || die "checkout-worker catalog import failed"

port="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
say "starting $worker run (as ${worker_credentials%%:*}, HTTP port $port)"
CHECKOUT_AMQP_URL="$worker_url" CHECKOUT_HTTP_PORT="$port" CHECKOUT_LOG_FORMAT=text CHECKOUT_CONCURRENCY=2 \
    "$worker" run </dev/null >"$work/worker.log" 2>&1 &
worker_pid=$!

# Whether the worker still runs (an exited child stays a zombie until `wait`, and kill -0 still reaches it).
worker_running() {
    local state=""
    [[ -r "/proc/$worker_pid/stat" ]] && read -r _ _ state _ <"/proc/$worker_pid/stat" 2>/dev/null && [[ "$state" != Z ]]
}
worker_failed() {
    echo "---- the worker's log ($work/worker.log, last 60 lines):" >&2
    tail -n 60 "$work/worker.log" >&2
    die "$*"
}
# The status code of GET PATH on the worker's HTTP port, or 000 when nothing answers.
http_status() {
    local status=000
    status="$( (exec 3<>"/dev/tcp/127.0.0.1/$port" \
        && printf 'GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' "$1" >&3 \
        && read -r -t 5 _ code _ <&3 && echo "$code") 2>/dev/null)" || true
    echo "${status:-000}"
}

deadline=$((SECONDS + 90))
until [[ "$(http_status /health/ready)" == 200 ]]; do
    worker_running || { wait "$worker_pid" || true; worker_failed "the worker exited before it was ready"; }
    ((SECONDS < deadline)) || worker_failed "the worker was not ready within 90 s (/health/ready answers $(http_status /health/ready))"
    sleep 0.5
done
say "the worker is ready"

say "examples/python/checkout_client.py: sync a cart, place an order"
"$PY" examples/python/checkout_client.py --amqp-url "$client_url" --timeout 30 </dev/null | tee "$work/client.log" \
    || worker_failed "the Python client failed"
grep -q "^got order.placed " "$work/client.log" || worker_failed "the Python client printed no order.placed event"

say "examples/python/checkout_client.py --payment-token tok_chargeDeclined: must report the rejection and exit 1"
set +e
"$PY" examples/python/checkout_client.py --amqp-url "$client_url" --timeout 30 --payment-token tok_chargeDeclined \
    </dev/null >"$work/declined.log" 2>&1
declined_rc=$?
set -e
cat "$work/declined.log"
[[ $declined_rc == 1 ]] || worker_failed "the Python client exited $declined_rc on a declined payment, not 1"
grep -q "expected order.placed, got order.rejected" "$work/declined.log" \
    || worker_failed "the Python client did not report the order.rejected event"

say "stopping the worker with SIGTERM"
kill -TERM "$worker_pid"
deadline=$((SECONDS + 45))
while worker_running; do
    ((SECONDS < deadline)) || worker_failed "the worker did not exit within 45 s of SIGTERM"
    sleep 0.2
done
set +e
wait "$worker_pid"
worker_rc=$?
set -e
worker_pid=""
[[ $worker_rc == 0 ]] || worker_failed "the worker exited $worker_rc after SIGTERM, not 0"
say "examples checked: compose and Kubernetes valid, the Python client ran against the worker as its least-privilege user"
