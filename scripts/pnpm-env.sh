# Sourced by the project's scripts: picks the pnpm to use and puts it first on PATH.
# A pnpm already on PATH is used only when it really runs and is the pinned major version (a corepack shim
# that fails its signature check does not count); otherwise the one bootstrap.sh installs in .cache/tools.
FARM_ROOT=${FARM_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
FARM_PNPM_VERSION=$(node -p "require('$FARM_ROOT/package.json').packageManager.split('@')[1]")
FARM_TOOLS_BIN="$FARM_ROOT/.cache/tools/node_modules/.bin"
export COREPACK_ENABLE_STRICT=0 COREPACK_ENABLE_DOWNLOAD_PROMPT=0

pnpm_works() {
  local v
  for candidate in "$FARM_TOOLS_BIN/pnpm" "$(command -v pnpm 2>/dev/null || true)"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] || continue
    v=$("$candidate" --version 2>/dev/null) || continue
    if [ "${v%%.*}" = "${FARM_PNPM_VERSION%%.*}" ]; then
      FARM_PNPM=$candidate
      [ "$candidate" != "$FARM_TOOLS_BIN/pnpm" ] || export PATH="$FARM_TOOLS_BIN:$PATH"
      return 0
    fi
  done
  FARM_PNPM="$FARM_TOOLS_BIN/pnpm"
  return 1
}
