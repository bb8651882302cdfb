#!/usr/bin/env bash
# Installs what the farm needs to run from a fresh clone: pnpm and the workspace's packages.
# Kafka, PostgreSQL and the other test services are installed/started by the test set-up (scripts/local-services).
#
# pnpm comes from the npm registry into .cache/tools (never through corepack: its pnpm fails on machines
# whose registry metadata it cannot verify, and its shim then owns the `pnpm` name). Source this file's
# sibling scripts/pnpm-env.sh, or run scripts/pnpm, to use that pnpm afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "bootstrap: $*" >&2
  exit 1
}
need() { command -v "$1" >/dev/null 2>&1; }
if ! need node || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  fail "agent-farm needs Node.js 20 or newer (found: $(node --version 2>/dev/null || echo none)); install it from your OS packages or nodejs.org"
fi
need npm || fail "agent-farm needs npm (it ships with Node.js) to install pnpm"
need git || fail "agent-farm needs git (git http-backend serves the local repos)"

# shellcheck source=scripts/pnpm-env.sh
. scripts/pnpm-env.sh
if ! pnpm_works; then
  echo "bootstrap: installing pnpm@$FARM_PNPM_VERSION into .cache/tools (from the npm registry)..." >&2
  mkdir -p .cache/tools
  log=.cache/tools/npm-install.log
  if ! npm install --prefix .cache/tools --no-save --no-audit --no-fund --no-package-lock \
    "pnpm@$FARM_PNPM_VERSION" >"$log" 2>&1; then
    cat "$log" >&2
    fail "could not install pnpm@$FARM_PNPM_VERSION with npm (registry: $(npm config get registry 2>/dev/null)); see the npm output above"
  fi
  pnpm_works || fail "pnpm was installed into .cache/tools but does not run: $("$FARM_PNPM" --version 2>&1 | tail -1)"
fi
"$FARM_PNPM" install --frozen-lockfile --reporter=append-only >&2 ||
  fail "pnpm install failed (see above); the lockfile is pnpm-lock.yaml"
# The farm's processes (and `farm`) run from their bundles: built when missing or older than the sources.
"$FARM_PNPM" --silent build:check >/dev/null 2>&1 || "$FARM_PNPM" build >&2 || fail "pnpm build failed (see above)"
