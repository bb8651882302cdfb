#!/usr/bin/env bash
# Checks the deployment files without a cluster: the Helm chart (lint, render with default and non-default
# values, every manifest decoded strictly into its kind's type and checked like the API server would), the
# rendered deploy/kubernetes/ manifests being current, the Job the launcher creates, the compose file, the
# Prometheus config, alert rules and each app's /metrics, and the Grafana dashboard.
#   bash scripts/check-deploy.sh            check
#   bash scripts/check-deploy.sh --update   re-render deploy/kubernetes/ from the chart first
# Needs Go (helm and the validator are built from the Go module proxy, cached in ~/.cache/agent-farm).
# docker-compose and promtool are used when present (Debian: apt-get install docker-compose prometheus).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=k8s-control-plane/versions.env
. scripts/k8s-control-plane/versions.env # HELM_VERSION (shared with the test set-up)
KUBE_VERSION=1.31.0 # podFailurePolicy is GA from 1.31 (beta, on by default, from 1.26)
CHART=helm/agent-farm
RENDERED=deploy/kubernetes/agent-farm.yaml

step() { printf '\n== %s\n' "$*" >&2; }
fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null || fail "Go is needed to build helm and the manifest validator"
step "helm and the manifest validator (built once from the Go module proxy, cached in ~/.cache/agent-farm)"
tools=$(node --import tsx scripts/local-services/go-tools.ts env) || fail "building the Go tools failed"
HELM=$(sed -n 's/^HELM=//p' <<<"$tools")
VALIDATE=$(sed -n 's/^VALIDATE=//p' <<<"$tools")
helm() { "$HELM" "$@"; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
render() { # name namespace [helm flags...]
  local name=$1 ns=$2
  shift 2
  helm template "$name" "$CHART" --namespace "$ns" --kube-version "$KUBE_VERSION" "$@"
}

if [ "${1:-}" = "--update" ]; then
  step "re-rendering $RENDERED"
  { echo "# Rendered from helm/agent-farm with default values (release agent-farm, namespace agent-farm) by"
    echo "# scripts/check-deploy.sh --update. For clusters without Helm: kubectl apply -n agent-farm -f $RENDERED"
    render agent-farm agent-farm; } > "$RENDERED"
fi

step "helm lint and template: default values"
helm lint --strict --kube-version "$KUBE_VERSION" "$CHART"
render agent-farm agent-farm > "$out/default.yaml"
"$VALIDATE" "$out/default.yaml"
for values in "$CHART"/ci/*.yaml; do
  step "helm lint and template: $values"
  helm lint --strict --kube-version "$KUBE_VERSION" "$CHART" -f "$values"
  render "farm-$(basename "$values" .yaml)" team-a -f "$values" > "$out/$(basename "$values")"
  "$VALIDATE" "$out/$(basename "$values")"
done
step "helm template: a value outside the schema is refused"
if render agent-farm agent-farm --set launcher.mode=threads > /dev/null 2>&1; then fail "launcher.mode=threads was accepted"; fi

step "$RENDERED is the chart rendered with defaults"
"$VALIDATE" "$RENDERED"
diff <(grep -v '^# ' "$RENDERED" | grep -v '^#$') <(grep -v '^# ' "$out/default.yaml") > "$out/drift" ||
  { head -40 "$out/drift" >&2; fail "$RENDERED is stale: run bash scripts/check-deploy.sh --update"; }

step "the coding-agent Job the orchestrator creates and the build Job the builder creates"
node --import tsx scripts/k8s/agent-job.ts | "$VALIDATE" -refs=false -
node --import tsx scripts/k8s/build-job.ts | "$VALIDATE" -refs=false -

if command -v docker-compose >/dev/null; then
  step "docker-compose config"
  docker-compose -f docker-compose.yml config -q
elif docker compose version >/dev/null 2>&1; then
  step "docker compose config"
  docker compose -f docker-compose.yml config -q
else
  step "no docker-compose here: compose file not checked"
fi

if command -v promtool >/dev/null; then
  step "promtool: Prometheus config, alert rules and their tests"
  promtool check config deploy/prometheus/prometheus.yml
  (cd deploy/prometheus && promtool test rules alerts.test.yml)
  for app in orchestrator builder request-planner code-planner coding-agent srm rag-service; do
    step "promtool check metrics: $app"
    node --import tsx scripts/k8s/print-metrics.ts "$app" > "$out/metrics-$app.txt"
    [ -s "$out/metrics-$app.txt" ] || fail "$app served no metrics"
    problems=$(promtool check metrics < "$out/metrics-$app.txt" 2>&1) || fail "$app metrics: $problems"
    echo "$(grep -c '^# TYPE' "$out/metrics-$app.txt") metric families pass" >&2
  done
else
  step "no promtool here: metrics and alert rules not checked"
fi

step "the Grafana dashboard loads and names only exported metrics"
KAFKA_BROKERS=${KAFKA_BROKERS:-unused} DATABASE_URL=${DATABASE_URL:-unused} NODE_OPTIONS=--experimental-vm-modules \
  npx jest -c jest.unit.config.js scripts/k8s/dashboard.test.ts

step "deploy checks passed"
