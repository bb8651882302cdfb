#!/usr/bin/env bash
# Installs what the farm needs to run from a fresh clone: pnpm and the workspace's packages.
# Kafka and PostgreSQL are installed/started by the test set-up itself (scripts/local-services).
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1; }
if ! need node || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  echo "agent-farm needs Node.js 20 or newer (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi
need git || { echo "agent-farm needs git (git http-backend serves the local repos)" >&2; exit 1; }
if ! need pnpm; then
  echo "installing pnpm..." >&2
  COREPACK_ENABLE_DOWNLOAD_PROMPT=0 corepack enable pnpm 2>/dev/null && pnpm --version >/dev/null 2>&1 ||
    npm install -g --silent pnpm@9.15.9
fi
pnpm install --frozen-lockfile --reporter=append-only >&2
