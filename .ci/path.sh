# Sourced by .ci/run (and its test): a PATH on which pnpm, pnpx and corepack fail the way corepack's signature
# check fails on a fresh machine, while every other tool stays where it is.
#
# The shims come first on PATH and shadow the real ones; the PATH's own directories are kept as they are (not
# copied), so a tool that scripts/test.sh installs into one of them later (apt's /usr/bin/chromium) is found.
ci_shadow_pnpm() { # <dir for the shims>; prints the new PATH
  local shims=$1 tool
  for tool in corepack pnpm pnpx; do
    cat >"$shims/$tool" <<'SH'
#!/bin/sh
echo "Internal Error: Error: No compatible signature found in package metadata" >&2
exit 1
SH
    chmod +x "$shims/$tool"
  done
  printf '%s:%s\n' "$shims" "$PATH"
}
