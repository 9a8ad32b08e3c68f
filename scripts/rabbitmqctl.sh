#!/usr/bin/env bash
# rabbitmqctl against the private test node started by scripts/test-servers.sh
# (node checkout-test@localhost, its own HOME/Erlang cookie, epmd port). Examples:
#   scripts/rabbitmqctl.sh list_queues
#   scripts/rabbitmqctl.sh close_all_connections "test"
#   scripts/rabbitmqctl.sh stop_app && scripts/rabbitmqctl.sh start_app
set -euo pipefail
exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/test-servers.sh" ctl "$@"
