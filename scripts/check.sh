#!/usr/bin/env bash
# The README's test command: format, lint, type-check, then every test of every package.
# Ends with one line `N passed, N failed` summed over all ava runs; exits non-zero on any failure.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
set +e
out="$WMCO_ROOT/.ci-out"
rm -rf "$out" && mkdir -p "$out"
failed_steps=()

step() {
  local name=$1
  shift
  echo "== $name" >&2
  if ! "$@"; then failed_steps+=("$name"); fi
}

step format pnpm exec prettier --check --log-level warn .
step lint pnpm exec eslint --max-warnings=-1 .
step typecheck pnpm exec tsc -b
# The public API of @wmco/core against packages/core/api/*.api.md (reads the declarations tsc just built).
step api-report node "$WMCO_ROOT/scripts/api-report.mjs"
if [ ${#failed_steps[@]} -eq 0 ] || [[ " ${failed_steps[*]} " != *" typecheck "* ]]; then
  bash "$WMCO_ROOT/scripts/test.sh" "$out"
  [ $? -eq 0 ] || failed_steps+=("tests")
fi
[ ${#failed_steps[@]} -eq 0 ] || echo "failed steps: ${failed_steps[*]}" >&2
node "$WMCO_ROOT/scripts/tap-summary.js" "$out" "${#failed_steps[@]}"
[ ${#failed_steps[@]} -eq 0 ]
