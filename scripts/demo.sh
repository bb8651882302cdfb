#!/usr/bin/env bash
# One command for a new user: install, then run the whole farm on this machine (`farm demo`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec ./farm demo "$@"
