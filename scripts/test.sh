#!/usr/bin/env bash
# Every test, from a fresh clone: installs dependencies, checks the generated contracts, types and lint,
# then runs jest. Kafka and PostgreSQL are started by the jest global setup (stopped at the end) unless
# KAFKA_BROKERS / DATABASE_URL point at running ones; the git server and scripted model run in-process.
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1; }
if { ! need java || ! need mvn; } && [ "$(id -u)" = 0 ]; then
  echo "installing Java and Maven (Kafka's broker runs from its Maven Central jars)..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless maven >&2
fi
bash scripts/bootstrap.sh
pnpm lint
rm -f .cache/test-summary.txt
status=0
pnpm test || status=$?
# Jest prints its own summary after the reporters; repeat the plain line so it closes the output.
[ -f .cache/test-summary.txt ] && cat .cache/test-summary.txt
exit $status
