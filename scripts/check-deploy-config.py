#!/usr/bin/env python3
"""Cross-checks what schema validation cannot see in docker-compose.yml and deploy/kubernetes/.

    check-deploy-config.py COMPOSE_CONFIG_YAML

COMPOSE_CONFIG_YAML is the output of `docker-compose config`. Checks that compose and Kubernetes
give the worker more time than its shutdown grace period, that compose's worker uses a user of
deploy/rabbitmq/definitions.json that is not an administrator, and that every name the manifests
refer to (ConfigMap, Secret keys, probe ports, the scaled Deployment, the TriggerAuthentication)
exists, with the KEDA triggers on both command queues. KEDA's kinds have no schema in
kubernetes-validate, so this is the only check of keda.yaml beyond parsing. Needs PyYAML.
"""
import json
import pathlib
import re
import sys
from urllib.parse import unquote, urlsplit

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
KUBERNETES = ROOT / "deploy" / "kubernetes"
COMMAND_QUEUES = {"checkout.place-order", "checkout.sync-cart"}
DEFAULT_GRACE = 30.0
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


def seconds(text):
    """Seconds in a duration such as 30s, 1m30s, 1500ms or 2h (compose's and the worker's notation)."""
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|h|m|s)", str(text))
    if not parts or "".join(n + u for n, u in parts) != str(text).strip():
        raise SystemExit(f"check-deploy-config: cannot read the duration {text!r}")
    return sum(float(n) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[u] for n, u in parts)


def compose(config):
    worker = config["services"]["worker"]
    environment = worker.get("environment", {})
    grace = seconds(environment.get("CHECKOUT_SHUTDOWN_GRACE_PERIOD", "30s"))
    stop = seconds(worker.get("stop_grace_period", "10s"))
    check(stop > grace, f"compose: worker stop_grace_period ({stop:g}s) is not longer than its shutdown grace ({grace:g}s)")

    definitions = json.loads((ROOT / "deploy" / "rabbitmq" / "definitions.json").read_text())
    users = {user["name"]: user for user in definitions["users"]}
    user = unquote(urlsplit(environment["CHECKOUT_AMQP_URL"]).username or "")
    check(user in users, f"compose: the worker's AMQP user {user!r} is not in deploy/rabbitmq/definitions.json")
    check(user in users and not users[user]["tags"], f"compose: the worker's AMQP user {user!r} has tags {users.get(user, {}).get('tags')!r}")
    permissions = [p for p in definitions["permissions"] if p["user"] == user]
    check(permissions and all(p[kind] != ".*" for p in permissions for kind in ("configure", "write", "read")),
          f"compose: the worker's AMQP user {user!r} is not limited to the worker's resources")


def kubernetes():
    resources = {}
    for path in sorted(KUBERNETES.glob("*.yaml")):
        for resource in yaml.safe_load_all(path.read_text()):
            if resource:
                resources[(resource["kind"], resource["metadata"]["name"])] = resource
    kinds = {kind for kind, _ in resources}
    check({"Deployment", "ConfigMap", "Secret", "ScaledObject", "TriggerAuthentication"} <= kinds, f"kubernetes: kinds missing from {sorted(kinds)}")

    def named(kind, name, referrer):
        check((kind, name) in resources, f"kubernetes: {referrer} refers to the {kind} {name!r}, which is not defined")
        return resources.get((kind, name), {})

    secret_keys = lambda name, referrer: set(named("Secret", name, referrer).get("stringData", {})) | set(named("Secret", name, referrer).get("data", {}))
    for (kind, name), deployment in resources.items():
        if kind != "Deployment":
            continue
        pod = deployment["spec"]["template"]["spec"]
        settings = {}
        for container in pod["containers"]:
            for source in container.get("envFrom", []):
                settings.update(named("ConfigMap", source["configMapRef"]["name"], f"Deployment {name}").get("data", {}))
            for variable in container.get("env", []):
                reference = variable.get("valueFrom", {}).get("secretKeyRef")
                if reference:
                    check(reference["key"] in secret_keys(reference["name"], f"Deployment {name}"),
                          f"kubernetes: {variable['name']} reads the key {reference['key']!r}, which Secret {reference['name']!r} lacks")
            ports = {port.get("name") for port in container.get("ports", [])}
            probes = {probe: container.get(probe, {}).get("httpGet", {}) for probe in ("livenessProbe", "readinessProbe")}
            check(probes["livenessProbe"].get("path") == "/health/live", "kubernetes: the liveness probe does not ask /health/live")
            check(probes["readinessProbe"].get("path") == "/health/ready", "kubernetes: the readiness probe does not ask /health/ready")
            for probe, get in probes.items():
                check(get.get("port") in ports, f"kubernetes: the {probe} port {get.get('port')!r} is not a port of the container")
            check("resources" in container, f"kubernetes: container {container['name']} sets no resources")
        grace = seconds(settings.get("CHECKOUT_SHUTDOWN_GRACE_PERIOD", "30s"))
        termination = pod.get("terminationGracePeriodSeconds", 30)
        check(termination > grace, f"kubernetes: terminationGracePeriodSeconds ({termination}) is not above the shutdown grace ({grace:g}s)")

    for (kind, name), scaled in resources.items():
        if kind != "ScaledObject":
            continue
        target = scaled["spec"]["scaleTargetRef"]
        named(target.get("kind", "Deployment"), target["name"], f"ScaledObject {name}")
        queues = set()
        for trigger in scaled["spec"]["triggers"]:
            check(trigger["type"] == "rabbitmq", f"kubernetes: ScaledObject {name} has a {trigger['type']} trigger")
            queues.add(trigger["metadata"].get("queueName"))
            authentication = named("TriggerAuthentication", trigger["authenticationRef"]["name"], f"ScaledObject {name}")
            for reference in authentication.get("spec", {}).get("secretTargetRef", []):
                check(reference["key"] in secret_keys(reference["name"], "TriggerAuthentication"),
                      f"kubernetes: the TriggerAuthentication reads the key {reference['key']!r}, which Secret {reference['name']!r} lacks")
        check(queues == COMMAND_QUEUES, f"kubernetes: ScaledObject {name} scales on {sorted(queues)}, not {sorted(COMMAND_QUEUES)}")


if __name__ == "__main__":
    compose(yaml.safe_load(pathlib.Path(sys.argv[1]).read_text()))
    kubernetes()
    for problem in problems:
        print(f"check-deploy-config: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print("check-deploy-config: compose and Kubernetes settings agree")
