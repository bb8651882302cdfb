#!/usr/bin/env bash
# Every test, from a fresh clone: installs what the tests need, checks the generated contracts, types and
# lint, runs jest (Kafka, PostgreSQL and a Kubernetes control plane with the process node are started by the
# jest global set-up of the integration lane and stopped at the end, unless KAFKA_BROKERS / DATABASE_URL /
# KUBECONFIG point at running ones; the git server, scripted model, srm and Qdrant double run in-process), then checks the Helm chart,
# manifests, compose file, Prometheus rules and dashboard.
set -euo pipefail
cd "$(dirname "$0")/.."

# Where the time goes, on standard output (what CI shows): each step with the clock and the seconds since the start.
step() { echo "test.sh: $(date -u +%H:%M:%S) +$SECONDS s (load $(cut -d' ' -f1-3 /proc/loadavg)): $*"; }
# Every process under this script (its background builds, a hung step), but not those under `self`.
descendants() {
  { ps -eo pid=,ppid= 2>/dev/null || true; } | awk -v root="$1" -v self="${2:-0}" '{ parent[$1] = $2 }
    END { for (p in parent) { x = p; while ((x in parent) && x != root && x != self && x > 1) x = parent[x]
          if (x == root && p != root) print p } }'
}
# A run that hangs fails with what was running instead of at CI's limit with nothing said: past the deadline
# (FARM_TEST_DEADLINE_S, 80 minutes by default: under CI's 90) the processes and the background logs' tails are
# printed, then every process under this script is stopped and the run fails.
watchdog() {
  local me=$BASHPID pids
  sleep "$1" & wait $! || return 0
  trap '' TERM # outlives the EXIT trap's signal by the 10 s it gives before the KILL
  echo "test.sh: still running after $1 s (FARM_TEST_DEADLINE_S): stopping it. What was running:"
  ps -o pid,ppid,etimes,stat,args -p "$(descendants $$ "$me" | paste -sd, -)" 2>/dev/null | cut -c1-300 || true
  echo "--- the machine: load, memory, the busiest processes"
  cat /proc/loadavg
  free -m || true
  ps -eo pid,ppid,etimes,pcpu,rss,stat,args --sort=-pcpu 2>/dev/null | head -n 15 | cut -c1-200 || true
  for log in .cache/go-tools.log .cache/image-build.log; do
    [ -f "$log" ] && { echo "--- tail of $log"; tail -n 20 "$log"; }
  done
  pids=$(descendants $$ "$me")
  kill -TERM $$ # exits (with its EXIT trap) as soon as the step it waits for is stopped
  # shellcheck disable=SC2086
  [ -z "$pids" ] || kill -TERM $pids 2>/dev/null || true
  sleep 10
  # shellcheck disable=SC2086
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
}
watchdog "${FARM_TEST_DEADLINE_S:-4800}" &
# On any exit (a failed step under set -e too), nothing this script started outlives it: a background build or the
# watchdog would hold CI's output open.
stop_background() {
  local pids
  pids=$(descendants $$)
  # shellcheck disable=SC2086
  [ -z "$pids" ] || kill -TERM $pids 2>/dev/null || true
}
trap stop_background EXIT
step "installing what the tests need"

need() { command -v "$1" >/dev/null 2>&1; }
apt_install() {
  [ "$(id -u)" = 0 ] || { echo "missing: $* (install them, or run as root to let this script do it)" >&2; return 1; }
  [ -n "${APT_UPDATED:-}" ] || { apt-get update -qq >&2 && APT_UPDATED=1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}
# Kafka's broker runs from its Maven Central jars; PostgreSQL is installed by the test set-up when missing.
{ need java && need mvn; } || apt_install default-jre-headless maven
need go || apt_install golang-go                  # builds the Kubernetes control plane (Go 1.22+), helm, the validator
need unshare && need prlimit || apt_install util-linux # sandbox: namespaces and resource limits
need docker-compose || apt_install docker-compose  # `config` validates docker-compose.yml (no engine needed)
{ need promtool && need prometheus; } || apt_install prometheus # promtool checks rules and metrics; the dashboard test scrapes farm up
need chromium || apt_install chromium              # the console's browser tests (playwright-core drives it)
# The farm's image, built from the Dockerfile and run by its test (scripts/image): podman, and debootstrap for the
# node:24-slim stand-in (no image registry is needed).
need ps && need free || apt_install procps         # the watchdog's and the clean-up's view of the processes
need podman && need buildah && need debootstrap && need newuidmap && need fuse-overlayfs && need slirp4netns ||
  apt_install podman buildah uidmap debootstrap fuse-overlayfs slirp4netns
# The real node of the Kubernetes tests (scripts/local-services/real-node): containerd and runc, the bridge CNI
# plugins, iptables with ipset and nft for kube-router's NetworkPolicies and for putting the host back.
{ need containerd && need runc && [ -x /usr/lib/cni/bridge ] && need ipset && need nft && need iptables-save; } ||
  apt_install containerd runc containernetworking-plugins ipset nftables iptables
python3 -m pytest --version >/dev/null 2>&1 || python3 -m pip install -q pytest || apt_install python3-pytest
# schemathesis fuzzes the HTTP API against its OpenAPI document (http-api.schemathesis.integration.test.ts);
# a venv of its own under .cache, pinned, so that the run is the same on every machine.
schemathesis_version=4.32.5
if [ "$(.cache/schemathesis/bin/schemathesis --version 2>/dev/null)" != "schemathesis, version $schemathesis_version" ]; then
  rm -rf .cache/schemathesis
  python3 -m venv .cache/schemathesis || { rm -rf .cache/schemathesis && apt_install python3-venv && python3 -m venv .cache/schemathesis; }
  .cache/schemathesis/bin/python -m pip install -q "schemathesis==$schemathesis_version"
fi

step "bootstrap: dependencies and bundles"
bash scripts/bootstrap.sh
. scripts/pnpm-env.sh
pnpm_works || { echo "test.sh: pnpm is not usable after bootstrap" >&2; exit 1; }
# What a killed earlier run left (its real node's processes, bridge, rules, mounts) goes first, before it slows or
# disturbs anything here.
node --import tsx scripts/local-services/real-node/cli.ts restore
# The Go tools (Kubernetes control plane + helm, the manifest validator, Gitea) build in the background from here on,
# cached outside the clone: a cold build overlaps lint, tsc and every test that needs no cluster; the cluster's
# tests run last and wait for it (scripts/local-services/kubernetes-later.ts), check-deploy.sh after them.
# Not niced: cold, this build is the run's critical path (niced, it ended at +28 min and every Gitea, image and
# cluster test waited for it; the cluster tests then took 15 min).
mkdir -p .cache
node --import tsx scripts/local-services/go-tools.ts build >.cache/go-tools.log 2>&1 &
go_tools=$!
# Likewise the image (scripts/image/build.ts: minutes cold, seconds from podman's cache outside the clone); its test
# waits for it. Niced: cold it was done 7 minutes before the Go tools, which the same tests wait for too.
nice -n 10 node --import tsx scripts/image/build.ts >.cache/image-build.log 2>&1 &
image_build=$!
# A real model server (llama.cpp's, from PyPI's xllamacpp wheel) and a small GGUF model from PyPI, for the tests of
# how the farm reads real servers (scripts/local-services/llama-server.ts): ~290 MB fetched once, little CPU; its
# test waits for it.
nice -n 10 node --import tsx scripts/local-services/llama-server.ts install >.cache/llama-install.log 2>&1 &
# A real model gateway (LiteLLM's proxy, from PyPI, ~750 MB once, in ~/.cache/agent-farm) in front of the scripted
# model, for the tests of how the farm reads what gateways answer (scripts/local-services/litellm-proxy.ts).
nice -n 10 node --import tsx scripts/local-services/litellm-proxy.ts install >.cache/litellm-install.log 2>&1 &
step "build:check, lint"
# The farm's processes run from their bundles (dist/), which bootstrap.sh built when they were missing or
# stale: the check fails when a bundle does not match its sources (as proto:check does for the contracts).
pnpm build:check
# Ten minutes is far beyond what lint takes (under one): past it, something is wrong with the machine, not the code.
timeout --kill-after=10 600 pnpm lint || { echo "test.sh: lint failed or ran past 10 minutes (load $(cat /proc/loadavg))"; exit 1; }
# The documentation site (VitePress): the build fails on a dead link (a page, file, heading or directory link) and on
# a page the index's tables leave out of the sidebar.
step "docs:build"
pnpm docs:build || { echo "test.sh: the documentation site did not build (a dead link or a page missing from docs/README.md's tables: see above)"; exit 1; }
rm -f .cache/test-summary.*txt .cache/real-node-cost.txt
status=0
host_check() { node --import tsx scripts/local-services/real-node/host-check.ts "$@"; }
host_check record .cache/host-before.json
# Two lanes, every test file in exactly one: what needs no service in parallel, then the integration tests one
# at a time with the services (both run, whichever fails).
step "proto:check, type check"
if pnpm proto:check && pnpm exec tsc -p tsconfig.json; then
  step "unit lane"
  pnpm test:unit || status=$?
  step "integration lane"
  pnpm test:integration || status=$?
else
  status=1
fi
summary=$(cat .cache/test-summary.unit.txt .cache/test-summary.integration.txt 2>/dev/null || true)
step "waiting for the background builds"
wait "$go_tools" || echo "test.sh: the background build of the Go tools failed (.cache/go-tools.log); check-deploy builds them again" >&2
wait "$image_build" || echo "test.sh: the background build of the image failed (.cache/image-build.log); its test built it again" >&2
# The host as found: after the lanes (whose real node put back what it changed), and after a node killed with a
# running pod, whose leftovers the next start puts back (the `restore` it runs first). The node starts while the
# deploy checks run.
step "deploy checks, with a node killed mid-pod and the host compared"
host_check killed-run &
killed_run=$!
bash scripts/check-deploy.sh || status=$?
{ wait "$killed_run" && node --import tsx scripts/local-services/real-node/cli.ts restore &&
  host_check compare .cache/host-before.json; } || status=1
# Jest prints its own summary after the reporters; repeat the plain line of each lane so they close the output,
# with what the real node cost.
step "done"
cat .cache/real-node-cost.txt 2>/dev/null || true
[ -n "$summary" ] && echo "$summary"
exit $status
